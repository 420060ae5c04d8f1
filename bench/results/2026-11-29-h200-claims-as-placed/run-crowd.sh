#!/usr/bin/env bash
# Issue 26: the sign atomics only where the updates are at most 4 an output unit (SIGN_ATOMICS_CROWD). before = main at
# 3ba64a1 (bench-after), crowd = the change; *signed: the benchmark's Float32 values of random sign. The 16-unit edges
# (which now keep the loop) and scatter_max_f32, both modes, alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=sweep_edges_f32_max_1048576x16_into_65536,sweep_edges_f32_max_65536x64_into_262144
S=$(date +%s)
for i in 1 2; do
  for b in after crowd aftersigned crowdsigned; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_max_f32 --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
