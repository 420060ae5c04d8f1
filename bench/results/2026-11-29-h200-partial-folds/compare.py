#!/usr/bin/env python3
"""Tables of a run: python3 compare.py PREFIX TORCH[,TORCH...] BUILD (in a run's folder), e.g.
`python3 ../compare.py sweep torch-sweep.jsonl h` in run4-head: the lower of the two passes
of main (a) and BUILD, PyTorch's time, the ratios and the change."""
import json
import sys


def load(path):
    return {json.loads(line)["workload"]: json.loads(line)["ms"] for line in open(path)}


prefix, torch_files, build = sys.argv[1], sys.argv[2], sys.argv[3]
torch = {}
for path in torch_files.split(","):
    torch.update(load(path))
runs = {b: [load(f"{prefix}-{b}-{i}.jsonl") for i in (1, 2)] for b in ("a", build)}
print("shape".ljust(52), "torch".rjust(8), "a".rjust(16), build.rjust(16), "change")
for name in runs["a"][0]:
    best = {b: min(runs[b][0].get(name, 9e9), runs[b][1].get(name, 9e9)) for b in runs}
    peer = torch.get(name, float("nan"))
    print(
        name[-50:].ljust(52),
        f"{peer:8.4f}",
        f"{best['a']:.4f}({peer / best['a']:.2f}x)".rjust(16),
        f"{best[build]:.4f}({peer / best[build]:.2f}x)".rjust(16),
        f"{(best[build] / best['a'] - 1) * 100:+.1f}%",
    )
