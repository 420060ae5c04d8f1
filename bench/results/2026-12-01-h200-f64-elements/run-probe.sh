#!/usr/bin/env bash
# Issue 26: Float64 Add of single elements in any order (the sweep's worst shapes) against the same
# shapes in order (sorted by target, runs folded): main at ab5def3 with the sweep's f64 element shapes
# timed in both modes; then each with --profile (the time of each dispatch).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
E=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_2049,sweep_elements_f64_add_4194304_to_4096,sweep_elements_f64_add_4194304_to_8192,sweep_elements_f64_add_4194304_to_16384,sweep_elements_f64_add_4194304_to_16385,sweep_elements_f64_add_4194304_to_65536,sweep_elements_f64_add_4194304_to_131072,sweep_elements_f64_add_4194304_to_1048576,sweep_elements_f64_add_4194304_to_4194304,sweep_many_f64_add_67108864_to_256,sweep_many_f64_add_67108864_to_4096,sweep_many_f64_add_67108864_to_16384
(cd bench && timeout 75 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
timeout 120 .gpu/bin/bench-main --collision-sweep --reps 10 --only $E --json $D/s-main.jsonl > $D/s-main.log 2>&1; echo "s rc=$? t=$(( $(date +%s) - S ))"
timeout 120 .gpu/bin/bench-main --collision-sweep --reps 3 --profile --only $E > $D/p-main.log 2>&1; echo "p rc=$? t=$(( $(date +%s) - S ))"
