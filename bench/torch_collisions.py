#!/usr/bin/env python3
"""PyTorch peer of issue 26's collision workloads (benches/bench/collisions.rs), on CUDA.

    python3 bench/torch_collisions.py [--reps 50] [--json torch_collisions.jsonl] [--sweep]
        [--in-place]

Same timing and output as bench/torch_reductions.py (bench/torch_timing.py): GPU time by CUDA
events around each run, one run at a time, median of --reps runs after 5 warm-up runs; one
JSON object a line with `workload`, `ms`, `bytes`, `GBps`, `impl`.

Random data from torch's generator: floats uniform in (0, 1] (`1 - torch.rand`: never zero),
integers over their whole range, int64 indices. Each run is out of place, as ours: the copy
`output = input` into a tensor made beforehand, then the reduction; with --in-place, the
reduction into the input itself, each run into what the runs before it left (as ours with
`--collision-sweep --in-place`), named `<name>_inplace` (bytes counted as out of place).

Bytes counted: `2 x input + updates + indices`.

| name | shapes | PyTorch | bytes |
| --- | --- | --- | --- |
| scatter_add_histogram | i32 input [1000]; indices [10485760] uniform in 0..1000; updates i32 [10485760] | `out.scatter_add_(0, idx, upd)` | 125,837,120 |
| scatter_min_i64_segments | i64 input [131072]; indices [4194304] sorted segment ids (every target a run, random lengths averaging 32); updates i64 [4194304] | `out.scatter_reduce_(0, idx, upd, "amin", include_self=True)` | 69,206,016 |
| index_add_rows_f16 | f16 table [32768, 1024]; indices [4096] uniform in 0..32768; updates f16 [4096, 1024] | `out.index_add_(0, idx, upd)` | 142,639,104 |
| index_add_rows_f64 | f64 table [32768, 512]; indices [4096] uniform in 0..32768; updates f64 [4096, 512] | `out.index_add_(0, idx, upd)` | 285,245,440 |
| scatter_max_f32_edges | f32 nodes [65536, 64]; indices [1048576] uniform in 0..65536; messages f32 [1048576, 64] | `out.scatter_reduce_(0, idx[:, None].expand(-1, 64), msg, "amax", include_self=True)` | 310,378,496 |

`scatter_reduce_` with the index expanded (a view: no copy) is what graph libraries call for
edge messages, `out[idx[i], :] = max(out[idx[i], :], msg[i, :])`, our ScatterND of [N, 1]
indices. (`index_reduce_` does the same, but PyTorch has no deterministic implementation of
it; `scatter_reduce_`'s amax runs under deterministic algorithms.)

`index_add_rows_f16_in_order` and `scatter_max_f32_edges_in_order` (ours:
DuplicateMode::InOrder) run the same op under `torch.use_deterministic_algorithms(True)`; where
PyTorch has no deterministic implementation and raises, the row is left out and stdout says so.

`--sweep` runs the collision sweep instead, named as ours (`--collision-sweep`):
sweep_histogram_i32_add_4194304_to_B (B in 1, 16, 256, 1000, 2049, 4096, 8192, 16384, 65536 bins),
sweep_segments_i64_min_4194304_to_T_{sorted,uniform} (T in 1000, 131072),
sweep_elements_{f32,f64}_add_4194304_to_T (Float32 and Float64 Add, T in 1, 1000, 2049, 4096,
8192, 16384, 16385, 65536, 131072, 1048576, 4194304, uniform; also `_in_order`),
sweep_zeros_{f32,f64}_add_4194304_to_T (the same from an input of zeros, T in 1000, 16384, 65536;
also `_in_order`; not in place),
sweep_many_{f16,f32,f64}_add_67108864_to_T (Float16, Float32 and Float64 Add, T in 256, 4096,
16384, uniform: many more updates than a GPU's threads; Float64 also `_in_order`),
sweep_index_add_{f16,f32,f64,i16}_4096xL_into_R (rows of L in 1, 16, 512, 2048, 4096 elements into
R = 32768 table rows, fewer where the table would pass 256 MiB; Int16 values uniform over the type),
sweep_index_add_{f16,f32,f64,i16}_Kx1024_into_32768
(K in 16, 1024, 2048: a few rows into a large table, a 32nd and a 16th of it), and `_in_order`
for the f16 rows;
sweep_few_{f32,f16,f64}_add_RxL_into_T (rows into few targets: 65536x64, 4096x1024 and
262144x256 into T in 1, 4, 16, 64, 256 rows), `_in_order` for f16;
sweep_hub_{f32_add,f16_add,f64_add,f32_max}_262144x64_into_65536 (a quarter of the rows onto row 0,
the rest uniform), `_in_order` for f32_max;
sweep_edges_{f32,f16}_max_ExL_into_N (Max of E edge messages of L elements into N nodes:
f32 262144x256 into 65536, 1048576x64 into 16384 and 4096, 65536x64 and 131072x64 into 262144,
1048576x16 into 65536; f16 1048576x64 into 65536), each also `_in_order`.
"""
import argparse

