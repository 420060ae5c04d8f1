#!/usr/bin/env bash
# Run 4: GPU time of the final head (after) against 2ced7b8 (before, with the same sweep
# list): the collision sweep (one process each), the reduction workloads (two processes
# each, alternating); PyTorch's collisions sweep, reductions and collisions in the same
# command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for b in before after; do timeout 150 .gpu/bench-$b --collision-sweep --reps 20 --json $D/coll-bench-$b-1.jsonl > $D/coll-bench-$b-1.log 2>&1; echo "$b sweep rc=$?"; done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in before after; do timeout 60 .gpu/bench-$b --reps 30 --only $W --json $D/bench-$b-$i.jsonl > $D/bench-$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
(cd bench && timeout 150 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
python3 scripts/ratio_table.py $D bench-before bench-after > $D/table.md 2>&1; cat $D/table.md
tar cf $OUT/results.tar -C $D .
rm -rf $D
