#!/usr/bin/env bash
# Issue 26: the head (ties settled in the first pass, the tie claim a private of the ties section only; first
# fold passes of 4096 rows for every width) against main at 6e1ce01: every index_add and edge shape of the
# collision sweep and the reduction workloads alternating twice, the one shape whose time moved in run 1 in a
# process of its own three times each, the peers in the same command; a probe of Float32 Min and Max unit by unit.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 60 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 60 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add|edges' | grep -v '_in_order$' | sort -u | paste -sd,)
echo "$E" > $D/shapes.txt
for i in 1 2; do
  for b in before after; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for i in 1 2 3; do
  for b in before after; do
    timeout 30 .gpu/bin/bench-$b --collision-sweep --reps 30 --only sweep_edges_f32_max_1048576x64_into_4096 --json $D/alone-$b-$i.jsonl > $D/alone-$b-$i.log 2>&1; echo "alone $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
G=$(echo "$E" | tr , '\n' | grep edges | paste -sd,)
# The probe (probe-minmax-share.diff, not landed): Float32 Min and Max in the default mode unit by unit where the
# rows' units are at most 1/N of the output's (DML_PROBE_MINMAX_SHARE=N; 32 on main).
for i in 1 2; do
  for v in 4 2; do
    DML_PROBE_MINMAX_SHARE=$v timeout 60 .gpu/bin/bench-probe --collision-sweep --reps 30 --only $G --json $D/edges-probe$v-$i.jsonl > $D/edges-probe$v-$i.log 2>&1; echo "probe $v $i rc=$? t=$(( $(date +%s) - S ))"
  done
  timeout 60 .gpu/bin/bench-after --collision-sweep --reps 30 --only $G --json $D/edges-after-p$i.jsonl > $D/edges-after-p$i.log 2>&1; echo "after p $i rc=$? t=$(( $(date +%s) - S ))"
done
