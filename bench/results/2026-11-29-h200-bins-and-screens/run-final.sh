#!/usr/bin/env bash
# Issue 26, as committed (ff33625): screen_output (the inputs' tie claims and the sign atomics' NaN screen in one pass),
# copying output = input for the claims and the f32 atomics. before = main (8212ec4), after = ff33625; the collision sweep and
# the reduction workloads alternating twice, peers, profiles; the release tests.
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
for t in shaders scatter_reductions scatter_float_add scatter_rows scatter_sort scatter_wide scatter_float_rounding windows fuzz; do
  timeout 150 .gpu/bin/$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
for t in pipelines context; do
  timeout 150 .gpu/bin/$t --test-threads=1 > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
