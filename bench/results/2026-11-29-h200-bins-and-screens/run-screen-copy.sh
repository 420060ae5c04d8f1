#!/usr/bin/env bash
# Issue 26: the output's screens copy `output = input` as they read (screen_output: the inputs' tie claims and the sign
# atomics' NaN screen in one pass; screen_float_add), before = main (8212ec4), after = the change; the collision sweep and
# the reduction workloads alternating twice, peers, profiles; the release tests, and a mutant (the float screen blind).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
for i in 1 2; do
  for b in before after; do
    timeout 150 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 120 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
(cd bench && timeout 170 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 100 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
P=$(grep -o 'sweep_[a-z0-9_]*' $D/edges-before-1.log | grep -E 'f32_add|edges_f32_max_1048576x16' | sort -u | paste -sd,)
timeout 60 .gpu/bin/bench-after --collision-sweep --reps 30 --profile --only $P > $D/profile-sweep.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
timeout 60 .gpu/bin/bench-after --reps 30 --profile --only scatter_max_f32 > $D/profile-w.log 2>&1; echo "profile w rc=$? t=$(( $(date +%s) - S ))"
for t in shaders scatter_reductions scatter_float_add scatter_rows windows fuzz; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 100 .gpu/bin/scatter_float_add-mutant > $D/test-scatter_float_add-mutant.log 2>&1; echo "mutant rc=$? (expected to fail) t=$(( $(date +%s) - S ))"
for t in pipelines context; do
  timeout 150 .gpu/bin/$t --test-threads=1 > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
