#!/usr/bin/env bash
# Issue 26: the final head (rows of narrow units in any order, 128+ a block on average onto more than 2048
# units: sorted by block, then reduce_sorted_rows, runs of rows sized for 1024 workgroups, 32 to 1024 rows)
# against `before` (main at 525cc1d): first the head's release scatter_rows tests; then PyTorch's peers, the
# whole collision sweep and the reduction workloads, before then after, in one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
S=$(date +%s)
timeout 100 .gpu/bin/scatter_rows --test-threads=4 > $D/test-scatter_rows.log 2>&1; echo "test scatter_rows rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-scatter_rows.log
(cd bench && timeout 70 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 115 .gpu/bin/bench-$b --collision-sweep --reps 20 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 20 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
