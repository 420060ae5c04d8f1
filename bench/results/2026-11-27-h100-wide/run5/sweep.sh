#!/usr/bin/env bash
# Run 5 (same machine as run 4, right after it): the collision sweep before (050b43c: ten
# repetitions, its one-target Float64 shape takes 1.9 s a run) and after (the head); the
# reductions alone, two processes each; PyTorch's peers (the whole benchmark's, the
# reductions', the collisions' and the sweep's); the tables with run 4's whole benchmark.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2; do
  for b in bench-before bench; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
timeout 150 .gpu/bench-before --collision-sweep --reps 10 --json $D/coll-bench-before.jsonl > $D/coll-bench-before.log 2>&1; echo "before coll rc=$?"
timeout 150 .gpu/bench --collision-sweep --reps 30 --json $D/coll-bench.jsonl > $D/coll-bench.log 2>&1; echo "coll rc=$?"
(cd .gpu && timeout 60 python3 torch_peer.py --json $D/torch-peer.jsonl > $D/torch-peer.log 2>&1); echo "peer rc=$?"
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "coll rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 scripts/ratio_table.py $D bench-before bench > $D/table.md; cat $D/table.md
tar cf $OUT/results.tar -C $D .
