#!/usr/bin/env bash
# The whole benchmark before and after (alternating twice), then the PyTorch peers; tests first.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  timeout 200 .gpu/t/$t --test-threads=8 > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1)"
done
for i in 1 2; do
  for b in bench-before bench; do .gpu/$b --reps ${REPS:-30} --json $D/$b$i.jsonl > $D/$b$i.log 2>&1; done
done
echo "ours done $(date)"
(cd .gpu && python3 torch_peer.py --json $D/torch-peer.jsonl > $D/torch-peer.log 2>&1)
(cd bench && python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1)
(cd bench && python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1)
python3 - $D <<'PY'
import json, sys, os
d = sys.argv[1]
def load(p):
    r = {}
    if os.path.exists(p):
        for line in open(p):
            j = json.loads(line); r.setdefault(j["workload"], j["ms"])
    return r
torch = {}
for n in ("torch-peer", "torch-reductions", "torch-collisions"):
    torch.update(load(f"{d}/{n}.jsonl"))
b = [load(f"{d}/bench-before{i}.jsonl") for i in (1, 2)]
a = [load(f"{d}/bench{i}.jsonl") for i in (1, 2)]
print("| workload | torch | before | after | ratio before | ratio after |")
for n in a[0]:
    bm = min(x.get(n, 1e9) for x in b); am = min(x.get(n, 1e9) for x in a); t = torch.get(n, float('nan'))
    print(f"| {n} | {t:.4f} | {bm:.4f} | {am:.4f} | {t/bm:.2f}x | {t/am:.2f}x |")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
