#!/usr/bin/env bash
# Issue 26: the 64-bit compare-exchange pass past the slots' ranges takes up to 4 updates a thread, 2
# where the updates crowd their targets (after), against 85aefaa (before: 16, REDUCE_GROUP). First the
# work tree's release scatter_wide and scatter_reductions; then PyTorch's peers; the whole collision
# sweep and the reduction workloads, before then after; the Float64 element shapes before and after
# alternating twice more.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_wide scatter_reductions; do
  timeout 100 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
E=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_2049,sweep_elements_f64_add_4194304_to_4096,sweep_elements_f64_add_4194304_to_8192,sweep_elements_f64_add_4194304_to_16384,sweep_elements_f64_add_4194304_to_16385,sweep_elements_f64_add_4194304_to_65536,sweep_elements_f64_add_4194304_to_131072,sweep_elements_f64_add_4194304_to_1048576,sweep_elements_f64_add_4194304_to_4194304,sweep_many_f64_add_67108864_to_256,sweep_many_f64_add_67108864_to_4096,sweep_many_f64_add_67108864_to_16384
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 120 .gpu/bin/bench-$b --collision-sweep --reps 10 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
for i in 2 3; do
  for b in before after; do
    timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  done
done
