#!/usr/bin/env python3
"""Runs `benches/compile.rs` (the built binary) in fresh processes and writes its tables.

    python3 scripts/compile_bench.py BINARY OUTDIR [--step S] [--repeat R] [--names a,b]

Per operator: a cold first compile (R fresh processes, the median; each process also times
the cached compile and how long the context took to make), the growing sequence (`resize`,
lengths 1 to 4096 every S). Then the whole set compiled one by one in a fresh process that
saves its pipeline cache, the same in a second process given that cache, and `precompile` of
the whole set in a third. Writes OUTDIR/compile.jsonl (every line the binary printed) and
OUTDIR/compile.md. A binary from before `precompile` and the pipeline cache existed prints
`null` or `false` for them; the tables show "-". On NVIDIA's driver run it with
`__GL_SHADER_DISK_CACHE=0`, so that the driver's own disk cache does not hide the compiles.
"""
import json
import os
import statistics
import subprocess
import sys


def run(binary, *args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    if len(lines) != 1:
        sys.exit(f"{binary} {' '.join(args)}: expected one JSON line, got {out!r}")
    return lines[0]


def cell(value, digits=1):
    if value is None or value is False:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def mean_cell(runs):
    """The mean of the cached compiles, where the build measured it."""
    if any("cached_mean_us" not in r for r in runs):
        return "-"
    return f"{statistics.median(r['cached_mean_us'] for r in runs):.1f}"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, outdir = args[0], args[1]
    step, repeat, names = 1, 3, None
    rest = args[2:]
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        if flag == "--step":
            step = int(value)
        elif flag == "--repeat":
            repeat = int(value)
        elif flag == "--names":
            names = value.split(",")
        else:
            sys.exit(f"unknown flag {flag}")
    os.makedirs(outdir, exist_ok=True)
    listed = subprocess.run([binary, "list"], check=True, capture_output=True, text=True)
    names = names or listed.stdout.split()
    records = []
    cold = {}
    for name in names:
        runs = [run(binary, "cold", name) for _ in range(repeat)]
        records += runs
        cold[name] = runs
    resize = {}
    for name in names:
        resize[name] = run(binary, "resize", name, "--step", str(step))
        records.append(resize[name])
    cache = os.path.join(outdir, "pipeline-cache.bin")
    if os.path.exists(cache):
        os.remove(cache)
    first = run(binary, "all", "--cache-out", cache)
    second = run(binary, "all", "--cache-in", cache) if os.path.exists(cache) else None
    precompiled = run(binary, "precompile")
    records += [r for r in (first, second, precompiled) if r]
    with open(os.path.join(outdir, "compile.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")

    adapter = first["adapter"]
    md = [f"Adapter: {adapter}. Wall clock on the CPU; each cold figure the median of "
          f"{repeat} fresh processes.", ""]
    md += ["| operator | context made (ms) | first compile (ms) | pipelines | cached compile: median (us) "
           "| mean (us) | resized: compiles (every {step}) | pipelines built | compiles over 1 ms "
           "| slowest (ms) | median (us) |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in names:
        runs = cold[name]
        median = lambda key: statistics.median(r[key] for r in runs)
        r = resize[name]
        md.append(
            f"| {name} | {median('context_ms'):.1f} | {median('first_ms'):.1f} "
            f"| {cell(runs[0]['pipelines'])} | {median('cached_us'):.1f} "
            f"| {mean_cell(runs)} | {r['compiles']} "
            f"| {cell(r['pipelines_built'])} | {r['over_1ms']} | {r['max_ms']:.2f} "
            f"| {r['median_us']:.1f} |")
    worst = max(names, key=lambda n: statistics.median(x["first_ms"] for x in cold[n]))
    md += ["", f"Slowest first compile: {worst}, "
               f"{statistics.median(x['first_ms'] for x in cold[worst]):.1f} ms.", ""]
    md += ["| the whole set (%d descs) | ms | pipelines |" % len(names), "| --- | ---: | ---: |",
           f"| one by one, fresh process | {first['total_ms']:.1f} | {cell(first['pipelines'])} |"]
    if second and second.get("cache_in"):
        ratio = first["total_ms"] / second["total_ms"] if second["total_ms"] else float("inf")
        md.append(f"| one by one, a second process given the first's pipeline cache "
                  f"({first['cache_bytes']} bytes) | {second['total_ms']:.1f} "
                  f"| {cell(second['pipelines'])} |")
        md.append(f"| (first over second: {ratio:.1f}x) | | |")
    else:
        md.append("| a second process given the first's pipeline cache | - | - |")
    if precompiled["supported"]:
        md.append(f"| `precompile`, fresh process | {precompiled['total_ms']:.1f} "
                  f"| {cell(precompiled['pipelines'])} |")
        md.append(f"| every compile after `precompile` | {precompiled['compiles_after_ms']:.2f} "
                  "| |")
    else:
        md.append("| `precompile` | - | - |")
    with open(os.path.join(outdir, "compile.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