import torch

from torch_timing import Results, gpu_median_ms

# The largest table of the sweep's rows, in bytes (as SWEEP_TABLE_BYTES in collisions.rs).
SWEEP_TABLE_BYTES = 256 << 20
# The few-targets rows' shapes (as FEW_TARGET_ROWS in collisions.rs): update rows, row length,
# each into 1, 4, 16, 64 and 256 rows.
FEW_TARGET_ROWS = [(65536, 64), (4096, 1024), (262144, 256)]
# The many-updates sweep's targets (as MANY_UPDATE_TARGETS in collisions.rs).
MANY_UPDATE_TARGETS = [256, 4096, 16384]

# The edge sweep's shapes (as EDGE_SHAPES in collisions.rs): type, edges, row length, nodes.
EDGE_SHAPES = [
    (torch.float32, "f32", 262144, 256, 65536),
    (torch.float32, "f32", 1 << 20, 64, 16384),
    (torch.float32, "f32", 1 << 20, 64, 4096),
    (torch.float32, "f32", 65536, 64, 262144),
    (torch.float32, "f32", 131072, 64, 262144),
    (torch.float32, "f32", 1 << 20, 16, 65536),
    (torch.float16, "f16", 1 << 20, 64, 65536),
]


def reduction_bytes(inp, upd, idx):
    """2 x input (the copy) + updates read once + indices read once."""
    size = lambda t: t.numel() * t.element_size()
    return 2 * size(inp) + size(upd) + size(idx)


