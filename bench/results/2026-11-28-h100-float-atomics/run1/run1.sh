#!/usr/bin/env bash
# Run 1: Float32 Add by the device's f32 atomics (after = the head with the atomics and
# the wider single-element sweep; before = 2ced7b8 with the same sweep list). Release tests of
# after; GPU: the collision sweep before, after, and after with --without-float32-atomics
# (the compare-exchange path behind the screen's gate), the reduction workloads before and
# after; PyTorch's collisions sweep and reductions in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=15 timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
E=$(for t in 1 1000 4096 16385 65536 131072 1048576 4194304; do printf 'sweep_elements_f32_add_4194304_to_%s,' $t; done)
for b in before after; do timeout 150 .gpu/bench-$b --collision-sweep --reps 20 --json $D/coll-bench-$b-1.jsonl > $D/coll-bench-$b-1.log 2>&1; echo "$b sweep rc=$?"; done
timeout 60 .gpu/bench-after --collision-sweep --reps 20 --only ${E%,} --without-float32-atomics --json $D/coll-bench-without-1.jsonl > $D/coll-bench-without-1.log 2>&1; echo "without rc=$?"
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for b in before after; do timeout 60 .gpu/bench-$b --reps 30 --only $W --json $D/bench-$b-1.jsonl > $D/bench-$b-1.log 2>&1; echo "$b rc=$?"; done
(cd bench && timeout 150 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
tar cf $OUT/results.tar -C $D .
rm -rf $D
