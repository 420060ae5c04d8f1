#!/usr/bin/env bash
# Issue 26 probe: integer Add, Min and Max by WGSL's own atomics past the bins without the workgroup slots (each update
# one atomic on the output). before = main at bb9ec28, noslots = the probe; the histogram sweep, scatter_max_i32 and
# scatter_add_histogram alternating three times.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
E=$(for b in 1 16 256 1000 2049 4096 8192 16384 65536; do printf 'sweep_histogram_i32_add_4194304_to_%s,' $b; done)
S=$(date +%s)
for i in 1 2 3; do
  for b in before noslots; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only ${E%,} --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only scatter_max_i32,scatter_add_histogram --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
