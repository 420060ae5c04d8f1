#!/usr/bin/env python3
"""PyTorch peer of the points sweep (benches/bench/points.rs), on CUDA.

    python3 bench/torch_points.py [--reps 30] [--json torch_points.jsonl] [--only NAME,..]

ScatterND of single float32 elements out of place, as torch_peer.py's scatter_nd_points:
`out.copy_(a); out.index_put_((i0, i1), upd)`, over outputs of 1024, 4096 and 8192 squared,
an eighth, a sixteenth, a 256th and a 65536th of their elements as distinct points (a
permutation's prefix), in random order and sorted. Named as ours:
points_f32_<side>x<side>_<points>_<random|sorted>. Bytes: 2 x input + 2 x updates + indices
(int64 pairs). Timing as bench/torch_timing.py: CUDA events, median of --reps runs after warm-up.
"""
import argparse

import torch

from torch_timing import Results, gpu_median_ms


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--json")
    parser.add_argument("--only")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    dev = torch.device("cuda")
    g = torch.Generator(device=dev)
    g.manual_seed(0x5EED)
    results = Results()
    for side in (1024, 4096, 8192):
        a = torch.rand(side, side, device=dev, generator=g)
        out = torch.empty_like(a)
        for divisor in (8, 16, 256, 65536):
            points = side * side // divisor
            flat = torch.randperm(side * side, device=dev, generator=g)[:points]
            for order in ("random", "sorted"):
                name = f"points_f32_{side}x{side}_{points}_{order}"
                if only is not None and name not in only:
                    continue
                f = flat.sort().values if order == "sorted" else flat
                i0, i1 = f // side, f % side
                upd = torch.rand(points, device=dev, generator=g)

                def run():
                    out.copy_(a)
                    out.index_put_((i0, i1), upd)

                nbytes = 2 * a.numel() * 4 + 2 * points * 4 + points * 16
                results.record(name, gpu_median_ms(run, args.reps), nbytes)
    results.write(args.json)


if __name__ == "__main__":
    main()
