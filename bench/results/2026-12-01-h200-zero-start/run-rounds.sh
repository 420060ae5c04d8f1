#!/usr/bin/env bash
# Issue 26: fold_long_runs folds up to LONG_ROUNDS (16) spans of LONG_SPAN a pass on a GPU (after)
# against 9ce37f0's one span a pass (before). The work tree's release scatter_sort,
# scatter_reductions, scatter_heavy and fuzz_heavy first; PyTorch's sweep; then the sweep's
# single-element shapes (Float32 and Float64 elements, sums from zeros, 64 Mi Float64), both modes,
# before and after alternating three times; after's profiles of a few in-order shapes.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_sort scatter_reductions scatter_heavy fuzz_heavy; do
  timeout 150 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
Z=""
for e in f32 f64; do for t in 1 1000 2049 4096 8192 16384 16385 65536 131072 1048576 4194304; do Z="$Z,sweep_elements_${e}_add_4194304_to_$t"; done; done
for e in f32 f64; do for t in 1000 16384 65536; do Z="$Z,sweep_zeros_${e}_add_4194304_to_$t"; done; done
for t in 256 4096 16384; do Z="$Z,sweep_many_f64_add_67108864_to_$t"; done
E=${Z#,}
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2 3; do
  for b in before after; do
    timeout 90 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 40 .gpu/bin/bench-after --collision-sweep --reps 3 --profile --only sweep_elements_f32_add_4194304_to_16384_in_order,sweep_elements_f64_add_4194304_to_4194304_in_order,sweep_many_f64_add_67108864_to_256_in_order > $D/p-after.log 2>&1; echo "p rc=$? t=$(( $(date +%s) - S ))"
