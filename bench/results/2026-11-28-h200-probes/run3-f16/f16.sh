#!/usr/bin/env bash
# Issue 28 probe: 2-byte scatters by 16-bit stores vs word compare-exchange (f16_store_probe),
# the library's sweep on the same shapes, PyTorch's peer on them; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf f16.tar.xz)
ONLY=$(cat .gpu/only-f16.txt)
timeout 200 .gpu/bin/f16_store_probe > $D/probe.jsonl 2> $D/probe.err; echo "probe rc=$?"
timeout 200 .gpu/bin/bench --sweep --reps 30 --only $ONLY --json $D/sweep-ours.jsonl > $D/sweep-ours.log 2>&1; echo "ours rc=$?"
(cd bench && timeout 200 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/sweep-torch.jsonl > $D/torch.log 2>&1); echo "torch rc=$?"
timeout 200 .gpu/bin/f16_store_probe > $D/probe2.jsonl 2>> $D/probe.err; echo "probe2 rc=$?"
python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-ours.jsonl > $D/sweep.md 2>&1
tail -3 $D/sweep.md
