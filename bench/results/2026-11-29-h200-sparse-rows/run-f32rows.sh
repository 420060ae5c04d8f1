#!/usr/bin/env bash
# Issue 26: Float32 index_add rows (new sweep shapes) by the lists (before = 717f7e3), by the sparse rows' loop (after =
# main at 168d136) and by the f32 atomics where the rows are sparse (probe: DML_PROBE_SPARSE_ATOMICS, probe-atomics.diff);
# alternating three times, peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add_f32|index_add_f16_16x|65536x64_into_262144' | grep -v '_in_order$' | sort -u | paste -sd,)
echo "$E" > $D/shapes.txt
for i in 1 2 3; do
  for b in before after probe; do
    B=$b; [ $b = probe ] && export DML_PROBE_SPARSE_ATOMICS=1 || unset DML_PROBE_SPARSE_ATOMICS
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_add_rows --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
unset DML_PROBE_SPARSE_ATOMICS
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
timeout 60 .gpu/bin/bench-after --collision-sweep --reps 10 --profile --only $E > $D/profile-after.log 2>&1
DML_PROBE_SPARSE_ATOMICS=1 timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 10 --profile --only $E > $D/profile-probe.log 2>&1
timeout 60 .gpu/bin/bench-before --collision-sweep --reps 10 --profile --only $E > $D/profile-before.log 2>&1; echo "profiles t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
