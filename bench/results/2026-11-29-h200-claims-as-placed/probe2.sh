#!/usr/bin/env bash
# Issue 26 probes (not landed): after = main at e964647; prefetch = scatter_reduce places a thread's updates (index and
# value loads, slot claims) before combining any (probe-prefetch.diff); probe = positive Float32 Max updates by atomicMax
# on i32 words (probe-positive-max.diff); both = the two. Whole collision sweep and the reduction workloads, alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
for i in 1 2; do
  for b in after prefetch both probe; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
