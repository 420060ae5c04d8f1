#!/usr/bin/env python3
"""First-compile table of `benches/compile.rs` `cold` runs, several builds side by side.

    python3 scripts/cold_table.py DIR BUILD [BUILD ..]

Reads DIR/cold-BUILD.jsonl (the JSON lines of `compile-BUILD cold NAME`, one per fresh
process, any number of processes per name) and prints a Markdown table: per desc the median
first-compile time of each build and every process's time, then each build's largest median.
"""
import collections
import json
import statistics
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    folder, builds = sys.argv[1], sys.argv[2:]
    runs = {}
    for build in builds:
        times = collections.defaultdict(list)
        with open(f"{folder}/cold-{build}.jsonl") as lines:
            for line in lines:
                if line.startswith("{"):
                    record = json.loads(line)
                    times[record["name"]].append(record["first_ms"])
        runs[build] = times
    print("| desc | " + " | ".join(f"{b} (ms)" for b in builds) + " | "
          + " | ".join(f"{b} runs" for b in builds) + " |")
    print("| --- | " + " | ".join("---:" for _ in builds) + " | "
          + " | ".join("---" for _ in builds) + " |")
    for name in runs[builds[0]]:
        medians = " | ".join(f"{statistics.median(runs[b][name]):.1f}" for b in builds)
        each = " | ".join(" ".join(f"{x:.0f}" for x in runs[b][name]) for b in builds)
        print(f"| {name} | {medians} | {each} |")
    print()
    for build in builds:
        worst = max(statistics.median(v) for v in runs[build].values())
        print(f"{build}: largest median {worst:.1f} ms")


if __name__ == "__main__":
    main()