class Collisions:
    """The workloads' data and runs on one CUDA generator."""

    def __init__(self, reps, in_place=False):
        self.reps = reps
        # In place: every run reduces into the input (no copy), named `<name>_inplace`.
        self.in_place = in_place
        self.cuda = torch.device("cuda")
        self.gen = torch.Generator(device=self.cuda)
        self.gen.manual_seed(0x26)
        self.results = Results()

    def unit(self, shape, dtype):
        """Uniform in (0, 1]: never zero."""
        return torch.rand(shape, dtype=dtype, device=self.cuda, generator=self.gen).neg_().add_(1)

    def values(self, shape, dtype):
        """Floats as `unit`; integers uniform over their type (the top value excluded:
        randint's bound is exclusive)."""
        if dtype.is_floating_point:
            return self.unit(shape, dtype)
        info = torch.iinfo(dtype)
        return torch.randint(info.min, info.max, shape, dtype=dtype, device=self.cuda,
                             generator=self.gen)

    def int32s(self, count):
        return torch.randint(-2**31, 2**31 - 1, (count,), dtype=torch.int32, device=self.cuda,
                             generator=self.gen)

    def int64s(self, count):
        """Two random int32 halves: every bit random (randint's int64 bounds are not needed)."""
        high = self.int32s(count).to(torch.int64)
        low = self.int32s(count).to(torch.int64) & 0xFFFFFFFF
        return (high << 32) | low

    def indices(self, high, count):
        return torch.randint(0, high, (count,), dtype=torch.int64, device=self.cuda,
                             generator=self.gen)

    def sorted_segments(self, count, targets):
        """Sorted ids 0, 0, 1, 2, 2, ..: targets - 1 distinct random cut points in 1..count
        start the next target's run, so every target gets a run, averaging count / targets."""
        cuts = min(targets, count) - 1
        starts = torch.randperm(count - 1, device=self.cuda, generator=self.gen)[:cuts] + 1
        marks = torch.zeros(count, dtype=torch.int64, device=self.cuda)
        marks[starts] = 1
        return torch.cumsum(marks, 0)

    def time(self, name, run, nbytes, deterministic=False):
        """Records `run`'s median; deterministic: under use_deterministic_algorithms(True),
        and no row where PyTorch raises for want of a deterministic implementation."""
        if not deterministic:
            self.results.record(name, gpu_median_ms(run, self.reps), nbytes)
            return
        torch.use_deterministic_algorithms(True)
        try:
            ms = gpu_median_ms(run, self.reps)
        except RuntimeError as error:
            first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
            print(f"{name:32s} no row: PyTorch raised under deterministic algorithms: {first_line}",
                  flush=True)
            return
        finally:
            torch.use_deterministic_algorithms(False)
        self.results.record(name, ms, nbytes)

    def named(self, name):
        return f"{name}_inplace" if self.in_place else name

    def elements(self, name, dtype, reduce, targets, count, pattern, in_order=False,
                 zeros=False):
        """A 1-D scatter of `count` updates into `targets` elements (int32 Add, int64 Min,
        float16, float32 or float64 Add); also under deterministic algorithms as
        `<name>_in_order` when `in_order`; from an input of zeros with `zeros`."""
        if zeros and self.in_place:
            return  # in place, each run would start from the last one's sums, not zeros
        if dtype.is_floating_point:
            values = lambda count: self.unit((count,), dtype)
        else:
            values = self.int32s if dtype == torch.int32 else self.int64s
        inp = values(targets)
        if zeros:
            inp = torch.zeros_like(inp)
        if pattern == "sorted":
            idx = self.sorted_segments(count, targets)
        else:
            idx = self.indices(targets, count)
        upd = values(count)
        out = inp if self.in_place else torch.empty_like(inp)
        name = self.named(name)

        def run():
            if not self.in_place:
                out.copy_(inp)
            if reduce == "sum":
                out.scatter_add_(0, idx, upd)
            else:
                out.scatter_reduce_(0, idx, upd, reduce, include_self=True)

        nbytes = reduction_bytes(inp, upd, idx)
        self.time(name, run, nbytes)
        if in_order:
            self.time(f"{name}_in_order", run, nbytes, deterministic=True)

    def rows(self, name, dtype, reduce, table_rows, row_length, update_rows, in_order,
             hub=False):
        """Rows of updates added (index_add_) or maxed (scatter_reduce_) into a table; also
        under deterministic algorithms as `<name>_in_order` when `in_order`; with `hub`, a
        quarter of the rows onto row 0."""
        table = self.values((table_rows, row_length), dtype)
        idx = self.indices(table_rows, update_rows)
        if hub:
            quarter = torch.randint(0, 4, (update_rows,), device=self.cuda, generator=self.gen)
            onto_hub = quarter == 0
            idx = torch.where(onto_hub, torch.zeros_like(idx), idx)
        upd = self.values((update_rows, row_length), dtype)
        out = table if self.in_place else torch.empty_like(table)
        expanded = idx[:, None].expand(-1, row_length)
        name = self.named(name)

        def run():
            if not self.in_place:
                out.copy_(table)
            if reduce == "sum":
                out.index_add_(0, idx, upd)
            else:
                out.scatter_reduce_(0, expanded, upd, reduce, include_self=True)

        nbytes = reduction_bytes(table, upd, idx)
        self.time(name, run, nbytes)
        if in_order:
            self.time(f"{name}_in_order", run, nbytes, deterministic=True)

    def workloads(self):
        self.elements("scatter_add_histogram", torch.int32, "sum", 1000, 10485760, "uniform")
        self.elements("scatter_min_i64_segments", torch.int64, "amin", 131072, 4194304, "sorted")
        self.rows("index_add_rows_f16", torch.float16, "sum", 32768, 1024, 4096, True)
        self.rows("index_add_rows_f64", torch.float64, "sum", 32768, 512, 4096, False)
        self.rows("scatter_max_f32_edges", torch.float32, "amax", 65536, 64, 1048576, True)

    def sweep(self):
        updates = 1 << 22
        for bins in [1, 16, 256, 1000, 2049, 4096, 8192, 16384, 65536]:
            self.elements(f"sweep_histogram_i32_add_{updates}_to_{bins}", torch.int32, "sum",
                          bins, updates, "uniform")
        for targets in [1000, 131072]:
            for pattern in ["sorted", "uniform"]:
                self.elements(f"sweep_segments_i64_min_{updates}_to_{targets}_{pattern}",
                              torch.int64, "amin", targets, updates, pattern)
        for dtype, element in [(torch.float32, "f32"), (torch.float64, "f64")]:
            for targets in [1, 1000, 2049, 4096, 8192, 16384, 16385, 65536, 131072, 1 << 20,
                            1 << 22]:
                self.elements(f"sweep_elements_{element}_add_{updates}_to_{targets}", dtype, "sum",
                              targets, updates, "uniform", in_order=True)
        for dtype, element in [(torch.float32, "f32"), (torch.float64, "f64")]:
            for targets in [1000, 16384, 65536]:
                self.elements(f"sweep_zeros_{element}_add_{updates}_to_{targets}", dtype, "sum",
                              targets, updates, "uniform", in_order=True, zeros=True)
        many = 1 << 26
        for targets in MANY_UPDATE_TARGETS:
            for dtype, element in [(torch.float16, "f16"), (torch.float32, "f32"),
                                   (torch.float64, "f64")]:
                self.elements(f"sweep_many_{element}_add_{many}_to_{targets}", dtype, "sum",
                              targets, many, "uniform", in_order=element == "f64")
        for dtype, element in [(torch.float16, "f16"), (torch.float32, "f32"), (torch.float64, "f64"),
                               (torch.int16, "i16")]:
            width = torch.tensor([], dtype=dtype).element_size()
            # Rows of every length, then a few rows into a large table (mostly a copy), then
            # rows a 32nd and a 16th of the table's (either side of the sparse rows' rule).
            shapes = [(4096, row_length) for row_length in [1, 16, 512, 2048, 4096]] + [(16, 1024)]
            shapes += [(1024, 1024), (2048, 1024)]
            for update_rows, row_length in shapes:
                table_rows = min(32768, SWEEP_TABLE_BYTES // (row_length * width))
                name = f"sweep_index_add_{element}_{update_rows}x{row_length}_into_{table_rows}"
                self.rows(name, dtype, "sum", table_rows, row_length, update_rows,
                          dtype == torch.float16)
        for update_rows, row_length in FEW_TARGET_ROWS:
            for table_rows in [1, 4, 16, 64, 256]:
                for dtype, element in [(torch.float32, "f32"), (torch.float16, "f16"),
                                       (torch.float64, "f64")]:
                    name = f"sweep_few_{element}_add_{update_rows}x{row_length}_into_{table_rows}"
                    self.rows(name, dtype, "sum", table_rows, row_length, update_rows,
                              dtype == torch.float16)
        for dtype, reduce, name in [(torch.float32, "sum", "f32_add"),
                                    (torch.float16, "sum", "f16_add"),
                                    (torch.float64, "sum", "f64_add"),
                                    (torch.float32, "amax", "f32_max")]:
            self.rows(f"sweep_hub_{name}_262144x64_into_65536", dtype, reduce, 65536, 64,
                      262144, reduce == "amax", hub=True)
        for dtype, element, edges, row_length, nodes in EDGE_SHAPES:
            name = f"sweep_edges_{element}_max_{edges}x{row_length}_into_{nodes}"
            self.rows(name, dtype, "amax", nodes, row_length, edges, True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--json", help="write the rows as JSON lines here")
    parser.add_argument("--sweep", action="store_true",
                        help="the collision sweep instead of the workloads")
    parser.add_argument("--in-place", action="store_true",
                        help="each output the input itself (no copy), named <name>_inplace")
    args = parser.parse_args()
    collisions = Collisions(args.reps, args.in_place)
    if args.sweep:
        collisions.sweep()
    else:
        collisions.workloads()
    collisions.results.write(args.json)


if __name__ == "__main__":
    main()
