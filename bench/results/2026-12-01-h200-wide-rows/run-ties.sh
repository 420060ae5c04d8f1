#!/usr/bin/env bash
# Issue 26: the final work tree (`after`: 9c0d22c's 8-byte rows, and float Min and Max in order by lists
# bounded too, a hub's rows set aside claiming their ties by position) against `before` (main at 0302dd0)
# and `wide` (9c0d22c): PyTorch's peers; the whole collision sweep and the reduction workloads, before then
# after; `wide` on the workloads and the sweep's hubs and edge shapes; in one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order
S=$(date +%s)
(cd bench && timeout 75 python3 torch_collisions.py --sweep --reps 20 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '^sweep_\(hub\|edges\)[a-z0-9_]*' $D/torch-sweep.log | sort -u | paste -sd,)
for b in before after; do
  timeout 120 .gpu/bin/bench-$b --collision-sweep --reps 20 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-1.jsonl > $D/w-$b-1.log 2>&1; echo "w $b rc=$? t=$(( $(date +%s) - S ))"
done
timeout 40 .gpu/bin/bench-wide --collision-sweep --reps 20 --only $E --json $D/s-wide-1.jsonl > $D/s-wide-1.log 2>&1; echo "s wide rc=$? t=$(( $(date +%s) - S ))"
timeout 25 .gpu/bin/bench-wide --reps 20 --only $W --json $D/w-wide-1.jsonl > $D/w-wide-1.log 2>&1; echo "w wide rc=$? t=$(( $(date +%s) - S ))"
