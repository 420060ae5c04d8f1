#!/usr/bin/env python3
"""Tables of ours against PyTorch from one device command's JSON lines (`bench --json`).

    python3 scripts/ratio_table.py DIR BUILD [BUILD ..]

DIR holds, per build name B (the bench binary's name in the device script): `B-1.jsonl`,
`B-2.jsonl`, .. (processes of `--only` workloads; the lowest time of each workload is kept)
and `coll-B.jsonl` or `coll-B-1.jsonl`, .. (`--collision-sweep`, the lowest kept); and PyTorch's `torch-peer.jsonl`, `torch-reductions.jsonl`,
`torch-collisions.jsonl` and `coll-torch.jsonl`. Prints a Markdown table of the workloads and
one of the sweep, each with every build's ms and PyTorch's ms over it, then each build's
minimum ratio over the sweep. The first build is "before", the last the head.
"""
import glob
import json
import math
import os
import sys


def load(path):
    """workload -> the lowest ms of `path`'s JSON lines."""
    rows = {}
    if os.path.exists(path):
        for line in open(path):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if "workload" in row:
                name = row["workload"]
                rows[name] = min(rows.get(name, math.inf), row["ms"])
    return rows


def lowest(paths):
    rows = {}
    for path in paths:
        for name, ms in load(path).items():
            rows[name] = min(rows.get(name, math.inf), ms)
    return rows


def table(title, ours, torch):
    builds = list(ours)
    head = builds[-1]
    print(f"| {title} | " + " | ".join(builds) + " | PyTorch | " +
          " | ".join(f"ratio {b}" for b in builds) + " |")
    print("| --- |" + " ---: |" * (2 * len(builds) + 1))
    for name in ours[head]:
        peer = torch.get(name, math.nan)
        times = [ours[b].get(name, math.nan) for b in builds]
        print(f"| {name} | " + " | ".join(f"{t:.4f}" for t in times) + f" | {peer:.4f} | " +
              " | ".join(f"{peer / t:.2f}x" for t in times) + " |")


def main():
    directory, builds = sys.argv[1], sys.argv[2:]
    torch = {**load(f"{directory}/torch-peer.jsonl"),
             **load(f"{directory}/torch-reductions.jsonl"),
             **load(f"{directory}/torch-collisions.jsonl")}
    runs = {b: lowest(sorted(glob.glob(f"{directory}/{b}-[0-9]*.jsonl"))) for b in builds}
    if any(runs.values()):
        table("workload", runs, torch)
        print()
    sweep_torch = load(f"{directory}/coll-torch.jsonl")
    sweeps = {b: lowest([f"{directory}/coll-{b}.jsonl"] +
                        sorted(glob.glob(f"{directory}/coll-{b}-[0-9]*.jsonl"))) for b in builds}
    if any(sweeps.values()):
        table("sweep shape", sweeps, sweep_torch)
        for build, rows in sweeps.items():
            ratios = [(sweep_torch[n] / ms, n) for n, ms in rows.items() if n in sweep_torch]
            if ratios:
                print(f"\n{build}: sweep minimum {min(ratios)[0]:.2f}x ({min(ratios)[1]})")


if __name__ == "__main__":
    main()
