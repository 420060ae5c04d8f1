#!/usr/bin/env bash
# Within-process and between-process spread of the noisy reductions: 4 processes, 4 rounds each.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp
export D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf benches.tar.xz)
W=scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64
for p in 1 2 3 4; do
  .gpu/bench --reps 30 --only $W --repeat 4 > $D/noise$p.log 2>&1
  echo "process $p: $(grep -E '^(scatter_add_histogram|scatter_min_i64_segments|index_add_rows_f16 |index_add_rows_f64) ' $D/noise$p.log | awk '{printf "%s=%s ", substr($1,1,14), $2}')"
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
tar cf $OUT/results.tar -C $D . && rm -rf $D
