#!/usr/bin/env bash
# Run 7: the copying folds storing the output plainly (bench) against atomicStore
# (bench-partials, the build before it): the reduction test binaries; the reductions alone,
# two processes each, alternating; the collision sweep of each; PyTorch's peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in scatter_rows scatter_sort scatter_reductions scatter_wide windows fuzz; do
  DML_WGSL_FUZZ_SECONDS=20 timeout 100 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1 | cut -c1-60)"
done
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in bench-partials bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for b in bench-partials bench; do timeout 150 .gpu/$b --collision-sweep --reps 30 --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-partials bench > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
