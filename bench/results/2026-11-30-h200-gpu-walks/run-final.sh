#!/usr/bin/env bash
# Issue 26: main at 9030d1f against the head (73f3de1; its kernels and plans are gpu2's): the whole collision sweep
# and the reduction workloads, PyTorch's peers in the same command; then the head's release tests that changed
# (scatter_rows, the library's unit tests, tests/context.rs; one test thread where contexts are made).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_nd_rows
S=$(date +%s)
(cd bench && timeout 60 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in main gpu2; do
  timeout 90 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/sweep-$b-1.jsonl > $D/sweep-$b-1.log 2>&1; echo "sweep $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
timeout 100 .gpu/bin/test-scatter_rows > $D/test-scatter_rows.log 2>&1; echo "scatter_rows rc=$? t=$(( $(date +%s) - S ))"
timeout 100 .gpu/bin/test-lib --test-threads=1 > $D/test-lib.log 2>&1; echo "lib rc=$? t=$(( $(date +%s) - S ))"
timeout 100 .gpu/bin/test-context --test-threads=1 > $D/test-context.log 2>&1; echo "context rc=$? t=$(( $(date +%s) - S ))"
