#!/usr/bin/env bash
# Issue 26: Float64 Add and Mul in order fold long runs by the device's f64 chain, four steps a call
# (after) against run 2's chain with inner loops of eight (loops) and main at ab5def3 (before; all with
# the sweep's f64 element shapes timed in both modes). First the work tree's release scatter_reductions,
# scatter_wide and scatter_heavy; then PyTorch's peers (the sweep, with deterministic peers of the f64
# element shapes, and the workloads); the three builds alternating twice on the f64 element shapes and
# the reduction workloads; after's profiles.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
for t in scatter_reductions scatter_wide scatter_heavy; do
  timeout 150 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
E=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_2049,sweep_elements_f64_add_4194304_to_4096,sweep_elements_f64_add_4194304_to_8192,sweep_elements_f64_add_4194304_to_16384,sweep_elements_f64_add_4194304_to_16385,sweep_elements_f64_add_4194304_to_65536,sweep_elements_f64_add_4194304_to_131072,sweep_elements_f64_add_4194304_to_1048576,sweep_elements_f64_add_4194304_to_4194304,sweep_many_f64_add_67108864_to_256,sweep_many_f64_add_67108864_to_4096,sweep_many_f64_add_67108864_to_16384
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2; do
  for b in before loops after; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
    timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 30 .gpu/bin/bench-after --collision-sweep --reps 3 --profile --only $E > $D/p-after.log 2>&1; echo "p rc=$? t=$(( $(date +%s) - S ))"
