#!/usr/bin/env bash
# Issue 28's narrow sweep and issue 26's collision sweep, before and after, with their PyTorch peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for b in bench-before bench; do timeout 150 .gpu/$b --sweep --reps 30 --json $D/sweep-$b.jsonl > $D/sweep-$b.log 2>&1; echo "$b sweep rc=$?"; done
(cd bench && timeout 100 python3 torch_sweep.py --reps 30 --json $D/sweep-torch.jsonl > $D/sweep-torch.log 2>&1); echo "torch sweep rc=$?"
for b in bench-before bench; do timeout 100 .gpu/$b --collision-sweep --reps 30 --json $D/coll-$b.jsonl > $D/coll-$b.log 2>&1; echo "$b coll rc=$?"; done
(cd bench && timeout 100 python3 torch_collisions.py --sweep --json $D/coll-torch.jsonl > $D/coll-torch.log 2>&1); echo "torch coll rc=$?"
python3 - $D <<'PY'
import json, sys, os
d = sys.argv[1]
def load(p):
    r = {}
    if os.path.exists(p):
        for line in open(p):
            j = json.loads(line); r.setdefault(j["workload"], j["ms"])
    return r
for kind in ("sweep", "coll"):
    t = load(f"{d}/{kind}-torch.jsonl"); b = load(f"{d}/{kind}-bench-before.jsonl"); a = load(f"{d}/{kind}-bench.jsonl")
    rb = [t[n] / b[n] for n in a if n in t and n in b]; ra = [t[n] / a[n] for n in a if n in t]
    print(kind, "shapes", len(ra), "min before %.2f after %.2f" % (min(rb), min(ra)) if ra else "none")
    worst = sorted(((t[n] / a[n], n) for n in a if n in t))[:8]
    for r, n in worst: print(f"  {n}: torch {t[n]:.4f} before {b.get(n, 0):.4f} after {a[n]:.4f} -> {t[n]/b.get(n, 1e9):.2f}x / {r:.2f}x")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
