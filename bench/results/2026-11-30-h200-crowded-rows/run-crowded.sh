#!/usr/bin/env bash
# Issue 26: before (`probe`: main at 4f24aa1 plus the sweep's few-targets shapes and unset probe switches, so
# main's plans) against `after` (the work tree: rows averaging more than 512 a block in any order unit by unit;
# Float32 Add rows past the bins by the f32 atomics; the sweep's hub shapes), alternating twice: the whole
# collision sweep and the reduction workloads; PyTorch's peers in the same command. Then the Float64 few-targets
# shapes without 64-bit atomics (`--without-int64-atomics`: crowded rows sorted instead of listed), both builds.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_nd_rows
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
for i in 1 2; do
  for b in probe after; do
    timeout 150 .gpu/bin/bench-$b --collision-sweep --reps 30 --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
F=$(grep -o '^sweep_few_f64[a-z0-9_]*' $D/torch-sweep.log | sort -u | paste -sd,)
for b in probe after; do
  timeout 60 .gpu/bin/bench-$b --collision-sweep --without-int64-atomics --reps 10 --only $F > $D/no64-$b.log 2>&1; echo "no64 $b rc=$? t=$(( $(date +%s) - S ))"
done
timeout 60 .gpu/bin/bench-after --collision-sweep --reps 5 --profile --only $(grep -o '^sweep_hub[a-z0-9_]*' $D/torch-sweep.log | sed 's/_in_order$//' | sort -u | paste -sd,) > $D/profile-hub.log 2>&1; echo "profile rc=$? t=$(( $(date +%s) - S ))"
