#!/usr/bin/env bash
# Run 10: the final head (c7637ff, after the review's fixes): its release tests (pipelines,
# scatter_shapes, context with one thread); GPU time before (261c4c0) and after: the
# reduction workloads (two processes each, alternating), the collision sweep (one each);
# PyTorch's reductions, collisions and sweep in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; case $t in pipelines|scatter_shapes|context) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=15 timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in before after; do timeout 60 .gpu/bench-$b --reps 30 --only $W --json $D/bench-$b-$i.jsonl > $D/bench-$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for b in before after; do timeout 150 .gpu/bench-$b --collision-sweep --reps 20 --json $D/coll-bench-$b-1.jsonl > $D/coll-bench-$b-1.log 2>&1; echo "$b sweep rc=$?"; done
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 150 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench-after > $D/table.md 2>&1; cat $D/table.md
tar cf $OUT/results.tar -C $D .
rm -rf $D
