#!/usr/bin/env bash
# Issue 26: head (127fe82) against `desc` (the sorted runs' find_runs and the lists' first fold describe the status,
# no describe_status dispatch), alternating three times: every reduction workload, the index_add sweep's list shapes
# and the edge sweep; `passes` (desc, with PROBE_LIST_PASSES=0: no fold_slice_list_runs pass, right where no list
# outlives the first pass, as in these edges) on the edges; then desc's release tests.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_nd_rows
S=$(date +%s)
(cd bench && timeout 60 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add_.*_(4096x512|2048x1024|1024x1024|4096x2048)_|edges' | sort -u | paste -sd,)
for i in 1 2 3; do
  for b in head desc; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
G=$(echo $E | tr , '\n' | grep edges | paste -sd,)
for i in 1 2; do
  PROBE_LIST_PASSES=0 timeout 40 .gpu/bin/bench-passes --collision-sweep --reps 30 --only $G --json $D/s-passes-$i.jsonl > $D/s-passes-$i.log 2>&1; echo "s passes $i rc=$? t=$(( $(date +%s) - S ))"
  PROBE_LIST_PASSES=0 timeout 40 .gpu/bin/bench-passes --reps 30 --only scatter_max_f32_edges --json $D/w-passes-$i.jsonl > $D/w-passes-$i.log 2>&1; echo "w passes $i rc=$? t=$(( $(date +%s) - S ))"
done
for t in scatter_rows scatter_sort scatter_reductions fuzz shaders; do
  timeout 100 .gpu/bin/test-$t > $D/test-$t.log 2>&1; echo "$t rc=$? t=$(( $(date +%s) - S ))"
done
timeout 100 .gpu/bin/test-lib --test-threads=1 > $D/test-lib.log 2>&1; echo "lib rc=$? t=$(( $(date +%s) - S ))"
