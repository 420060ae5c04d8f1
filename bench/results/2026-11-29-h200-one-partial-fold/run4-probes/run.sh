#!/usr/bin/env bash
# Probes at eb4fd8f (h): sc = sorted runs by slices copy as they fold where slices are fewer than blocks
# (SortPlan::new without `count >= units`); fp1 = the lists' and sorted runs' later passes capped at one (wrong for
# lists longer than 1024 + one pass; the benchmark's data has none) to price the empty passes. Alternating twice.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_add_rows,scatter_max_f32,scatter_max_i32,scatter_add_heavy
SW=$(cat .gpu/only-rows.txt)
S=$(date +%s)
for i in 1 2; do
  for b in h sc fp1; do
    timeout 100 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $SW --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
timeout 100 .gpu/bin/bench-sc --collision-sweep --reps 30 --profile --only $SW > $D/profile-sc.log 2>&1; echo "profile sc rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > /dev/null 2>&1); echo "torch w rc=$?"
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
