#!/usr/bin/env bash
# Issue 26 probe: the default mode's single Float64 elements by the row lists (link_slices, then
# each unit's list folded as the output is copied) instead of a 64-bit compare-exchange an update.
# A probe build (9ce37f0 with DML_WGSL_PROBE_ELEMENT_LISTS=MEAN: the lists where the updates
# average at most MEAN an output unit, past 2048 units; unset: main's path), two passes each;
# then the lists' profiles.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
Z=""
for t in 1000 2049 4096 8192 16384 16385 65536 131072 1048576 4194304; do Z="$Z,sweep_elements_f64_add_4194304_to_$t"; done
for t in 16384 65536; do Z="$Z,sweep_zeros_f64_add_4194304_to_$t"; done
Z="$Z,sweep_many_f64_add_67108864_to_16384"
E=${Z#,}
for i in 1 2; do
  timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 10 --only $E --json $D/s-main-$i.jsonl > $D/s-main-$i.log 2>&1; echo "s main rc=$? t=$(( $(date +%s) - S ))"
  DML_WGSL_PROBE_ELEMENT_LISTS=100000000 timeout 90 .gpu/bin/bench-probe --collision-sweep --reps 10 --only $E --json $D/s-lists-$i.jsonl > $D/s-lists-$i.log 2>&1; echo "s lists rc=$? t=$(( $(date +%s) - S ))"
done
DML_WGSL_PROBE_ELEMENT_LISTS=100000000 timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 3 --profile --only $E > $D/p-lists.log 2>&1; echo "p rc=$? t=$(( $(date +%s) - S ))"
