#!/usr/bin/env bash
# The whole narrow sweep (288 shapes) on the session's head (GPU code as 6071629), twice, and
# PyTorch's sweep peer after; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
for i in 1 2; do
  timeout 240 .gpu/bin/bench --sweep --reps 30 --json $D/sweep$i.jsonl > /dev/null 2>&1; echo "sweep $i rc=$?"
done
(cd bench && timeout 240 python3 torch_sweep.py --reps 30 --json $D/torch-sweep.jsonl > /dev/null 2>&1); echo "torch sweep rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
