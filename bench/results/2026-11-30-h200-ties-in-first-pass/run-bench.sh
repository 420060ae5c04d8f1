#!/usr/bin/env bash
# Issue 26: in-order float Min and Max by lists settle their ties in the first pass (ties), and the first fold
# pass walks 4096 rows of narrow units too (narrow: ties plus that). before = main at 6e1ce01; every index_add
# and edge shape of the collision sweep (both modes) and the reduction workloads, the three builds alternating
# twice; each pass's time of the edge shapes; the peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
# Only a few files come back from $OUT: everything goes in one tar, also if the command is cut short.
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 60 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 60 python3 torch_reductions.py --reps 30 --json $D/torch-r.jsonl > $D/torch-r.log 2>&1); echo "torch r rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add|edges' | grep -v '_in_order$' | sort -u | paste -sd,)
G=$(echo "$E" | tr , '\n' | grep edges | paste -sd,)
echo "$E" > $D/shapes.txt
for i in 1 2; do
  for b in before ties narrow; do
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/edges-$b-$i.jsonl > $D/edges-$b-$i.log 2>&1; echo "edges $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 60 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in before ties; do
  timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $G --profile > $D/profile-$b.log 2>&1; echo "profile $b rc=$? t=$(( $(date +%s) - S ))"
done
