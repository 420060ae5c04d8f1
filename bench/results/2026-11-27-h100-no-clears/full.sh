#!/usr/bin/env bash
# Tests; the whole benchmark before and after (alternating twice); the PyTorch peers;
# first compiles before and after (fresh processes, driver disk cache off).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem,power.limit --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
for t in $(ls .gpu/t); do
  th=8; [ $t = pipelines ] && th=1
  timeout 120 .gpu/t/$t --test-threads=$th > $D/test-$t.log 2>&1; echo "$t rc=$? $(grep 'test result' $D/test-$t.log | tail -1)"
done
for i in 1 2; do
  for b in bench-before bench; do .gpu/$b --reps ${REPS:-30} --json $D/$b$i.jsonl > $D/$b$i.log 2>&1; done
done
echo "ours done $(date)"
(cd .gpu && python3 torch_peer.py --json $D/torch-peer.jsonl > $D/torch-peer.log 2>&1)
(cd bench && python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1)
(cd bench && python3 torch_collisions.py --json $D/torch-collisions.jsonl > $D/torch-collisions.log 2>&1)
echo "torch done $(date)"
for i in 1 2; do for b in before after; do __GL_SHADER_DISK_CACHE=0 .gpu/compile-$b all --log > $D/compile-$b-$i.jsonl 2> $D/compile-$b-$i.log; done; done
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
runs = {b: [load(f"{d}/{b}{i}.jsonl") for i in (1, 2)] for b in ("bench-before", "bench")}
print("| workload | torch | before | after | ratio before | ratio after |")
for n in runs["bench"][0]:
    m = {b: min(x.get(n, 1e9) for x in rs) for b, rs in runs.items()}
    t = torch.get(n, float('nan'))
    print(f"| {n} | {t:.4f} | {m['bench-before']:.4f} | {m['bench']:.4f} | {t/m['bench-before']:.2f}x | {t/m['bench']:.2f}x |")
PY
tail -n 3 $D/compile-*.jsonl | cut -c1-160
tar cf $OUT/results.tar -C $D . && rm -rf $D
