#!/usr/bin/env bash
# Issue 26: main at 9030d1f against `gpu` (the wide copies walking FOLD_STEPS a part on a GPU), the reduction
# workloads and the index_add sweep alternating three times; then gpu's release tests.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_nd_rows
S=$(date +%s)
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2 3; do
  for b in main gpu; do
    timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for t in scatter_rows scatter_sort scatter_reductions fuzz shaders; do
  timeout 100 .gpu/bin/test-$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 100 .gpu/bin/test-lib --test-threads=1 > $D/test-lib.log 2>&1; echo "lib rc=$? t=$(( $(date +%s) - S ))"
