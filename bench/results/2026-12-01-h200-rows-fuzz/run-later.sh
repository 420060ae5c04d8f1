#!/usr/bin/env bash
# Issue 26: long sorted runs folded from the later passes. `before`: main at 8e50325; `batched`: run 2's
# `after` (fold_slice_runs four slices a batch); `later`: the work tree (that, and runs of RUNS_LATER = 512
# slices a block on average and more folded from the later passes), and `later` with the probe
# DML_WGSL_PROBE_RUNS_LATER 64, 128, 256, 2048 (since removed). First the work tree's release scatter_rows,
# scatter_sort and the rows fuzzer (60 s); then PyTorch's peers; the sweep's in-order row shapes and the
# in-order workloads.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_rows scatter_sort; do
  timeout 120 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
DML_WGSL_FUZZ_SECONDS=200 DML_WGSL_FUZZ_SEED=4000000 timeout 90 .gpu/bin/fuzz_heavy fuzz_row --nocapture > $D/fuzz-rows.log 2>&1; echo "fuzz rc=$? t=$(( $(date +%s) - S ))"; grep -E "fuzz rows|test result" $D/fuzz-rows.log
W=scatter_add_rows_in_order,scatter_add_heavy_in_order,scatter_max_i32_in_order,scatter_max_f32_in_order,index_add_rows_f16_in_order,scatter_max_f32_edges_in_order
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '"sweep_[a-z0-9_]*_in_order' $D/torch-sweep.jsonl | tr -d '"' | grep -v edges | sort -u | paste -sd,)
for b in before batched later; do
  timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
for m in 64 128 256 2048; do
  DML_WGSL_PROBE_RUNS_LATER=$m timeout 60 .gpu/bin/bench-later --collision-sweep --reps 10 --only $E --json $D/s-later$m-1.jsonl > $D/s-later$m-1.log 2>&1; echo "s later$m rc=$? t=$(( $(date +%s) - S ))"
done
