#!/usr/bin/env bash
# Issue 26: 8-byte rows in any order combined across workgroups by 64-bit atomics (ReduceOrder::RowsWide):
# a hub's rows past the lists' bound (reduce_spilled_rows) and rows crowded onto few blocks, sorted
# (reduce_sorted_rows). `after` is the work tree, `before` main at 0302dd0. First the work tree's release
# scatter_rows and scatter_wide; then PyTorch's peers; the sweep's Float64 row shapes and hubs, before, after,
# and after with the probes DML_WGSL_PROBE_WIDE_SORTED_MEAN 32, 64, 512 and DML_WGSL_PROBE_WIDE_CROWDED_FIRST;
# the reduction workloads before and after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
S=$(date +%s)
for t in scatter_rows scatter_wide; do
  timeout 100 .gpu/bin/$t --test-threads=4 > $D/test-$t.log 2>&1; echo "test $t rc=$? t=$(( $(date +%s) - S ))"; grep "test result" $D/test-$t.log
done
(cd bench && timeout 75 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_\(few_f64\|hub\|index_add_f64\)[a-z0-9_]*' $D/torch-sweep.log | sort -u | paste -sd,)
[ -n "$E" ] || E=$(grep -o '"sweep_\(few_f64\|hub\|index_add_f64\)[a-z0-9_]*' $D/torch-sweep.jsonl | tr -d '"' | sort -u | paste -sd,)
echo "shapes: $E"
for b in before after; do
  timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 20 --only $E --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
done
for v in WIDE_SORTED_MEAN=32 WIDE_SORTED_MEAN=64 WIDE_SORTED_MEAN=512 WIDE_CROWDED_FIRST=1; do
  n=$(echo $v | tr -d '_=' | tr A-Z a-z)
  env DML_WGSL_PROBE_$v timeout 60 .gpu/bin/bench-after --collision-sweep --reps 20 --only $E --json $D/s-$n-1.jsonl > $D/s-$n-1.log 2>&1; echo "s $n rc=$? t=$(( $(date +%s) - S ))"
done
for b in before after; do
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
