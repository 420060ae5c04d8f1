#!/usr/bin/env bash
# The reduction workloads alone (--only), before and after alternating in three processes each,
# with PyTorch's reduction and collision peers in the same command.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
W=scatter_add_rows,scatter_add_heavy,scatter_max_i32,scatter_max_f32,scatter_add_histogram,scatter_min_i64_segments,index_add_rows_f16,index_add_rows_f64,scatter_max_f32_edges
for i in 1 2 3; do
  for b in bench-before bench; do .gpu/$b --reps 30 --only $W --json $D/$b$i.jsonl > $D/$b$i.log 2>&1; done
done
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
t = {}
for n in ("torch-reductions", "torch-collisions"):
    t.update(load(f"{d}/{n}.jsonl"))
runs = {b: [load(f"{d}/{b}{i}.jsonl") for i in (1, 2, 3)] for b in ("bench-before", "bench")}
print("| workload | before | after | PyTorch | ratio before | ratio after | after, each process |")
for n in runs["bench"][0]:
    m = {b: min(x.get(n, 1e9) for x in rs) for b, rs in runs.items()}
    tt = t.get(n, float('nan'))
    each = ", ".join(f"{x.get(n, 0):.4f}" for x in runs["bench"])
    print(f"| {n} | {m['bench-before']:.4f} | {m['bench']:.4f} | {tt:.4f} | {tt/m['bench-before']:.2f}x | {tt/m['bench']:.2f}x | {each} |")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
