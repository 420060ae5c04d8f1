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
builds = ("bench", "bench-copy32", "bench-copy64")
t = load(f"{d}/torch-collisions.jsonl")
runs = {b: [load(f"{d}/{b}-{i}.jsonl") for i in (1, 2, 3)] for b in builds}
print("| workload | " + " | ".join(builds) + " | PyTorch | ratios |")
for n in runs["bench"][0]:
    m = [min(x.get(n, 1e9) for x in runs[b]) for b in builds]
    tt = t.get(n, float('nan'))
    print(f"| {n} | " + " | ".join(f"{x:.4f}" for x in m) + f" | {tt:.4f} | " + " / ".join(f"{tt/x:.2f}x" for x in m) + " |")
tc = load(f"{d}/coll-torch.jsonl")
cs = {b: load(f"{d}/coll-{b}.jsonl") for b in builds}
for n in cs["bench"]:
    if "index_add" not in n: continue
    tt = tc.get(n, float('nan'))
    v = [cs[b].get(n, float('nan')) for b in builds]
    print(f"| {n} | " + " | ".join(f"{x:.4f}" for x in v) + f" | {tt:.4f} | " + " / ".join(f"{tt/x:.2f}x" for x in v) + " |")
