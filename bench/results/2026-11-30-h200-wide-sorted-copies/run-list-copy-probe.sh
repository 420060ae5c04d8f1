#!/usr/bin/env bash
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add' | grep -v '_in_order$' | sort -u | paste -sd,)
echo "$E" > $D/shapes.txt
for i in 1 2; do
  timeout 100 .gpu/bin/bench-before --collision-sweep --reps 30 --only $E --json $D/ia-before-$i.jsonl > $D/ia-before-$i.log 2>&1; echo "before $i rc=$? t=$(( $(date +%s) - S ))"
  DML_PROBE_COPY_FIRST=1 timeout 100 .gpu/bin/bench-probe --collision-sweep --reps 30 --only $E --json $D/ia-first-$i.jsonl > $D/ia-first-$i.log 2>&1; echo "first $i rc=$? t=$(( $(date +%s) - S ))"
  DML_PROBE_NO_WIDE=1 timeout 100 .gpu/bin/bench-probe --collision-sweep --reps 30 --only $E --json $D/ia-nowide-$i.jsonl > $D/ia-nowide-$i.log 2>&1; echo "nowide $i rc=$? t=$(( $(date +%s) - S ))"
done
timeout 100 .gpu/bin/bench-before --collision-sweep --in-place --reps 30 --only $E --json $D/ia-inplace.jsonl > $D/ia-inplace.log 2>&1; echo "inplace rc=$? t=$(( $(date +%s) - S ))"
P=sweep_index_add_f16_4096x512_into_32768,sweep_index_add_f16_1024x1024_into_32768,sweep_index_add_f16_4096x4096_into_32768,sweep_index_add_f64_4096x512_into_32768,sweep_index_add_f32_2048x1024_into_32768
timeout 100 .gpu/bin/bench-before --collision-sweep --profile --reps 30 --only $P > $D/profile-before.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
DML_PROBE_COPY_FIRST=1 timeout 100 .gpu/bin/bench-probe --collision-sweep --profile --reps 30 --only $P > $D/profile-first.log 2>&1; echo "profile first rc=$? t=$(( $(date +%s) - S ))"
