"""table.md of a run folder: the same table run.sh prints (best of the two rounds, median of
30 reps each; PyTorch's time over ours). Usage: python3 table.py FOLDER [EXTRA...]"""
import json, os, sys
out, extra = sys.argv[1], sys.argv[2:]
def load(p):
    d = {}
    if os.path.exists(p):
        for l in open(p):
            r = json.loads(l); d[r["workload"]] = r["ms"]
    return d
def best(*ds):
    keys = [k for d in ds for k in d]
    return {k: min(d[k] for d in ds if k in d) for k in dict.fromkeys(keys)}
t = {}
for n in ["torch_collisions", "torch_reductions", "torch_sweep"]:
    t.update(load(f"{out}/{n}.jsonl"))
cols = {"before": best(load(f"{out}/before1.jsonl"), load(f"{out}/before2.jsonl"), load(f"{out}/sweep-before.jsonl")),
        "after": best(load(f"{out}/after1.jsonl"), load(f"{out}/after2.jsonl"), load(f"{out}/sweep-after.jsonl"))}
for x in extra:
    cols[x] = best(load(f"{out}/{x}-1.jsonl"), load(f"{out}/{x}-2.jsonl"), load(f"{out}/sweep-{x}.jsonl"))
names = list(cols)
lines = ["| workload | torch ms | " + " | ".join(f"{n} ms (x)" for n in names) + " |",
         "| --- | ---: | " + " | ".join("---:" for _ in names) + " |"]
for w in cols["after"]:
    tm = t.get(w)
    cells = []
    for n in names:
        v = cols[n].get(w)
        cells.append(f"{v:.4f} ({tm/v:.2f}x)" if v and tm else (f"{v:.4f}" if v else ""))
    lines.append(f"| {w} | {tm:.4f} | " + " | ".join(cells) + " |" if tm else f"| {w} | | " + " | ".join(cells) + " |")
open(f"{out}/table.md", "w").write("\n".join(lines) + "\n")
