#!/usr/bin/env bash
# Issue 26 probe: Float64 Add across the collision sweep by the 64-bit compare-exchange
# (default: the device's 64-bit atomics) against the sort path (--without-int64-atomics: what
# a device without them runs), main at d514f46 (GPU code as 6071629), alternating twice;
# PyTorch's collision peers after; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$(cat .gpu/only-f64.txt)
for i in 1 2; do
  timeout 150 .gpu/bin/bench --collision-sweep --reps 30 --only $ONLY --json $D/atomics$i.jsonl > $D/atomics$i.log 2>&1; echo "atomics $i rc=$?"
  timeout 150 .gpu/bin/bench --collision-sweep --reps 30 --only $ONLY --without-int64-atomics --json $D/sort$i.jsonl > $D/sort$i.log 2>&1; echo "sort $i rc=$?"
done
timeout 100 .gpu/bin/bench --reps 30 --only index_add_rows_f64 --json $D/w-atomics.jsonl > /dev/null 2>&1; echo "w rc=$?"
timeout 100 .gpu/bin/bench --reps 30 --only index_add_rows_f64 --without-int64-atomics --json $D/w-sort.jsonl > /dev/null 2>&1; echo "w sort rc=$?"
(cd bench && timeout 200 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$?"
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > /dev/null 2>&1); echo "torch w rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
