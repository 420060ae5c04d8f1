#!/usr/bin/env python3
"""PyTorch peer of the scatter-reduction workloads of benches/bench.rs (`REDUCTIONS`), on CUDA.

    python3 bench/torch_reductions.py [--reps 50] [--json torch_reductions.jsonl]

Same timing and output as shared/bench/torch_peer.py, so that scripts/bench_report.py can set
the two side by side with our benchmark: GPU time by CUDA events around each run, one run at
a time (synchronised after each), median of --reps runs after 5 warm-up runs; one JSON object
a line with the keys `workload`, `ms`, `bytes`, `GBps`, `impl`.

Random data (never zeros: floats uniform in [0, 1), integers over the whole Int32 range),
int64 indices. Each run is out of place, as ours: the copy `output = input` into a buffer
made beforehand (what `input.clone()` does, without the allocator), then the reduction.

Bytes counted: `2 x input + updates + indices` (the `output = input` copy as one read and
one write of the input, the updates read once, the indices read once; the reduction's
read-modify-write of each target is not counted extra).

| name | operator | shapes | PyTorch | bytes counted |
| --- | --- | --- | --- | --- |
| scatter_add_rows | ScatterND, Add (an embedding's gradient) | f32 table [65536, 512]; indices [131072, 1] uniform in 0..65536 (repeated rows); updates [131072, 512] | `out.index_add_(0, idx, upd)` | 2 x table + updates + indices |
| scatter_add_heavy | ScatterElements axis 0, Add | f32 input [1024]; indices [4194304] over 16 distinct targets; updates [4194304] | `out.scatter_add_(0, idx, upd)` | 2 x input + updates + indices |
| scatter_max_i32 | ScatterElements axis 0, Max | i32 input [4096, 4096]; indices [4096, 4096] uniform in 0..4096; updates i32 [4096, 4096] | `out.scatter_reduce_(0, idx, upd, "amax", include_self=True)` | 2 x input + updates + indices |
| scatter_max_f32 | ScatterElements axis 0, Max | as scatter_max_i32 with f32 input and updates | as scatter_max_i32 | same |

Our benchmark also runs each in DuplicateMode::InOrder as `<name>_in_order`; PyTorch has no
in-order variant, so this script has no row for those.
"""
import argparse

import torch

from torch_timing import Results, gpu_median_ms


def reduction_bytes(inp, upd, idx):
    """2 x input (the copy) + updates read once + indices read once."""
    size = lambda t: t.numel() * t.element_size()
    return 2 * size(inp) + size(upd) + size(idx)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--json", help="write the rows as JSON lines here")
    args = parser.parse_args()
    cuda = torch.device("cuda")
    gen = torch.Generator(device=cuda)
    gen.manual_seed(2)
    results = Results()
    record = results.record

    def uniform(*shape):
        return torch.rand(*shape, device=cuda, generator=gen)

    def int32s(*shape):
        return torch.randint(-2**31, 2**31 - 1, shape, dtype=torch.int32, device=cuda,
                             generator=gen)

    def indices(high, *shape):
        return torch.randint(0, high, shape, dtype=torch.int64, device=cuda, generator=gen)

    # scatter_add_rows: rows of updates added into a table, many rows hit more than once.
    table = uniform(65536, 512)
    rows = indices(65536, 131072)
    row_updates = uniform(131072, 512)
    table_out = torch.empty_like(table)

    def add_rows():
        table_out.copy_(table)
        table_out.index_add_(0, rows, row_updates)

    record("scatter_add_rows", gpu_median_ms(add_rows, args.reps),
           reduction_bytes(table, row_updates, rows))
    del table, rows, row_updates, table_out

    # scatter_add_heavy: 4194304 updates onto 16 of 1024 elements.
    small = uniform(1024)
    targets = torch.randperm(1024, device=cuda, generator=gen)[:16]
    heavy = targets[indices(16, 4194304)]
    heavy_updates = uniform(4194304)
    small_out = torch.empty_like(small)

    def add_heavy():
        small_out.copy_(small)
        small_out.scatter_add_(0, heavy, heavy_updates)

    record("scatter_add_heavy", gpu_median_ms(add_heavy, args.reps),
           reduction_bytes(small, heavy_updates, heavy))
    del small, targets, heavy, heavy_updates, small_out

    # scatter_max_i32: each column's 4096 updates onto random rows of the same column.
    grid = int32s(4096, 4096)
    picks = indices(4096, 4096, 4096)
    grid_updates = int32s(4096, 4096)
    grid_out = torch.empty_like(grid)

    def max_i32():
        grid_out.copy_(grid)
        grid_out.scatter_reduce_(0, picks, grid_updates, reduce="amax", include_self=True)

    record("scatter_max_i32", gpu_median_ms(max_i32, args.reps),
           reduction_bytes(grid, grid_updates, picks))
    del grid, grid_updates, grid_out

    # scatter_max_f32: the same on Float32 values (the same indices).
    floats = uniform(4096, 4096)
    float_updates = uniform(4096, 4096)
    floats_out = torch.empty_like(floats)

    def max_f32():
        floats_out.copy_(floats)
        floats_out.scatter_reduce_(0, picks, float_updates, reduce="amax", include_self=True)

    record("scatter_max_f32", gpu_median_ms(max_f32, args.reps),
           reduction_bytes(floats, float_updates, picks))

    results.write(args.json)


if __name__ == "__main__":
    main()
