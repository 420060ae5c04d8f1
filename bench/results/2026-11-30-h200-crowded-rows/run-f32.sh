#!/usr/bin/env bash
# Issue 26: `after` (212df0e) against `f32` (the work tree: Float32 Add rows that the f32 atomics may take go unit
# by unit past 16 rows a block, not 512), alternating three times: the sweep's Float32 shapes (few targets, hub,
# index_add) and the reduction workloads; then `atomics` (the same binary with PROBE_ATOMIC_ROWS=0: every Float32
# Add row plan that the f32 atomics may take by them) on the same shapes, twice. PyTorch's peers first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_f32,scatter_add_histogram,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
S=$(date +%s)
(cd bench && timeout 120 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 30 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_[a-z0-9_]*' $D/torch-sweep.log | grep -E 'few_f32|hub_f32_add|index_add_f32' | sort -u | paste -sd,)
for i in 1 2 3; do
  for b in after f32; do
    timeout 90 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 40 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
for i in 1 2; do
  PROBE_ATOMIC_ROWS=0 timeout 90 .gpu/bin/bench-f32 --collision-sweep --reps 30 --only $E --json $D/s-atomics-$i.jsonl > $D/s-atomics-$i.log 2>&1; echo "s atomics $i rc=$? t=$(( $(date +%s) - S ))"
  PROBE_ATOMIC_ROWS=0 timeout 40 .gpu/bin/bench-f32 --reps 30 --only $W --json $D/w-atomics-$i.jsonl > $D/w-atomics-$i.log 2>&1; echo "w atomics $i rc=$? t=$(( $(date +%s) - S ))"
done
