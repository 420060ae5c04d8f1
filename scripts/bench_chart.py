#!/usr/bin/env python3
"""Draws the GB/s of one benchmark run as an SVG bar chart: per workload, ours and PyTorch's
side by side, and the same run's copy roof (our copy of 256 MiB) as a dashed line.

    python3 scripts/bench_chart.py ours.jsonl torch.jsonl [more peers ..] > chart.svg

The files are those of scripts/bench_report.py (JSON lines with `workload`, `GBps`, and on
ours `adapter`); a later peer file's row wins. Workloads without a PyTorch row (timings of
recording, splits, in-order reductions) are left out. No dependencies beyond Python 3.
"""
import json
import sys
from html import escape

ROOF = "copy_256MiB"
OURS_COLOUR, PEER_COLOUR, ROOF_COLOUR = "#1f77b4", "#ff7f0e", "#555555"


def load(path):
    with open(path) as f:
        return {r["workload"]: r for r in map(json.loads, filter(str.strip, f))}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ours, peer = load(sys.argv[1]), {}
    for path in sys.argv[2:]:
        peer.update(load(path))
    adapter = next(iter(ours.values()))["adapter"]
    roof = ours.get(ROOF, {}).get("GBps")
    # Tiny operators measure launch cost, not bandwidth.
    names = [n for n in ours if n in peer and not n.startswith("slice_tiny")]
    top = max([roof or 0] + [ours[n]["GBps"] for n in names] + [peer[n]["GBps"] for n in names])
    scale_top = 500 * (int(top // 500) + 1)

    # Layout: one group of two bars a workload, labels rotated under the axis.
    left, right, top_margin, bottom = 70, 70, 50, 190
    group, bar = 44, 16
    width = max(760, left + right + group * len(names))
    height = 420
    plot = height - top_margin - bottom
    y = lambda gbps: top_margin + plot * (1 - gbps / scale_top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="13">GB/s per workload: dml-wgsl and PyTorch, '
           f'same run ({escape(adapter)})</text>']
    # Grid lines and the GB/s axis.
    for tick in range(0, scale_top + 1, 500):
        ty = y(tick)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" '
                   f'stroke="#dddddd"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" text-anchor="end">{tick}</text>')
    out.append(f'<text x="14" y="{top_margin + plot / 2}" transform="rotate(-90 14 '
               f'{top_margin + plot / 2})" text-anchor="middle">GB/s</text>')
    for i, name in enumerate(names):
        x0 = left + group * i + (group - 2 * bar) / 2
        for k, (value, colour) in enumerate([(ours[name]["GBps"], OURS_COLOUR),
                                             (peer[name]["GBps"], PEER_COLOUR)]):
            bx = x0 + k * bar
            out.append(f'<rect x="{bx:.1f}" y="{y(value):.1f}" width="{bar - 2}" '
                       f'height="{top_margin + plot - y(value):.1f}" fill="{colour}">'
                       f'<title>{escape(name)}: {value:.0f} GB/s</title></rect>')
        ratio = peer[name]["ms"] / ours[name]["ms"]
        cx = left + group * i + group / 2
        top_bar = min(y(ours[name]["GBps"]), y(peer[name]["GBps"]))
        out.append(f'<text x="{cx:.1f}" y="{top_bar - 4:.1f}" text-anchor="middle" '
                   f'font-size="9">{ratio:.2f}x</text>')
        ly = top_margin + plot + 8
        out.append(f'<text x="{cx:.1f}" y="{ly}" transform="rotate(60 {cx:.1f} {ly})" '
                   f'font-size="10">{escape(name)}</text>')
    if roof:
        ry = y(roof)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{ry:.1f}" y2="{ry:.1f}" '
                   f'stroke="{ROOF_COLOUR}" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{width - right}" y="{ry - 4:.1f}" text-anchor="end" '
                   f'fill="{ROOF_COLOUR}">copy roof {roof:.0f} GB/s</text>')
    # Legend.
    lx = left
    for label, colour in [("dml-wgsl", OURS_COLOUR), ("PyTorch", PEER_COLOUR)]:
        out.append(f'<rect x="{lx}" y="28" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{lx + 16}" y="38">{label}</text>')
        lx += 90
    out.append(f'<text x="{lx}" y="38">(label over a pair: PyTorch time / ours)</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
