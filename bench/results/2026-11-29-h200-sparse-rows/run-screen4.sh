#!/usr/bin/env bash
# Issue 26: screen_float_add four units a thread. before = main at b0677af, after = the change; the Float32 Add shapes of the
# collision sweep and the reduction workloads alternating three times, peers, profiles, tests (and a mutant whose screen
# tests only a thread's first unit: expected to fail).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=$(for t in 1 1000 4096 16385 65536 131072 1048576 4194304; do printf 'sweep_elements_f32_add_4194304_to_%s,' $t; done)
E=${E%,}
W=scatter_add_rows,scatter_add_heavy,scatter_max_f32
S=$(date +%s)
for i in 1 2 3; do
  for b in before after; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 10 --profile --only $E > $D/profile-$b.log 2>&1; done; echo "profile t=$(( $(date +%s) - S ))"
for t in scatter_float_add scatter_float_add-mutant shaders scatter_reductions; do
  timeout 150 .gpu/bin/test-$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 150 .gpu/bin/test-pipelines --test-threads=1 > $D/test-pipelines.log 2>&1; echo "pipelines rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
