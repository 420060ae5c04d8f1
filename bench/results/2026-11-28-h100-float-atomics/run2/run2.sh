#!/usr/bin/env bash
# Run 2: the float atomics with the output-only screen and refused updates (after = the head;
# four and one: the same with 4 and 1 updates a thread in scatter_add_float_atomics instead
# of 16; before = 2ced7b8). Release tests of after; GPU: the Float32 single-element sweep and
# the rows shapes that moved in run 1, the builds alternating twice; PyTorch's collisions
# sweep in the same command.
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
E="${E}sweep_index_add_f16_4096x512_into_32768,sweep_index_add_f16_4096x16_into_32768,sweep_index_add_f64_4096x512_into_32768"
for i in 1 2; do
  for b in before after four one; do timeout 60 .gpu/bench-$b --collision-sweep --reps 20 --only $E --json $D/coll-bench-$b-$i.jsonl > $D/coll-bench-$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
(cd bench && timeout 150 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
tar cf $OUT/results.tar -C $D .
rm -rf $D
