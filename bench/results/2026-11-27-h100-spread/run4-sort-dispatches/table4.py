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
for n in ("torch-reductions", "torch-collisions"):
    t.update(load(f"{d}/{n}.jsonl"))
builds = ("bench-13d384d", "bench-0bbeeb6", "bench")
runs = {b: [load(f"{d}/{b}-{i}.jsonl") for i in (1, 2)] for b in builds}
print("| workload | before | spread | head | PyTorch | ratio before | spread | head |")
for n in runs["bench"][0]:
    m = {b: min(x.get(n, 1e9) for x in rs) for b, rs in runs.items()}
    tt = t.get(n, float('nan'))
    print(f"| {n} | {m[builds[0]]:.4f} | {m[builds[1]]:.4f} | {m[builds[2]]:.4f} | {tt:.4f} | {tt/m[builds[0]]:.2f}x | {tt/m[builds[1]]:.2f}x | {tt/m[builds[2]]:.2f}x |")
tc = load(f"{d}/coll-torch.jsonl")
cs = {b: load(f"{d}/coll-{b}.jsonl") for b in builds}
print("| sweep shape | before | spread | head | PyTorch | ratios |")
for n in cs["bench"]:
    tt = tc.get(n, float('nan'))
    v = [cs[b].get(n, float('nan')) for b in builds]
    print(f"| {n} | " + " | ".join(f"{x:.4f}" for x in v) + f" | {tt:.4f} | " + " / ".join(f"{tt/x:.2f}x" for x in v) + " |")
for b in builds:
    r = [tc[n] / cs[b][n] for n in cs[b] if n in tc]
    if r: print(b, "sweep min %.2f" % min(r))
