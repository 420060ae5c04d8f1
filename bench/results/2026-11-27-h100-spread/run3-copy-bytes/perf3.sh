#!/usr/bin/env bash
# COPY_BYTES 16 (head), 32, 64: the copying list folds' bytes a thread; rows workloads alone
# (three processes each, alternating), the collision sweep, PyTorch's collision peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
W=index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges,scatter_add_rows
for i in 1 2 3; do
  for b in bench bench-copy32 bench-copy64; do timeout 60 .gpu/$b --reps 30 --only $W --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
for b in bench bench-copy32 bench-copy64; do timeout 80 .gpu/$b --collision-sweep --reps 30 --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "torch coll rc=$?"
(cd bench && timeout 80 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch sweep rc=$?"
python3 .gpu/table3.py $D
tar cf $OUT/results.tar -C $D .
