#!/usr/bin/env bash
# Issue 26: the commit (`after`: fold_slice_runs four slices a batch; long runs of Add and Mul folded from the
# later passes; at most a run a block listed) against main at 8e50325 (`before`). First the commit's release
# shaders, scatter_rows, scatter_sort and the rows fuzzer (60 s); then PyTorch's peers; the whole collision
# sweep and the reduction workloads, before then after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in shaders scatter_rows scatter_sort; do
  timeout 120 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
DML_WGSL_FUZZ_SECONDS=200 DML_WGSL_FUZZ_SEED=5000000 timeout 90 .gpu/bin/fuzz_heavy fuzz_row --nocapture > $D/fuzz-rows.log 2>&1; echo "fuzz rc=$? t=$(( $(date +%s) - S ))"; grep -E "fuzz rows|test result" $D/fuzz-rows.log
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
(cd bench && timeout 75 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 110 .gpu/bin/bench-$b --collision-sweep --reps 10 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
