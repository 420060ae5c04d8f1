#!/usr/bin/env bash
# Issue 26 probe: scatter_add_float_atomics reads the screen's status word once a workgroup instead of once a thread.
# before = main at 1a008e1, after = the change; the Float32 Add sweep alternating three times; scatter_float_add's tests.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=sweep_elements_f32_add_4194304_to_1,sweep_elements_f32_add_4194304_to_1000,sweep_elements_f32_add_4194304_to_4096,sweep_elements_f32_add_4194304_to_16385,sweep_elements_f32_add_4194304_to_65536,sweep_elements_f32_add_4194304_to_131072,sweep_elements_f32_add_4194304_to_1048576,sweep_elements_f32_add_4194304_to_4194304
S=$(date +%s)
for i in 1 2 3; do
  for b in before after; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 100 .gpu/bin/scatter_float_add > $D/test-scatter_float_add.log 2>&1; echo "tests rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
