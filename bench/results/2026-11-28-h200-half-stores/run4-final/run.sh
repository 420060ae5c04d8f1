#!/usr/bin/env bash
# The final head: the narrow test on the H200, the 64 Float16 scatter shapes with and without
# 16-bit stores (alternating twice), PyTorch's peer on them; one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
(cd .gpu && tar xJf bins.tar.xz)
.gpu/bin/scatter_narrow --nocapture > $D/test.log 2>&1; echo "test rc=$? $(grep -E '16-bit|test result' $D/test.log | tr '\n' ' ')"
ONLY=$(cat .gpu/only-f16.txt)
for i in 1 2; do
  timeout 100 .gpu/bin/bench --sweep --reps 30 --only $ONLY --without-half-stores --json $D/w$i.jsonl > /dev/null 2>&1; echo "words $i rc=$?"
  timeout 100 .gpu/bin/bench --sweep --reps 30 --only $ONLY --json $D/h$i.jsonl > /dev/null 2>&1; echo "halves $i rc=$?"
done
(cd bench && timeout 100 python3 torch_sweep.py --reps 30 --only $ONLY --json $D/torch.jsonl > /dev/null 2>&1); echo "torch rc=$?"
