#!/usr/bin/env bash
# Half stores: release tests on the H200, then the narrow sweep with and without 16-bit
# stores (alternating twice) and PyTorch's peer, one command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf bins.tar.xz)
for t in scatter_narrow scatter scatter_rows scatter_shapes tensor_scatter windows pipelines context gather slice typed fuzz scatter_heavy; do
  timeout 120 .gpu/bin/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "test $t rc=$? $(grep 'test result' $D/test-$t.log | tail -1)"
done
for i in 1 2; do
  timeout 150 .gpu/bin/bench --sweep --reps 30 --without-half-stores --json $D/sweep-words$i.jsonl > $D/sweep-words$i.log 2>&1; echo "words $i rc=$?"
  timeout 150 .gpu/bin/bench --sweep --reps 30 --json $D/sweep-halves$i.jsonl > $D/sweep-halves$i.log 2>&1; echo "halves $i rc=$?"
done
(cd bench && timeout 200 python3 torch_sweep.py --reps 30 --json $D/sweep-torch.jsonl > $D/torch.log 2>&1); echo "torch rc=$?"
for b in words2 halves2; do
  python3 scripts/sweep_report.py $D/sweep-torch.jsonl $D/sweep-$b.jsonl > $D/sweep-$b.md 2>&1
  echo "== $b"; grep -E "^\| (scatter|gather)" $D/sweep-$b.md | grep -v sweep_ ; grep "minimum ratio" $D/sweep-$b.md
done
