#!/usr/bin/env python3
"""Before and after tables of two `scripts/compile_bench.py` runs (their compile.jsonl).

    python3 scripts/compile_compare.py BEFORE/compile.jsonl AFTER/compile.jsonl
"""
import json
import statistics
import sys


def load(path):
    cold, resize, whole = {}, {}, {}
    for r in map(json.loads, open(path)):
        if r["mode"] == "cold":
            cold.setdefault(r["name"], []).append(r)
        elif r["mode"] == "resize":
            resize[r["name"]] = r
        elif r["mode"] == "all":
            whole["cached" if r["cache_in"] else "first"] = r
        else:
            whole["precompile"] = r
    return cold, resize, whole


def median(runs, key):
    return statistics.median(r[key] for r in runs)


def mean_cell(runs):
    """The mean of the cached compiles (buffers made now and then included), where measured."""
    if any("cached_mean_us" not in r for r in runs):
        return "-"
    return f"{median(runs, 'cached_mean_us'):.1f}"


def main():
    (cold_b, resize_b, whole_b), (cold_a, resize_a, whole_a) = map(load, sys.argv[1:3])
    print("| operator | first compile, before (ms) | after (ms) | pipelines | cached compile, "
          "before (us) | after (us) | after: mean (us) | resized, before: median (us) | after: median (us) "
          "| after: pipelines built over the sweep | after: slowest (ms) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in cold_a:
        b, a = cold_b[name], cold_a[name]
        rb, ra = resize_b[name], resize_a[name]
        print(f"| {name} | {median(b, 'first_ms'):.1f} | {median(a, 'first_ms'):.1f} "
              f"| {a[0]['pipelines']} | {median(b, 'cached_us'):.1f} "
              f"| {median(a, 'cached_us'):.1f} | {mean_cell(a)} | {rb['median_us']:.1f} | {ra['median_us']:.1f} "
              f"| {ra['pipelines_built']} | {ra['max_ms']:.2f} |")
    worst_b = max(median(r, "first_ms") for r in cold_b.values())
    worst_a = max(median(r, "first_ms") for r in cold_a.values())
    context_b = statistics.median(r["context_ms"] for runs in cold_b.values() for r in runs)
    context_a = statistics.median(r["context_ms"] for runs in cold_a.values() for r in runs)
    print()
    print(f"Slowest first compile: {worst_b:.1f} ms before, {worst_a:.1f} ms after. A context "
          f"made (device, copy method measured): {context_b:.1f} ms before, {context_a:.1f} ms "
          "after (medians over every process).")
    print()
    print("| the whole set, fresh processes | before (ms) | after (ms) |")
    print("| --- | ---: | ---: |")
    print(f"| compiled one by one | {whole_b['first']['total_ms']:.1f} "
          f"| {whole_a['first']['total_ms']:.1f} |")
    cached = whole_a.get("cached")
    print(f"| one by one, given the first process's pipeline cache | - "
          f"| {cached['total_ms']:.1f} ({whole_a['first']['total_ms'] / cached['total_ms']:.1f}x "
          f"less; {whole_a['first']['cache_bytes']} bytes) |")
    p = whole_a["precompile"]
    print(f"| `precompile` of the set | - | {p['total_ms']:.1f} "
          f"({whole_a['first']['total_ms'] / p['total_ms']:.1f}x less than one by one) |")
    print(f"| every compile of the set after `precompile` | - | {p['compiles_after_ms']:.2f} |")


if __name__ == "__main__":
    main()
