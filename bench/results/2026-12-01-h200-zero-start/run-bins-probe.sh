#!/usr/bin/env bash
# Issue 26 probe: workgroup bins and slots as large as the H200's workgroup memory allows (48 KiB)
# would cut the ranges' re-reads of every update. Probe builds of 9ce37f0 (main): bins8k
# (BIN_CAPACITY 8192: 32 KiB of bins) and slots2k (WIDE_SLOTS 2048: 24 KiB of 64-bit slots), the
# lowering's rules unchanged otherwise. PyTorch's sweep, then the whole collision sweep once a build.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
trap 'tar cf $OUT/r.tar -C $OUT r && rm -rf $D' EXIT
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
S=$(date +%s)
(cd bench && timeout 150 python3 torch_collisions.py --sweep --reps 10 --json $D/torch-sweep.jsonl > $D/torch-sweep.log 2>&1); echo "torch sweep rc=$? t=$(( $(date +%s) - S ))"
for b in main bins8k slots2k; do
  timeout 170 .gpu/bin/bench-$b --collision-sweep --reps 10 --json $D/s-$b-1.jsonl > $D/s-$b-1.log 2>&1; echo "s $b rc=$? t=$(( $(date +%s) - S ))"
done
