#!/usr/bin/env bash
# Issue 26: rows of narrow units in any order crowded onto their blocks (64+ rows a block on average)
# sorted by block and combined across workgroups (reduce_sorted_rows) instead of lists or the element path.
# `before` is main at 525cc1d, `after` the work tree (SORTED_ROWS_MEAN 64); `after` also with the probe's
# DML_WGSL_PROBE_SORTED_MEAN 16 and 32 on the row shapes. First the work tree's release unit tests and
# scatter_rows; then the whole collision sweep and the reduction workloads, before then after; PyTorch's
# peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
S=$(date +%s)
for t in dml_wgsl scatter_rows; do
  timeout 90 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
(cd bench && timeout 70 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for b in before after; do
  timeout 115 .gpu/bin/bench-$b --collision-sweep --reps 20 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 20 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
E=$(grep -o '^sweep_\(edges\|few\|hub\|index_add\)_\(f16\|f32\|i16\)[a-z0-9_]*' $D/torch-sweep.log | grep -v in_order | sort -u | paste -sd,)
for m in 16 32; do
  DML_WGSL_PROBE_SORTED_MEAN=$m timeout 60 .gpu/bin/bench-after --collision-sweep --reps 20 --only $E --json $D/s-mean$m-1.jsonl > $D/s-mean$m-1.log 2>&1; echo "s mean$m rc=$? t=$(( $(date +%s) - S ))"
done
