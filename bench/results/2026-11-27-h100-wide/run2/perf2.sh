#!/usr/bin/env bash
# Run 2: the wide path's slots widened and a thread's consecutive updates combined (bench)
# against the first wide build (bench-v1) and before (050b43c): the wide tests; the 8-byte
# sweep shapes and the 8-byte reductions, two processes each; PyTorch's peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_wide scatter_reductions; do
  timeout 120 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
S=sweep_elements_f64_add_4194304_to_1,sweep_elements_f64_add_4194304_to_1000,sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768,sweep_segments_i64_min_4194304_to_1000_sorted,sweep_segments_i64_min_4194304_to_1000_uniform,sweep_segments_i64_min_4194304_to_131072_sorted,sweep_segments_i64_min_4194304_to_131072_uniform
W=scatter_min_i64_segments,index_add_rows_f64
for i in 1 2; do
  for b in bench-v1 bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for b in bench-v1 bench; do timeout 120 .gpu/$b --collision-sweep --reps 20 --only $S --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
timeout 60 .gpu/bench-before --collision-sweep --reps 20 --only sweep_elements_f64_add_4194304_to_131072,sweep_index_add_f64_4096x1_into_32768,sweep_index_add_f64_4096x16_into_32768 --json $D/coll-bench-before.jsonl > $D/coll-bench-before.log 2>&1; echo "before coll rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench-v1 bench > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
