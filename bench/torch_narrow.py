#!/usr/bin/env python3
"""PyTorch peer of the odd-row narrow workloads of benches/bench.rs (`odd_rows`), on CUDA.

    python3 bench/torch_narrow.py [--reps 50] [--json torch_narrow.jsonl]

Same timing and output as shared/bench/torch_peer.py (GPU time by CUDA events around each
run, one run at a time, median of --reps runs after 5 warm-up runs; one JSON object a line
with the keys `workload`, `ms`, `bytes`, `GBps`, `impl`), so that scripts/bench_report.py
sets them beside ours.

Rows of 4097 elements (not a whole number of 4-byte words for Int8 and Float16), random data,
int64 indices `idx[i, j] = p[i]` for the first 4096 entries `p` of a random permutation of
0..8192 (every element of an updates row goes to the same output row, as in
scatter_elements_rows).

| name | operator | shapes | PyTorch | bytes counted |
| --- | --- | --- | --- | --- |
| scatter_elements_rows_i8_odd | ScatterElements axis 0, out of place | int8 input [8192, 4097]; indices [4096, 4097]; updates [4096, 4097] | `out.copy_(a); out.scatter_(0, idx, upd)` | 2 x input + 2 x updates + indices |
| scatter_elements_rows_f16_odd | the same in float16 | | | |
| gather_elements_rows_i8_odd | GatherElements axis 0 | int8 input [8192, 4097]; indices [4096, 4097]; output [4096, 4097] | `torch.gather(a, 0, idx, out=o)` | 2 x output + indices |
| gather_elements_rows_f16_odd | the same in float16 | | | |
"""
import argparse

import torch

from torch_timing import Results, gpu_median_ms

N, K, C = 8192, 4096, 4097


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--json", help="write the rows as JSON lines here")
    args = parser.parse_args()
    cuda = torch.device("cuda")
    gen = torch.Generator(device=cuda)
    gen.manual_seed(3)
    results = Results()
    record = results.record

    p = torch.randperm(N, device=cuda, generator=gen)[:K]
    idx = p.view(K, 1).expand(K, C).contiguous()
    for name, dtype in (("i8", torch.int8), ("f16", torch.float16)):
        width = torch.tensor([], dtype=dtype).element_size()
        # Random bits reinterpreted: every pattern of the type, never zeros.
        a = torch.randint(-128, 128, (N, C * width), dtype=torch.int8, device=cuda,
                          generator=gen).view(dtype)
        upd = torch.randint(-128, 128, (K, C * width), dtype=torch.int8, device=cuda,
                            generator=gen).view(dtype)
        out = torch.empty_like(a)

        def scatter():
            out.copy_(a)
            out.scatter_(0, idx, upd)

        record(f"scatter_elements_rows_{name}_odd", gpu_median_ms(scatter, args.reps),
               2 * N * C * width + 2 * K * C * width + K * C * 8)
        gathered = torch.empty(K, C, dtype=dtype, device=cuda)
        record(f"gather_elements_rows_{name}_odd",
               gpu_median_ms(lambda: torch.gather(a, 0, idx, out=gathered), args.reps),
               2 * K * C * width + K * C * 8)
        del a, upd, out, gathered

    results.write(args.json)


if __name__ == "__main__":
    main()
