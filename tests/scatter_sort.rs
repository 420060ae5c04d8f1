//! In-order scatter reductions sorted by target (`shaders/sort.wgsl`, the folds of
//! `shaders/scatter_runs.wgsl`): one update to tens of thousands, tiles full, partial or
//! alone, one to three radix passes, out-of-range updates and rows, the histogram's scan in
//! the scatter or in a pass of its own; bit for bit against the reference.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{DOUBLE_SUMS, Expect, Rng, SUMS, Values, check_against_reference, write_indices};
use dml_wgsl::{
    Context, DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc, ScatterNdDesc,
    TensorDesc,
};

/// Workgroups of 32 threads: a radix digit has 5 bits, a tile few pairs.
fn thirty_two_threads(limits: &mut wgpu::Limits) {
    limits.max_compute_invocations_per_workgroup = 32;
    limits.max_compute_workgroup_size_x = 32;
}

/// A context whose workgroups have 32 threads.
fn small_workgroups() -> Context {
    common::limited_context(thirty_two_threads)
}

/// `small_workgroups`, planned as for a GPU whatever the adapter (loops unbounded).
fn small_workgroups_planned_as_on_a_gpu() -> Context {
    let options = dml_wgsl::ContextOptions::default().with_bounded_loops(false);
    let context = common::limited_contexts_with(1, options, thirty_two_threads).remove(0);
    assert!(!context.bounds_loops());
    context
}

fn check(context: &Context, (desc, inputs): &(OperatorDesc, Vec<Vec<u8>>)) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    common::check_on(context, desc, &slices, Expect::Exact).expect("compile and record");
}

#[test]
fn in_order_sorts_of_one_to_hundreds_of_updates_over_one_to_three_radix_passes() {
    // At 32 threads: 1 to 513 updates (a last tile full, partial or alone), into 3 targets
    // (one radix pass), 700 (two: sorted pairs back in the first array) and 5000 (three: in
    // the second), one update in twenty out of range.
    let context = small_workgroups();
    let mut rng = Rng::new(80);
    for count in [1, 2, 31, 32, 33, 300, 511, 512, 513] {
        for targets in [3, 700, 5000] {
            for (data_type, reduction) in [
                (DataType::Float32, Reduction::Add),
                (DataType::Float64, Reduction::Add),
                (DataType::Float16, Reduction::Mul),
                (DataType::Float64, Reduction::Max),
            ] {
                let case = sort_heavy_reduction(&mut rng, data_type, reduction, targets, count, 5);
                check(&context, &case);
            }
        }
    }
}

