#!/usr/bin/env bash
# Run 1: first compiles before (261c4c0) and after (050fc05), three fresh processes each,
# alternating, driver cache off; the reduction tests of the head; the reductions' GPU times
# before and after (alternating twice) with PyTorch's reductions in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp __GL_SHADER_DISK_CACHE=0 PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then export VK_DRIVER_FILES="$icd"; fi
done
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
NAMES=$(.gpu/compile-after list | tr -d '",[]')
for i in 1 2 3; do for b in before after; do for n in $NAMES; do
  timeout 30 .gpu/compile-$b cold $n --log >> $D/cold-$b.jsonl 2>> $D/cold-$b.log
done; done; done
echo "compile done"
for t in scatter_reductions scatter_wide scatter_sort scatter_rows fuzz scatter_heavy pipelines; do
  th=8; case $t in pipelines) th=1;; esac
  DML_WGSL_FUZZ_SECONDS=20 timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in before after; do timeout 60 .gpu/bench-$b --reps 30 --only $W --json $D/bench-$b-$i.jsonl > $D/bench-$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "torch red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
python3 scripts/ratio_table.py $D bench-before bench-after > $D/table.md 2>&1; cat $D/table.md | head -30
tar cf $OUT/results.tar -C $D .
