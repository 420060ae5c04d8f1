#!/usr/bin/env python3
"""Combines the benchmark's and torch_peer.py's JSON lines (one run, one GPU) into the
markdown table of BENCHMARKS.md: per workload our GB/s, PyTorch's, the ratio (PyTorch's GPU
time over ours: above 1 means faster than PyTorch), our fraction of the copy roof, and the
target from the performance issue.

    python3 scripts/bench_report.py ours.jsonl torch.jsonl > report.md
"""
import json
import sys

TARGETS = {
    "slice_contig": 1.2, "slice_strided": 1.2, "slice_nchw_crop": 1.2,
    "scatter_elements_rows": 1.0, "scatter_nd_rows": 1.0,
    "scatter_elements_rows_inplace": 1.1, "scatter_nd_points": 1.2,
    "scatter_elements_diag": 1.5, "scatter_elements_axis1": 1.5, "gather_elements_diag": 1.5,
    "scatter_elements_rows_u8": 1.0, "scatter_elements_rows_f16": 1.0,
}


def load(path):
    with open(path) as f:
        return {r["workload"]: r for r in map(json.loads, filter(str.strip, f))}


def main():
    ours, torch = load(sys.argv[1]), load(sys.argv[2])
    adapter = next(iter(ours.values()))["adapter"]
    print(f"Adapter: {adapter}\n")
    print("| workload | dml-wgsl ms | dml-wgsl GB/s | PyTorch ms | PyTorch GB/s | ratio | fraction of copy roof | target | met |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, r in ours.items():
        t = torch.get(name)
        ratio = t["ms"] / r["ms"] if t else None
        target = TARGETS.get(name)
        roof = r.get("roof_fraction")
        met = "" if target is None or ratio is None else ("yes" if ratio >= target else "**no**")
        print("| {} | {:.4f} | {:.1f} | {} | {} | {} | {} | {} | {} |".format(
            name, r["ms"], r["GBps"],
            f"{t['ms']:.4f}" if t else "", f"{t['GBps']:.1f}" if t else "",
            f"{ratio:.2f}x" if ratio else "", f"{100 * roof:.1f} %" if roof is not None else "",
            f">= {target}x" if target else "", met))


if __name__ == "__main__":
    main()
