#!/usr/bin/env bash
# tests/scatter.rs with one test thread (two of its tests make several devices at once);
# the whole benchmark before (13d384d) and after (the head), alternating twice; PyTorch's
# peers; first compiles before and after (fresh processes, driver disk cache off).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
timeout 100 .gpu/t/scatter --test-threads=1 > $D/test-scatter.log 2>&1; echo "scatter rc=$? $(grep 'test result' $D/test-scatter.log | cut -c1-90)"
for i in 1 2; do
  for b in bench-13d384d bench; do timeout 90 .gpu/$b --reps 30 --json $D/$b-$i.jsonl > $D/$b-$i.log 2>&1; echo "$b $i rc=$?"; done
done
(cd .gpu && timeout 60 python3 torch_peer.py --json $D/torch-peer.jsonl > $D/torch-peer.log 2>&1); echo "peer rc=$?"
(cd bench && timeout 60 python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1); echo "red rc=$?"
(cd bench && timeout 60 python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1); echo "coll rc=$?"
for b in before after; do __GL_SHADER_DISK_CACHE=0 timeout 60 .gpu/compile-$b all --log > $D/compile-$b.jsonl 2> $D/compile-$b.log; echo "compile $b rc=$?"; done
python3 - $D <<'PY'
import json, sys, os
d = sys.argv[1]
def load(p):
    r = {}
    if os.path.exists(p):
        for line in open(p):
            try: j = json.loads(line)
            except Exception: continue
            if "workload" in j: r.setdefault(j["workload"], j["ms"])
    return r
t = {}
for n in ("torch-peer", "torch-reductions", "torch-collisions"):
    t.update(load(f"{d}/{n}.jsonl"))
runs = {b: [load(f"{d}/{b}-{i}.jsonl") for i in (1, 2)] for b in ("bench-13d384d", "bench")}
print("| workload | before | after | PyTorch | ratio before | ratio after |")
for n in runs["bench"][0]:
    m = {b: min(x.get(n, 1e9) for x in rs) for b, rs in runs.items()}
    tt = t.get(n, float('nan'))
    print(f"| {n} | {m['bench-13d384d']:.4f} | {m['bench']:.4f} | {tt:.4f} | {tt/m['bench-13d384d']:.2f}x | {tt/m['bench']:.2f}x |")
PY
tail -n 2 $D/compile-*.jsonl | cut -c1-220
tar cf $OUT/results.tar -C $D .
