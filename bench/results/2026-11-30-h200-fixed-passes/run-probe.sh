#!/usr/bin/env bash
# Issue 26: the head (127fe82), `c32` (probe: the copy as it folds takes 32 bytes a thread, so Float64's lists take
# the wide entry) and `floor` (probe, wrong results: the head with every list of the copy as it folds ignored, the
# copy's own cost); the index_add sweep and the reduction workloads alternating twice; profiles; the head's edges.
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
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'index_add' | grep -v '_in_order$' | sort -u | paste -sd,)
G=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'edges' | sort -u | paste -sd,)
for i in 1 2; do
  for b in head c32 floor; do
    timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/ia-$b-$i.jsonl > $D/ia-$b-$i.log 2>&1; echo "ia $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for b in head c32; do
  timeout 40 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $G --json $D/e-$b.jsonl > $D/e-$b.log 2>&1; echo "e $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 60 .gpu/bin/bench-$b --collision-sweep --reps 10 --profile --only $E > $D/profile-$b.log 2>&1; echo "profile $b rc=$? t=$(( $(date +%s) - S ))"
done
