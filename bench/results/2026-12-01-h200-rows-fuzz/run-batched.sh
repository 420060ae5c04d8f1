#!/usr/bin/env bash
# Issue 26: the sorted runs' later passes (fold_slice_runs) fold four slices a batch, the next batch's units
# and the one after's positions loaded before it (`after`, the work tree) against main at 8e50325 (`before`):
# PyTorch's collision peers; the sweep's in-order row shapes and the in-order workloads, alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=scatter_add_rows_in_order,scatter_add_heavy_in_order,scatter_max_i32_in_order,scatter_max_f32_in_order,index_add_rows_f16_in_order,scatter_max_f32_edges_in_order,index_add_rows_f16,index_add_rows_f64
S=$(date +%s)
(cd bench && timeout 100 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
(cd bench && timeout 25 python3 torch_collisions.py --reps 20 --json $D/torch-w.jsonl > $D/torch-w.log 2>&1); echo "torch w rc=$? t=$(( $(date +%s) - S ))"
E=$(grep -o '"sweep_[a-z0-9_]*_in_order' $D/torch-sweep.jsonl | tr -d '"' | grep -v edges | sort -u | paste -sd,)
echo "shapes: $E"
for i in 1 2; do for b in before after; do
  timeout 80 .gpu/bin/bench-$b --collision-sweep --reps 10 --only $E --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  timeout 25 .gpu/bin/bench-$b --reps 20 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
done; done
