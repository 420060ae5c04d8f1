#!/usr/bin/env bash
# Clear variants on the reductions: before (clear_buffer of status and heads), status (status
# zeroed by describe), after (heads by a dispatch, a word a thread), c4 (4 words a thread);
# three rounds alternating; then PyTorch's reduction peers.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
export D=$OUT/r; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv > $D/gpu.txt 2>&1
(cd .gpu && tar xJf benches.tar.xz)
W=scatter_max_f32_in_order,scatter_max_i32_in_order,scatter_add_rows_in_order,scatter_add_heavy_in_order,scatter_add_rows,index_add_rows_f16,index_add_rows_f16_in_order,index_add_rows_f64,scatter_max_f32_edges,scatter_max_f32_edges_in_order,scatter_add_histogram,scatter_min_i64_segments,decode_step_3d_tensor_scatter,decode_step_4d_scatter_nd,scatter_elements_rows,slice_tiny_64x64
for i in 1 2 3; do
  for b in before status after c4; do
    n=bench-$b; [ $b = after ] && n=bench
    .gpu/$n --reps 50 --only $W --json $D/$b$i.jsonl > $D/$b$i.log 2>&1
  done
done
(cd bench && python3 torch_reductions.py --json $D/torch-reductions.jsonl > $D/torch-reductions.log 2>&1)
python3 - $D <<'PY'
import json, sys, os
d = sys.argv[1]
def load(p):
    r = {}
    if os.path.exists(p):
        for line in open(p):
            j = json.loads(line); r.setdefault(j["workload"], j["ms"])
    return r
t = load(f"{d}/torch-reductions.jsonl")
builds = ("before", "status", "after", "c4")
runs = {b: [load(f"{d}/{b}{i}.jsonl") for i in (1, 2, 3)] for b in builds}
print("| workload | torch | " + " | ".join(builds) + " | (all runs: before / after / c4) |")
for n in runs["after"][0]:
    m = {b: min(x.get(n, 1e9) for x in rs) for b, rs in runs.items()}
    allr = " / ".join(",".join(f"{x.get(n, 0):.4f}" for x in runs[b]) for b in ("before", "after", "c4"))
    print(f"| {n} | {t.get(n, float('nan')):.4f} | " + " | ".join(f"{m[b]:.4f}" for b in builds) + f" | {allr} |")
PY
tar cf $OUT/results.tar -C $D . && rm -rf $D
