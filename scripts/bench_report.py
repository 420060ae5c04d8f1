#!/usr/bin/env python3
"""Combines the benchmark's and the PyTorch peers' JSON lines (one run, one GPU) into the
markdown table of BENCHMARKS.md: per workload our GB/s, PyTorch's, the ratio (PyTorch's GPU
time over ours: above 1 means faster than PyTorch), our fraction of the copy roof, and the
target from the performance issue. Then, for the scatter reductions' `<name>_in_order` rows
(no PyTorch peer), a table of the in-order time over the same run's default-mode time.

    python3 scripts/bench_report.py [--before before.jsonl] ours.jsonl torch.jsonl [more peers ..] > report.md

With --before, two more columns: the same workload's time in another build's run (the build
before a change, run in the same command) and ours over it.

Every file after the first is a peer's (torch_peer.py, bench/torch_reductions.py,
bench/torch_narrow.py); their
rows are merged by workload name (a later file's row wins).
"""
import json
import sys

# Issue 14's targets: PyTorch's GPU time over ours at least this much.
TARGETS = {
    "slice_contig": 1.1, "scatter_elements_rows": 1.1, "scatter_elements_rows_inplace": 1.1,
    "scatter_nd_rows": 1.1, "scatter_elements_rows_u8": 1.1, "scatter_elements_rows_f16": 1.1,
    "slice_strided": 1.1, "slice_nchw_crop": 1.1,
    "scatter_elements_diag": 1.5, "scatter_elements_axis1": 1.5, "scatter_nd_points": 1.5,
    "gather_elements_diag": 1.5,
    # Odd-row narrow workloads (bench/torch_narrow.py).
    "scatter_elements_rows_i8_odd": 1.0, "scatter_elements_rows_f16_odd": 1.0,
    "gather_elements_rows_i8_odd": 1.0, "gather_elements_rows_f16_odd": 1.0,
    # Scatter reductions (bench/torch_reductions.py), default DuplicateMode::AnyUpdate.
    "scatter_add_rows": 1.0, "scatter_add_heavy": 1.0, "scatter_max_i32": 1.0,
    "scatter_max_f32": 1.0,
}

# Where PyTorch itself runs so close to the copy roof that the ratio target would pass the
# roof (PyTorch's fraction times the target above 1), reaching this fraction of the same run's
# roof also meets it.
ROOF_ALTERNATIVE = {"slice_contig", "scatter_elements_rows", "scatter_elements_rows_inplace",
                    "scatter_nd_rows", "scatter_elements_rows_u8", "scatter_elements_rows_f16"}
ROOF_FRACTION = 0.95

# `<name>_in_order` rows: at most this many times the same run's `<name>` (default mode).
IN_ORDER_SUFFIX = "_in_order"
IN_ORDER_TARGET = 3.0


def load(path):
    with open(path) as f:
        return {r["workload"]: r for r in map(json.loads, filter(str.strip, f))}


def main():
    args = sys.argv[1:]
    before = {}
    if args[:1] == ["--before"]:
        before, args = load(args[1]), args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    ours, torch = load(args[0]), {}
    for path in args[1:]:
        torch.update(load(path))
    adapter = next(iter(ours.values()))["adapter"]
    roof = ours.get("copy_256MiB", {}).get("GBps")
    print(f"Adapter: {adapter}\n")
    head = "| workload | dml-wgsl ms | dml-wgsl GB/s | PyTorch ms | PyTorch GB/s | ratio | fraction of copy roof | target | met |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    if before:
        head += " before ms | after / before |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    for name, r in ours.items():
        t = torch.get(name)
        ratio = t["ms"] / r["ms"] if t else None
        target = TARGETS.get(name)
        fraction = r.get("roof_fraction")
        met = "" if target is None or ratio is None else ("yes" if ratio >= target else "**no**")
        target_text = f">= {target}x" if target else ""
        if name in ROOF_ALTERNATIVE and t and roof:
            target_text += f" or >= {100 * ROOF_FRACTION:.0f} % of roof"
            torch_fraction = t["GBps"] / roof
            if met == "**no**" and torch_fraction * target > 1 and fraction >= ROOF_FRACTION:
                met = "yes (roof)"
        line = "| {} | {:.4f} | {:.1f} | {} | {} | {} | {} | {} | {} |".format(
            name, r["ms"], r["GBps"],
            f"{t['ms']:.4f}" if t else "", f"{t['GBps']:.1f}" if t else "",
            f"{ratio:.2f}x" if ratio else "",
            f"{100 * fraction:.1f} %" if fraction is not None else "", target_text, met)
        if before:
            b = before.get(name)
            line += " {} | {} |".format(f"{b['ms']:.4f}" if b else "",
                                        f"{r['ms'] / b['ms']:.2f}" if b else "")
        print(line)
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
