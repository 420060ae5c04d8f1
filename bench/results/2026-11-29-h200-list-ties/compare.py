#!/usr/bin/env python3
"""Best (lowest) ms of each workload a build ran in a run's folder, beside PyTorch's.
Usage: compare.py RUN_DIR BUILD... (files named KIND-BUILD-PASS.jsonl; torch-*.jsonl)."""
import collections, glob, json, os, sys

run, builds = sys.argv[1], sys.argv[2:]
best = collections.defaultdict(dict)
for path in glob.glob(os.path.join(run, "*.jsonl")):
    name = os.path.basename(path)
    build = "torch" if name.startswith("torch") else name.split("-")[1]
    for line in open(path):
        row = json.loads(line)
        cell = best[row["workload"]]
        cell[build] = min(cell.get(build, float("inf")), row["ms"])
print("| workload | " + " | ".join(builds) + " | PyTorch | ratio (" + builds[-1] + ") |")
print("| --- |" + " ---: |" * (len(builds) + 2))
for workload in sorted(best):
    cell = best[workload]
    if builds[0] not in cell:
        continue
    times = " | ".join("%.4f" % cell[b] if b in cell else "-" for b in builds)
    torch = cell.get("torch")
    ratio = "%.2fx" % (torch / cell[builds[-1]]) if torch and builds[-1] in cell else ""
    print("| %s | %s | %s | %s |" % (workload, times, "%.4f" % torch if torch else "-", ratio))
