#!/usr/bin/env python3
"""The narrow-element sweep's table (`bench --sweep`, `bench/torch_sweep.py`) as Markdown.

    python3 scripts/sweep_report.py TORCH.jsonl OURS.jsonl [OURS_AFTER.jsonl]

With one of ours: each shape's time, PyTorch's and the ratio (PyTorch's time over ours).
With two (before and after, from one command): both, and the ratio of each. Then the
minimum ratio of each class (operation, element, pattern) and over the whole sweep.
"""
import json
import sys


def load(path):
    return {row["workload"]: row for row in map(json.loads, open(path)) if row.get("ms")}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    torch = load(sys.argv[1])
    runs = [load(path) for path in sys.argv[2:]]
    names = [name for name in runs[-1] if name in torch]
    before = len(runs) == 2
    header = "| shape | PyTorch ms |"
    header += " before ms | ratio |" if before else ""
    header += " dml-wgsl ms | ratio |"
    print(header)
    print("|" + " --- |" + " ---: |" * (header.count("|") - 2))
    classes = {}
    for name in names:
        peer = torch[name]["ms"]
        cells = [name, f"{peer:.4f}"]
        for run in runs:
            ms = run[name]["ms"] if name in run else float("nan")
            cells += [f"{ms:.4f}", f"{peer / ms:.2f}x"]
        print("| " + " | ".join(cells) + " |")
        # sweep_<operation>_<element>_<pattern>_<shape>_<index>
        parts = name.split("_")
        key = "_".join(parts[1:-2])
        ratios = [peer / run[name]["ms"] for run in runs if name in run]
        for i, ratio in enumerate(ratios):
            low = classes.setdefault(key, [(float("inf"), "")] * len(runs))
            if ratio < low[i][0]:
                low[i] = (ratio, name)
    print()
    print("| class | " + " | ".join(
        ["minimum before", "minimum after"] if before else ["minimum ratio"]) + " | at |")
    print("| --- |" + " ---: |" * len(runs) + " --- |")
    overall = [(float("inf"), "")] * len(runs)
    for key, low in classes.items():
        print(f"| {key} | " + " | ".join(f"{r:.2f}x" for r, _ in low) + f" | {low[-1][1]} |")
        overall = [min(o, l) for o, l in zip(overall, low)]
    print()
    labels = ["before", "after"] if before else ["sweep"]
    for label, run, (ratio, name) in zip(labels, runs, overall):
        below = sum(1 for n in names if n in run and torch[n]["ms"] / run[n]["ms"] < 1.0)
        print(f"minimum ratio ({label}): {ratio:.2f}x at {name}; "
              f"{below} of {len(names)} shapes below 1.0x")


if __name__ == "__main__":
    main()