#[test]
fn in_order_sorts_of_thousands_of_updates_at_the_default_workgroup_size() {
    // The test adapter's own workgroup (256 threads on lavapipe and most GPUs): 4096 updates
    // fill 16 tiles, one more starts a seventeenth; two radix passes over 32768 targets.
    let mut rng = Rng::new(81);
    for count in [4095, 4096, 4097] {
        for (data_type, reduction) in [
            (DataType::Float64, Reduction::Add),
            (DataType::Float32, Reduction::Mul),
        ] {
            let (desc, inputs) =
                sort_heavy_reduction(&mut rng, data_type, reduction, 32_768, count, 0);
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn in_order_rows_sort_by_block_with_rows_out_of_range() {
    // ScatterND rows in order (slices sorted by block): up to 513 rows at 32 threads, some
    // aimed past the table (they join the last block's run, marked, and are skipped); a
    // table of one row has one key (no bit to sort on: one radix pass all the same).
    let context = small_workgroups();
    let mut rng = Rng::new(82);
    for rows in [1, 33, 512, 513] {
        for (table_rows, width) in [(1, 6), (5, 3), (1000, 8), (40, 64)] {
            for (data_type, reduction) in [
                (DataType::Float32, Reduction::Add),
                (DataType::Float64, Reduction::Min),
                (DataType::Float16, Reduction::Add),
            ] {
                let (desc, mut inputs) =
                    in_order_rows(&mut rng, data_type, reduction, rows, table_rows, width);
                let indices = desc.inputs()[1].1.clone();
                write_indices(&indices, &mut inputs[1], |_| {
                    if rng.chance(5) {
                        table_rows as i128 + rng.range(0, 3) as i128
                    } else {
                        rng.range(0, table_rows as u64 - 1) as i128
                    }
                });
                check(&context, &(desc, inputs));
            }
        }
    }
}

#[test]
fn long_in_order_runs_of_rows_fold_from_the_later_passes_over_several_of_them() {
    // Add and Mul of rows in order whose runs average 512 rows and more, onto few rows: the
    // first pass folds each run's first row, the later passes (fold_slice_runs) the rest, four
    // rows a batch. At 32 threads a later pass folds 16,384 rows of a run (4 rows of turns of
    // 4096), so the first row's run of about 36,000 takes three of them; at the default size,
    // one. Some rows are out of range (skipped, marked in the last row's run), and the runs
    // end inside a batch. Out of place and in place.
    let small = small_workgroups();
    let mut rng = Rng::new(84);
    for context in [&small, common::context()] {
        for (data_type, reduction, width) in [
            (DataType::Float16, Reduction::Add, 8),
            (DataType::Float32, Reduction::Mul, 3),
            (DataType::Float64, Reduction::Add, 5),
        ] {
            let (rows, table_rows) = (40_001u32, 3u32);
            let (desc, mut inputs) =
                in_order_rows(&mut rng, data_type, reduction, rows, table_rows, width);
            let indices = desc.inputs()[1].1.clone();
            write_indices(&indices, &mut inputs[1], |_| match rng.range(0, 99) {
                0 => table_rows as i128,
                1..=10 => rng.range(1, table_rows as u64 - 1) as i128,
                _ => 0,
            });
            common::check_out_of_range_on(context, &desc, &inputs);
            common::check_in_place_with(context, &desc, &inputs, Expect::Exact);
        }
    }
}

#[test]
fn long_in_order_runs_fold_several_spans_a_pass_planned_as_on_a_gpu() {
    // At 32 threads a span of fold_long_runs is 32,768 updates (2-, 4- and 8-byte units
    // alike), and planned as on a GPU a pass of a kernel that folds by the hardware's chain
    // folds up to LONG_ROUNDS (16) spans, one after another: Float32 Add of 17 spans and a few
    // onto one target takes two passes (16 spans, then the rest); Float32 Mul (products near
    // 1) and Float64 Add (the chain where the context has f64; else, on GL, the exact steps
    // and one span a pass) two spans and a few onto each of two targets, one pass. Float16
    // Add (no chain) keeps one span a pass. Mesa's CPU drivers count a loop's iterations per
    // vector across a dispatch, every loop of it (65,535 at most; a vector of 16 holds 8 of a
    // span's folders): the 17 spans' pass, by the chain's 16 steps an iteration, takes about
    // 50,000 of them, so only the chain folds more than a span a pass here.
    let context = small_workgroups_planned_as_on_a_gpu();
    let mut rng = Rng::new(97);
    let span = 32_768;
    let near_one = [0x3f80_0001u64, 0x3f7f_ffff, 0x3f80_0002, 0x3f7f_fffe];
    let halves = [0x3c00u64, 0xbc00, 0x3800, 0x3e00, 0xb800];
    for (data_type, reduction, pool, targets, count) in [
        (
            DataType::Float32,
            Reduction::Add,
            &SUMS[..],
            1,
            17 * span + 1000,
        ),
        (
            DataType::Float32,
            Reduction::Mul,
            &near_one[..],
            2,
            4 * span + 700,
        ),
        (
            DataType::Float64,
            Reduction::Add,
            &DOUBLE_SUMS[..],
            2,
            4 * span + 700,
        ),
        (
            DataType::Float16,
            Reduction::Add,
            &halves[..],
            2,
            2 * span + 700,
        ),
    ] {
        let desc: OperatorDesc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[targets]),
            TensorDesc::new(DataType::Int32, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[targets]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder)
        .into();
        // Two targets take alternate updates: a span and a few each.
        let indices = (0..count)
            .flat_map(|k| (k % targets).to_le_bytes())
            .collect();
        let inputs = vec![
            common::pooled_bytes(&mut rng, data_type, pool, targets),
            indices,
            common::pooled_bytes(&mut rng, data_type, pool, count),
        ];
        check(&context, &(desc, inputs));
    }
}

#[test]
fn in_order_sorts_fold_in_place_and_over_column_blocks() {
    let mut rng = Rng::new(83);
    // In place the plain fold_runs runs (out of place, 4- and 8-byte units copy as they fold).
    for (data_type, reduction) in [
        (DataType::Float64, Reduction::Add),
        (DataType::Float32, Reduction::Mul),
    ] {
        let (desc, inputs) = sort_heavy_reduction(&mut rng, data_type, reduction, 700, 3000, 0);
        common::check_in_place(&desc, &inputs);
    }
    // Along the outer axis with rows of 256: the index map visits column blocks of 128
    // (`IndexParams::tile`), and each update's pair is still its own position's.
    for (data_type, reduction) in [
        (DataType::Float32, Reduction::Add),
        (DataType::Float64, Reduction::Min),
    ] {
        let desc: OperatorDesc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[16, 256]),
            TensorDesc::new(DataType::Int64, &[40, 256]),
            TensorDesc::new(data_type, &[40, 256]),
            TensorDesc::new(data_type, &[16, 256]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder)
        .into();
        let mut inputs = common::random_inputs(&mut rng, &desc);
        common::fill_scatter_floats(&mut rng, &desc, &mut inputs, Values::Numbers, reduction);
        let indices = desc.inputs()[1].1.clone();
        write_indices(&indices, &mut inputs[1], |_| rng.range(0, 15) as i128);
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn in_order_reductions_sort_tens_of_thousands_of_updates_over_many_targets() {
    // More targets than two radix digits cover (three passes, the sorted pairs ending in the
    // other array), and more updates than one block of the histogram's scan holds (carries
    // across blocks): updates spread over every target, a few hot targets with long runs.
    let mut rng = Rng::new(78);
    for (data_type, reduction) in [
        (DataType::Float32, Reduction::Add),
        (DataType::Float16, Reduction::Mul),
        (DataType::BFloat16, Reduction::Add),
        (DataType::Float64, Reduction::Add),
    ] {
        let targets = 70_001;
        let desc = sort_heavy_reduction(&mut rng, data_type, reduction, targets, 40_000, 0);
        check_against_reference(&desc.0, &desc.1);
    }
}

#[test]
fn in_order_sorts_scan_the_histogram_blocks_totals_in_the_scatter_or_in_a_pass_of_their_own() {
    // With 32 threads a workgroup, a radix pass's histogram has 32 entries a tile and its scan
    // 256 a block: 8,000 updates make 32 blocks, whose totals radix_scatter's workgroups scan
    // themselves, and 40,000 make 157, scanned by radix_scan_sums first. (At 256 threads the
    // pass of its own takes over 8 million updates.) Float32 Add and Float64 Min and Max
    // sort (float Min and Max of 2 and 4 bytes take the tie passes instead).
    let small_workgroups = small_workgroups();
    let mut rng = Rng::new(79);
    for (data_type, reduction, count) in [
        (DataType::Float32, Reduction::Add, 8_000),
        (DataType::Float64, Reduction::Max, 8_192),
        (DataType::Float32, Reduction::Add, 40_000),
        (DataType::Float64, Reduction::Min, 40_000),
    ] {
        let case = sort_heavy_reduction(&mut rng, data_type, reduction, 5_000, count, 0);
        check(&small_workgroups, &case);
    }
}

/// An in-order ScatterND `reduction` of `rows` rows of `width` units into a table of
/// `table_rows` (Int32 indices, left for the caller to write), with random inputs: floats
/// as numbers that round.
fn in_order_rows(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    rows: u32,
    table_rows: u32,
    width: u32,
) -> (OperatorDesc, Vec<Vec<u8>>) {
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(data_type, &[table_rows, width]),
            TensorDesc::new(DataType::Int32, &[rows, 1]),
            TensorDesc::new(data_type, &[rows, width]),
            TensorDesc::new(data_type, &[table_rows, width]),
            2,
            2,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder),
    );
    let mut inputs = common::random_inputs(rng, &desc);
    common::fill_scatter_floats(rng, &desc, &mut inputs, Values::Numbers, reduction);
    (desc, inputs)
}

/// An in-order ScatterElements of `count` random updates over `targets`, a tenth of them on
/// a few hot targets (long runs) and `out_of_range` percent past the last target, with its
/// random inputs.
fn sort_heavy_reduction(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    targets: u32,
    count: u32,
    out_of_range: u64,
) -> (OperatorDesc, Vec<Vec<u8>>) {
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(data_type, &[targets]),
        TensorDesc::new(DataType::Int64, &[count]),
        TensorDesc::new(data_type, &[count]),
        TensorDesc::new(data_type, &[targets]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(DuplicateMode::InOrder)
    .into();
    let mut inputs = common::random_inputs(rng, &desc);
    let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
    common::fill_scatter_floats(rng, &desc, &mut inputs, Values::Numbers, reduction);
    let hot = [0, 65_535, 65_536, targets - 1].map(|t| t.min(targets - 1));
    write_indices(&tensors[1], &mut inputs[1], |_| {
        if rng.chance(out_of_range) {
            targets as i128 + rng.range(0, 2) as i128
        } else if rng.chance(10) {
            rng.pick(&hot) as i128
        } else {
            rng.range(0, targets as u64 - 1) as i128
        }
    });
    (desc, inputs)
}
