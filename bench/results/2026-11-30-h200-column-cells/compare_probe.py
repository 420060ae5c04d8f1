"""Tables of a probe run: per width, the lowest time of each variant over the rounds, against
the base and PyTorch's peer of the same command. Usage: compare_probe.py RUN BASE:VAR,VAR ..."""
import collections, json, os, sys

d = sys.argv[1]


def load(tag):
    times = collections.defaultdict(list)
    for i in (1, 2, 3):
        for prefix in ("", "w-"):
            path = f"{d}/{prefix}{tag}-{i}.jsonl"
            if os.path.exists(path):
                for line in open(path):
                    j = json.loads(line)
                    if "ms" in j and j.get("impl") == "dml-wgsl":
                        times[j["workload"]].append(j["ms"])
    return {k: min(v) for k, v in times.items()}


torch = {}
for name in ("torch-sweep.jsonl", "torch-w.jsonl"):
    for line in open(f"{d}/{name}"):
        j = json.loads(line)
        if "ms" in j:
            torch[j["workload"]] = j["ms"]
for spec in sys.argv[2:]:
    base, variants = spec.split(":")
    variants = variants.split(",")
    b = load(base)
    vs = [load(v) for v in variants]
    print(f"\n| {base} (ms) | " + " | ".join(variants) + " | PyTorch |")
    print("| --- | ---: |" + " ---: |" * len(variants) + " ---: |")
    for k in sorted(b):
        row = f"| {k} | {b[k]:.4f} |"
        for v in vs:
            row += f" {v[k]:.4f} ({(v[k] / b[k] - 1) * 100:+.1f} %) |" if k in v else " |"
        t = torch.get(k)
        row += f" {t:.4f} ({t / b[k]:.2f}x) |" if t else " |"
        print(row)
