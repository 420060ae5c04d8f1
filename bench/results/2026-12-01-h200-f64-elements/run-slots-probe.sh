#!/usr/bin/env bash
# Issue 26: the default mode's Float64 Add of single elements past the slots' ranges (more than 8192
# targets): updates a thread of scatter_reduce_wide (DML_WGSL_PROBE_WIDE_GROUP: 4 to 256, 16 as main)
# and its workgroup slots (DML_WGSL_PROBE_WIDE_SLOTS: 1, 256 as main, 1024); probe build only.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
E=sweep_elements_f64_add_4194304_to_16384,sweep_elements_f64_add_4194304_to_16385,sweep_elements_f64_add_4194304_to_65536,sweep_elements_f64_add_4194304_to_131072,sweep_elements_f64_add_4194304_to_1048576,sweep_elements_f64_add_4194304_to_4194304,sweep_many_f64_add_67108864_to_16384
(cd bench && timeout 60 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
run() { # name, env...
  local name=$1; shift
  env "$@" timeout 40 .gpu/bin/bench-probe --collision-sweep --reps 10 --only $E --json $D/s-$name-$i.jsonl > $D/s-$name-$i.log 2>&1; echo "s $name rc=$? t=$(( $(date +%s) - S ))"
}
for i in 1 2; do
  run main X=1
  for g in 4 8 32 64 256; do run g$g DML_WGSL_PROBE_WIDE_GROUP=$g; done
  for s in 1 1024; do run s$s DML_WGSL_PROBE_WIDE_SLOTS=$s; done
  run g64s1024 DML_WGSL_PROBE_WIDE_GROUP=64 DML_WGSL_PROBE_WIDE_SLOTS=1024
  run g64s1 DML_WGSL_PROBE_WIDE_GROUP=64 DML_WGSL_PROBE_WIDE_SLOTS=1
done
timeout 30 .gpu/bin/bench-probe --collision-sweep --reps 3 --profile --only $E > $D/p-main.log 2>&1; echo "p rc=$? t=$(( $(date +%s) - S ))"
