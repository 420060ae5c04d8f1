#!/usr/bin/env python3
"""Combines the benchmark's and the PyTorch peers' JSON lines (one run, one GPU) into the
markdown table of BENCHMARKS.md: per workload our GB/s, PyTorch's, the ratio (PyTorch's GPU
time over ours: above 1 means faster than PyTorch), our fraction of the copy roof, and the
target from the performance issue. Then, for the scatter reductions' `<name>_in_order` rows
(no PyTorch peer), a table of the in-order time over the same run's default-mode time.

    python3 scripts/bench_report.py ours.jsonl torch.jsonl [torch_reductions.jsonl ..] > report.md

Every file after the first is a peer's (torch_peer.py, bench/torch_reductions.py); their
rows are merged by workload name (a later file's row wins).
"""
import json
import sys

TARGETS = {
    "slice_contig": 1.2, "slice_strided": 1.2, "slice_nchw_crop": 1.2,
    "scatter_elements_rows": 1.0, "scatter_nd_rows": 1.0,
    "scatter_elements_rows_inplace": 1.1, "scatter_nd_points": 1.2,
    "scatter_elements_diag": 1.5, "scatter_elements_axis1": 1.5, "gather_elements_diag": 1.5,
    "scatter_elements_rows_u8": 1.0, "scatter_elements_rows_f16": 1.0,
    # Scatter reductions (bench/torch_reductions.py), default DuplicateMode::AnyUpdate.
    "scatter_add_rows": 1.0, "scatter_add_heavy": 1.0, "scatter_max_i32": 1.0,
}

# `<name>_in_order` rows: at most this many times the same run's `<name>` (default mode).
IN_ORDER_SUFFIX = "_in_order"
IN_ORDER_TARGET = 3.0


def load(path):
    with open(path) as f:
        return {r["workload"]: r for r in map(json.loads, filter(str.strip, f))}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ours, torch = load(sys.argv[1]), {}
    for path in sys.argv[2:]:
        torch.update(load(path))
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
    in_order_table(ours)


def in_order_table(ours):
    """The in-order rows against the default-mode rows of the same run."""
    pairs = [(name, name[:-len(IN_ORDER_SUFFIX)]) for name in ours
             if name.endswith(IN_ORDER_SUFFIX)]
    if not pairs:
        return
    print("\nScatter reductions in `DuplicateMode::InOrder` (`<name>_in_order`), against the "
          "default mode (`AnyUpdate`) in the same run (no PyTorch peer):\n")
    print("| workload | in-order ms | default ms | in-order / default | target | met |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, default_name in pairs:
        r, d = ours[name], ours.get(default_name)
        ratio = r["ms"] / d["ms"] if d else None
        met = "" if ratio is None else ("yes" if ratio <= IN_ORDER_TARGET else "**no**")
        print("| {} | {:.4f} | {} | {} | <= {}x | {} |".format(
            name, r["ms"], f"{d['ms']:.4f}" if d else "",
            f"{ratio:.2f}x" if ratio is not None else "", IN_ORDER_TARGET, met))


if __name__ == "__main__":
    main()
