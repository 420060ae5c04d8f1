#!/usr/bin/env bash
# Probe: 2-byte scatters dispatched row-major (bench-probe with PROBE_ROW_MAJOR set: the
# lowering's plain scatter step by `dispatch_row_major` for Unit::Half) against column blocks
# (bench, main), both with 16-bit stores; the sweep's 64 Float16 scatter shapes alternating
# twice, PyTorch after.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt
ONLY=$(cat .gpu/only-f16.txt)
for i in 1 2; do
  timeout 150 .gpu/bin/bench --sweep --reps 30 --only $ONLY --json $D/base$i.jsonl > $D/base$i.log 2>&1; echo "base $i rc=$?"
  PROBE_ROW_MAJOR=1 timeout 150 .gpu/bin/bench-probe --sweep --reps 30 --only $ONLY --json $D/rm$i.jsonl > $D/rm$i.log 2>&1; echo "rowmajor $i rc=$?"
done
(cd bench && timeout 150 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch.jsonl > /dev/null 2>&1); echo "torch rc=$?"
tar cf $OUT/r.tar -C $OUT r && rm -rf $D
