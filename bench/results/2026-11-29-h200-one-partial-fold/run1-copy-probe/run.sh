#!/usr/bin/env bash
# Issue 26 probe: the copy as it folds of Float16 rows' lists (COPY_BYTES 16 head, 32, 64; copy first)
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
W=copy_256MiB,index_add_rows_f16,index_add_rows_f64,scatter_add_rows,scatter_max_f32_edges
SW=$(cat .gpu/only-rows.txt)
S=$(date +%s)
for i in 1 2; do
  for b in h b32 b64 cf; do
    timeout 100 .gpu/bin/bench-$b --reps 30 --only $W --json $D/w-$b-$i.jsonl > $D/w-$b-$i.log 2>&1; echo "w $b $i rc=$? t=$(( $(date +%s) - S ))"
    timeout 100 .gpu/bin/bench-$b --collision-sweep --reps 30 --only $SW --json $D/s-$b-$i.jsonl > $D/s-$b-$i.log 2>&1; echo "s $b $i rc=$? t=$(( $(date +%s) - S ))"
  done
done
(cd bench && timeout 100 python3 torch_collisions.py --reps 30 --json $D/torch-w.jsonl > /dev/null 2>&1); echo "torch w rc=$?"
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 30 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
