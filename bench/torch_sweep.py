#!/usr/bin/env python3
"""PyTorch peer of the narrow-element sweep of benches/bench/sweep.rs (`--sweep`), on CUDA.

    python3 bench/torch_sweep.py [--reps 50] [--json torch_sweep.jsonl] [--only NAME,..]

Same timing and output as shared/bench/torch_peer.py (bench/torch_timing.py). The same
shapes under the same names, in the same order (see sweep.rs for the classes):
`sweep_<scatter|scatter_inplace|gather>_<i8|f16>_<rows|diag|cols>_<rows>x<columns>_<i32|i64>`.

| operation | PyTorch |
| --- | --- |
| scatter (out of place) | `out.copy_(a); out.scatter_(axis, idx, upd)` |
| scatter_inplace | `a.scatter_(axis, idx, upd)` |
| gather | `torch.gather(a, axis, idx, out=o)` |

Int32 indices are passed as int32 where this PyTorch accepts them, else as int64 (the JSON
row's `index_dtype` says which); bytes are counted with the width used.
"""
import argparse

import torch

from torch_timing import Results, gpu_median_ms


def shapes():
    for operation in ("scatter", "scatter_inplace", "gather"):
        for element, dtype in (("i8", torch.int8), ("f16", torch.float16)):
            width = torch.tensor([], dtype=dtype).element_size()
            for pattern in ("rows", "diag", "cols"):
                for rows in (4096, 4095):
                    first = 4096 // width
                    for columns in range(first, first + 4):
                        for index in ("i32", "i64"):
                            yield operation, element, dtype, width, pattern, rows, columns, index


def indices(pattern, rows, columns, dense, gen, cuda):
    dense_rows, dense_columns = dense
    if pattern in ("rows", "diag"):
        p = torch.randperm(rows, device=cuda, generator=gen)[:dense_rows].view(-1, 1)
        if pattern == "rows":
            return p.expand(dense_rows, dense_columns).contiguous()
        j = torch.arange(dense_columns, device=cuda).view(1, -1)
        return (p + j) % rows
    q = torch.randperm(columns, device=cuda, generator=gen)[:dense_columns].view(1, -1)
    i = torch.arange(dense_rows, device=cuda).view(-1, 1)
    return (q + i) % columns


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--json", help="write the rows as JSON lines here")
    parser.add_argument("--only", help="comma-separated names")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    cuda = torch.device("cuda")
    gen = torch.Generator(device=cuda)
    gen.manual_seed(5)
    results = Results()
    int32_ok = {}
    for operation, element, dtype, width, pattern, rows, columns, index in shapes():
        name = f"sweep_{operation}_{element}_{pattern}_{rows}x{columns}_{index}"
        if only is not None and name not in only:
            continue
        axis = 1 if pattern == "cols" else 0
        dense = (rows // 2, columns) if axis == 0 else (rows, columns - 2048 // width)
        idx = indices(pattern, rows, columns, dense, gen, cuda)
        # Random bits reinterpreted: every pattern of the type, never zeros.
        a = torch.randint(-128, 128, (rows, columns * width), dtype=torch.int8, device=cuda,
                          generator=gen).view(dtype)
        upd = torch.randint(-128, 128, (dense[0], dense[1] * width), dtype=torch.int8,
                            device=cuda, generator=gen).view(dtype)
        out = torch.empty_like(a)
        gathered = torch.empty(dense, dtype=dtype, device=cuda)

        def runner(idx):
            if operation == "scatter":
                return lambda: (out.copy_(a), out.scatter_(axis, idx, upd))
            if operation == "scatter_inplace":
                return lambda: a.scatter_(axis, idx, upd)
            return lambda: torch.gather(a, axis, idx, out=gathered)

        if index == "i32":
            if operation not in int32_ok:
                try:
                    runner(idx.to(torch.int32))()
                    int32_ok[operation] = True
                except RuntimeError:
                    int32_ok[operation] = False
            if int32_ok[operation]:
                idx = idx.to(torch.int32)
        run = runner(idx)
        units = dense[0] * dense[1]
        index_bytes = units * idx.element_size()
        if operation == "scatter":
            nbytes = 2 * rows * columns * width + 2 * units * width + index_bytes
        elif operation == "scatter_inplace":
            nbytes = 2 * units * width + index_bytes
        else:
            nbytes = 2 * units * width + index_bytes
        results.record(name, gpu_median_ms(run, args.reps), nbytes)
        results.rows[-1]["index_dtype"] = str(idx.dtype).replace("torch.", "")
        del a, upd, out, gathered, idx
    results.write(args.json)


if __name__ == "__main__":
    main()
