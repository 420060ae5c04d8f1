#!/usr/bin/env bash
# Issue 28: the points sweep, builds alternating (BINS), PyTorch's peer once, tests first.
set -o pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
R=${REPS:-30}
if [ -z "$NOTESTS" ]; then
  for t in $(ls .gpu/t); do
    start=$(date +%s)
    timeout 200 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; rc=$?
    echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep 'test result' $D/test-$t.log | tail -1)"
  done
fi
ONLY=${ONLY:+--only $ONLY}
for i in $(seq 1 ${PAIRS:-2}); do
  for b in $BINS; do
    .gpu/$b --points-sweep --reps $R $ONLY --json $D/points-$b$i.jsonl > $D/points-$b$i.log 2>&1
  done
  if [ $i = 1 ]; then (cd bench && python3 torch_points.py --reps $R ${ONLY} --json $D/points-torch.jsonl > $D/torch.log 2>&1); fi
done
echo "sweep done $(date)"
if [ -n "$FULL" ]; then
  for b in $FULL; do .gpu/$b --reps $R --json $D/full-$b.jsonl > $D/full-$b.log 2>&1; done
  (cd .gpu && python3 torch_peer.py --json $D/full-torch.jsonl > $D/full-torch.log 2>&1)
  echo "full done $(date)"
fi
python3 - $D <<'PY'
import json, sys, glob, os
d = sys.argv[1]
def load(p):
    r = {}
    for line in open(p):
        j = json.loads(line); r[j["workload"]] = j["ms"]
    return r
torch = load(f"{d}/points-torch.jsonl") if os.path.exists(f"{d}/points-torch.jsonl") else {}
files = sorted(glob.glob(f"{d}/points-*.jsonl"))
runs = {os.path.basename(f)[7:-6]: load(f) for f in files if "torch" not in f}
names = list(next(iter(runs.values())).keys()) if runs else []
print("| workload | torch | " + " | ".join(runs) + " |")
for n in names:
    print(f"| {n} | {torch.get(n, float('nan')):.4f} | " + " | ".join(f"{r.get(n, float('nan')):.4f} ({torch.get(n, float('nan'))/r.get(n, float('nan')):.2f}x)" for r in runs.values()) + " |")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
