//! Scatter reductions by rows (ScatterND rows sharing an index, as index_add): lists of rows
//! in any order and sorted runs in order (unit by unit where the rows are few against the
//! table, or crowded onto a few rows), every type and reduction, out of place (where the first fold copies the input as
//! it folds) and in place, tables with more and fewer rows than the updates, out-of-range
//! rows, and in-order ties of zeros and NaNs; bit for bit against the reference.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Expect, REDUCTIONS, Rng, Values, check_against_reference, check_in_place, check_out_of_range,
    context, pooled_bytes, random_index, tie_pools, write_indices,
};
use dml_wgsl::{
    Context, ContextOptions, DataType, DuplicateMode, INDEX_TYPES, OperatorDesc, Reduction,
    ScatterNdDesc, TensorDesc,
};

#[test]
fn wide_rows_with_repeated_indices_reduce_in_both_modes() {
    // ScatterND of rows (an index_add): rows of 64 to 300 units share one index, many
    // repeated; more rows of updates than the table has, so that the folds start from the
    // table's blocks.
    rows_reduce_in_both_modes(79, 9, 40, 9, false);
}

#[test]
fn few_rows_into_a_large_table_reduce_in_both_modes() {
    // Fewer rows of updates than the table has: the folds start from the rows (the first of
    // each block's run, or its list's head) in place and in order; out of place, the lists'
    // fold copies every block. Repeated anyway: the rows pick among the table's first 5 and
    // its last.
    rows_reduce_in_both_modes(80, 48, 12, 5, false);
}

#[test]
fn sparse_rows_reduce_unit_by_unit_in_both_modes() {
    // 12 rows into 800, at most a 64th of the table: every type takes the element path (the
    // copy, then an exchange or atomic an update unit; Float32 Min and Max by the loop),
    // but the additions in order, sorted. Repeated as above.
    rows_reduce_in_both_modes(86, 800, 12, 5, false);
}

#[test]
fn a_list_longer_than_the_first_pass_goes_on_beside_a_table_copied_as_it_folds() {
    // 8400 rows on the table's first and last rows (about 4200 each), and the lists short on
    // average: out of place, the first pass copies as it folds, several cells a thread, and
    // the long lists go on in the next pass (the first walks 4096 rows of 4- and 8-byte units,
    // 1024 of narrower ones).
    rows_reduce_in_both_modes(85, 4096, 8400, 1, false);
}

#[test]
fn wide_rows_copied_sixteen_bytes_a_thread_as_they_fold_walk_long_runs_and_lists_in_parts() {
    // Rows of 512 and 1024 units, at most 4 rows of updates a table row: out of place, the
    // first fold copies every table row as it folds its sorted run (in order: Float Add and
    // Mul) or its list (the default mode, and integers), a thread's 16 bytes a part at a time,
    // each part walking the run or list. Fewer rows of updates than the table's, then more,
    // then a run or list of about 4230 rows beside short ones: past the first pass, whose
    // walks share FOLD_STEPS between the parts where the device bounds loops (four walks of
    // 4096 rows of Float16 products lost updates on lavapipe). In place too, in order.
    let types = [
        DataType::Float16,
        DataType::BFloat16,
        DataType::Float32,
        DataType::Float64,
        DataType::Int8,
    ];
    let shapes = [(64, 1024, 40, 9), (16, 1024, 60, 9), (1200, 512, 4700, 1)];
    wide_rows_fold_on(context(), 88, &types, &shapes);
}

#[test]
fn wide_rows_planned_as_on_a_gpu_walk_each_part_past_a_bounded_share_in_the_first_pass() {
    // Planned as for a GPU whatever the adapter (`with_bounded_loops(false)`): the wide
    // copies' first pass walks up to 4096 rows a part (the lists' by its own entry point), so
    // a run or list of about 1260 rows, past the 1024 a part of a device that bounds loops
    // (1- and 2-byte units), is folded whole there, no later pass dispatched; four walks of
    // that length stay within Mesa's loop budget, so lavapipe and llvmpipe check it too.
    let gpu_planned = common::context_with(ContextOptions::default().with_bounded_loops(false));
    assert!(!gpu_planned.bounds_loops());
    let types = [DataType::Float16, DataType::BFloat16, DataType::Int8];
    wide_rows_fold_on(&gpu_planned, 89, &types, &[(400, 1024, 1400, 1)]);
}

#[test]
fn crowded_rows_in_any_order_reduce_unit_by_unit_or_sorted() {
    // More than 512 rows a table row on average: in any order by the element path (bins onto
    // 4 rows of 64, 8-byte slots for Float64; Float32 Add onto 64 rows, past the bins, by the
    // f32 atomics where the device has them), or onto 64 rows, past the bins, sorted and
    // combined across workgroups (Float32 Mul, and Add without f32 atomics), not the lists;
    // in order (and in place) the floats sorted, Int8 (order-free) by the element path too.
    let types = [DataType::Float16, DataType::Float64, DataType::Int8];
    wide_rows_fold_on(context(), 91, &types, &[(4, 64, 2100, 4)]);
    wide_rows_fold_on(context(), 92, &[DataType::Float32], &[(64, 64, 33_000, 64)]);
}

#[test]
fn a_list_past_a_round_of_turns_is_walked_in_one_later_pass_planned_as_on_a_gpu() {
    // 140,000 rows of 64 Float32, nearly all onto the table's first row (about 137,000 there,
    // the rest about 1 a row of its 4096): in order, Max takes the lists with ties (their
    // lists are not bounded as in any order), and the first row's list outlives the first pass
    // (4096 rows) and a round of the later pass's turns (32 rows of threads, 4096 rows each,
    // with 256 threads a workgroup). Planned as on a GPU the later pass walks up to eight
    // rounds, so one pass folds it; planned as on a device that bounds loops, passes of one
    // round each. Out of place (the first pass copying as it folds) and in place, both plans.
    // Mesa counts a loop's iterations per vector of up to 16 invocations (two rows of turns):
    // this list's walk, a round and a few turns of the next, keeps each vector within its
    // 65,535, and Max has no inner loop of software arithmetic, so lavapipe and llvmpipe check
    // the GPU's plan.
    let gpu_planned = common::context_with(ContextOptions::default().with_bounded_loops(false));
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[4096, 64]),
            TensorDesc::new(DataType::Int32, &[140_000, 1]),
            TensorDesc::new(DataType::Float32, &[140_000, 64]),
            TensorDesc::new(DataType::Float32, &[4096, 64]),
            2,
            2,
        )
        .with_reduction(Reduction::Max)
        .with_duplicates(DuplicateMode::InOrder),
    );
    let mut rng = Rng::new(90);
    let mut inputs = common::random_inputs(&mut rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
        if rng.chance(2) {
            rng.range(1, 4095) as i128
        } else {
            0
        }
    });
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    for context in [&gpu_planned, context()] {
        common::check_on(context, &desc, &slices, Expect::Exact).expect("compile and record");
        common::check_in_place_with(context, &desc, &inputs, Expect::Exact);
    }
}

#[test]
fn a_hub_row_past_the_list_bound_is_set_aside_and_combined_after_the_lists() {
    // About half of 2100 rows onto one row of a table of 256 (the rest about 4 a row): in any
    // order the hub's list holds 64 rows (four times the mean, 9, as a power of two) and its
    // other rows are set aside, then combined into the output after the lists' fold, runs of
    // 1024 a workgroup, a thread holding its column while consecutive rows share a block.
    rows_in_any_order(context(), 93, &NARROW_TYPES, 256, 2100, hub_rows);
}

/// Half the rows onto the case's hub row of a table of 256, the rest anywhere.
fn hub_rows(rng: &mut Rng, hub: i128) -> i128 {
    if rng.chance(50) {
        hub
    } else {
        rng.range(0, 255) as i128
    }
}

#[test]
fn a_hub_of_8_byte_rows_is_set_aside_and_combined_by_64_bit_atomics_or_walked_without_them() {
    // The hub test's rows of Float64, Int64 and UInt64: where the device has every 64-bit
    // atomic, the rows past the hub's bound are combined by them (reduce_spilled_rows in
    // ReduceOrder::RowsWide's module: integer Add, Min and Max by WGSL's own atomics, the
    // others by compare-exchange on the 64-bit word); without them, the hub's whole list is
    // walked, as before.
    for (seed, atomics) in [(96, true), (97, false)] {
        let context = common::context_with(ContextOptions::default().with_int64_atomics(atomics));
        rows_in_any_order(&context, seed, &WIDE_TYPES, 256, 2100, hub_rows);
    }
}

#[test]
fn rows_crowded_onto_few_blocks_in_any_order_are_sorted_and_combined_across_workgroups() {
    // 4290 rows onto a table of 33 (130 a row on average, past SORTED_ROWS_MEAN; 2112 units
    // and more, past the bins): in any order the rows are sorted by table row and combined by
    // reduce_sorted_rows, runs of 32 sorted rows a workgroup (135 runs, a table row's rows
    // split between several), a thread holding its column while consecutive rows share a
    // table row; a row out of range is keyed to the last table row, marked, and skipped.
    rows_in_any_order(context(), 94, &NARROW_TYPES, 33, 4290, |rng, _| {
        rng.range(0, 32) as i128
    });
}

#[test]
fn crowded_8_byte_rows_are_sorted_and_combined_by_64_bit_atomics_or_walked_without_them() {
    // The crowded test's rows of Float64, Int64 and UInt64: sorted and combined by
    // reduce_sorted_rows in ReduceOrder::RowsWide's module where the device has every 64-bit
    // atomic; without them, walked along the lists.
    for (seed, atomics) in [(98, true), (99, false)] {
        let context = common::context_with(ContextOptions::default().with_int64_atomics(atomics));
        rows_in_any_order(&context, seed, &WIDE_TYPES, 33, 4290, |rng, _| {
            rng.range(0, 32) as i128
        });
    }
}

#[test]
fn rows_crowded_onto_hundreds_of_blocks_in_any_order_sort_in_two_passes_then_combine() {
    // 39,000 rows of 64 onto a table of 300 (130 a row): past 256 table rows the sort takes
    // two passes of a digit, so the combining pass reads the sorted rows from the other
    // array than after one; Float16 Add and Int32 Max, out of place and in place.
    let mut rng = Rng::new(95);
    for (data_type, reduction) in [
        (DataType::Float16, Reduction::Add),
        (DataType::Int32, Reduction::Max),
    ] {
        let desc = OperatorDesc::ScatterNd(
            ScatterNdDesc::new(
                TensorDesc::new(data_type, &[300, 64]),
                TensorDesc::new(DataType::Int32, &[39_000, 1]),
                TensorDesc::new(data_type, &[39_000, 64]),
                TensorDesc::new(data_type, &[300, 64]),
                2,
                2,
            )
            .with_reduction(reduction)
            .with_duplicates(DuplicateMode::AnyUpdate),
        );
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
            rng.range(0, 299) as i128
        });
        if data_type.is_float() {
            common::fill_scatter_floats(&mut rng, &desc, &mut inputs, Values::OrderFree, reduction);
        }
        let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
        common::check_on(context(), &desc, &slices, Expect::ByMode).expect("compile and record");
        common::check_in_place_with(context(), &desc, &inputs, Expect::ByMode);
    }
}

const NARROW_TYPES: [DataType; 5] = [
    DataType::Float16,
    DataType::Float32,
    DataType::Int8,
    DataType::UInt16,
    DataType::Int32,
];
const WIDE_TYPES: [DataType; 3] = [DataType::Float64, DataType::Int64, DataType::UInt64];

/// ScatterND of `rows` rows into a table of `table` rows in the default mode (any order) on
/// `context`, the table row of each picked by `pick` (given a hub row drawn for the case):
/// each of `types`, every reduction (Float32 Add where the device has f32 atomics goes by
/// them); rows of 64 units (four lanes of rows a workgroup of the combining passes, combined
/// at the end), 100 (two, and idle threads) and 300 (two tiles of columns); Int32 and Int64
/// indices; out of place and in place; one case a type with a row out of range (skipped and
/// reported).
fn rows_in_any_order(
    context: &Context,
    seed: u64,
    types: &[DataType],
    table: u32,
    rows: u32,
    mut pick: impl FnMut(&mut Rng, i128) -> i128,
) {
    let mut rng = Rng::new(seed);
    for (k, &data_type) in types.iter().enumerate() {
        for (r, reduction) in REDUCTIONS.into_iter().enumerate() {
            let width = [64u32, 100, 300][(k + r) % 3];
            let index_type = [DataType::Int64, DataType::Int32][r % 2];
            let desc = OperatorDesc::ScatterNd(
                ScatterNdDesc::new(
                    TensorDesc::new(data_type, &[table, width]),
                    TensorDesc::new(index_type, &[rows, 1]),
                    TensorDesc::new(data_type, &[rows, width]),
                    TensorDesc::new(data_type, &[table, width]),
                    2,
                    2,
                )
                .with_reduction(reduction)
                .with_duplicates(DuplicateMode::AnyUpdate),
            );
            let mut inputs = common::random_inputs(&mut rng, &desc);
            let hub = rng.range(0, table as u64 - 1) as i128;
            let bad_index = r == 0;
            let bad_row = rng.range(0, rows as u64 - 1) as u32;
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
                if bad_index && c[0] == bad_row {
                    table as i128
                } else {
                    pick(&mut rng, hub)
                }
            });
            if data_type.is_float() {
                common::fill_scatter_floats(
                    &mut rng,
                    &desc,
                    &mut inputs,
                    Values::OrderFree,
                    reduction,
                );
            }
            if bad_index {
                common::check_out_of_range_on(context, &desc, &inputs);
                continue;
            }
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            common::check_on(context, &desc, &slices, Expect::ByMode).expect("compile and record");
            common::check_in_place_with(context, &desc, &inputs, Expect::ByMode);
        }
    }
}

/// ScatterND Add and Mul of `picked` rows of `width` units into `table_rows`, in order (also
/// in place) and in the default mode (where `picked` is 1000 or more), on `context`: the
/// rows pick among the table's first `pick_from` rows, and a tenth of them its last; Mul's
/// cases have one row's index out of range (skipped, and reported as the reference does, in
/// place too), Add's none.
fn wide_rows_fold_on(
    context: &Context,
    seed: u64,
    types: &[DataType],
    shapes: &[(u32, u32, u32, u32)],
) {
    let mut rng = Rng::new(seed);
    for &data_type in types {
        for reduction in [Reduction::Add, Reduction::Mul] {
            for duplicates in [DuplicateMode::InOrder, DuplicateMode::AnyUpdate] {
                for &(table_rows, width, picked, pick_from) in shapes {
                    let in_order = duplicates == DuplicateMode::InOrder;
                    if !in_order && picked < 1000 {
                        continue;
                    }
                    let desc = OperatorDesc::ScatterNd(
                        ScatterNdDesc::new(
                            TensorDesc::new(data_type, &[table_rows, width]),
                            TensorDesc::new(DataType::Int32, &[picked, 1]),
                            TensorDesc::new(data_type, &[picked, width]),
                            TensorDesc::new(data_type, &[table_rows, width]),
                            2,
                            2,
                        )
                        .with_reduction(reduction)
                        .with_duplicates(duplicates),
                    );
                    let mut inputs = common::random_inputs(&mut rng, &desc);
                    let last = table_rows as i128 - 1;
                    let bad_row = (reduction == Reduction::Mul)
                        .then(|| rng.range(0, picked as u64 - 1) as u32);
                    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
                        if Some(c[0]) == bad_row {
                            table_rows as i128 + 7
                        } else if rng.chance(10) {
                            last
                        } else {
                            rng.range(0, pick_from as u64 - 1) as i128
                        }
                    });
                    if data_type.is_float() {
                        let values = if in_order {
                            Values::Numbers
                        } else {
                            Values::OrderFree
                        };
                        common::fill_scatter_floats(
                            &mut rng,
                            &desc,
                            &mut inputs,
                            values,
                            reduction,
                        );
                    }
                    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                    let expect = if in_order {
                        Expect::Exact
                    } else {
                        Expect::ByMode
                    };
                    common::check_on(context, &desc, &slices, expect).expect("compile and record");
                    if in_order {
                        common::check_in_place_with(context, &desc, &inputs, Expect::Exact);
                    }
                }
            }
        }
    }
}

#[test]
fn out_of_range_rows_are_skipped_and_reported_whichever_the_folds_start_from() {
    rows_reduce_in_both_modes(81, 9, 40, 9, true);
    rows_reduce_in_both_modes(82, 48, 12, 5, true);
    rows_reduce_in_both_modes(87, 800, 12, 5, true);
}

/// ScatterND of `picked` rows into a table of `rows` rows, each reduction, every type, both
/// modes; the rows pick among the table's first `pick_from` rows and its last (so duplicates
/// are many). Rows of 64 to 300 units; packed and strided outputs. Narrow rows of whole words
/// fold a thread a word; rows of 66 bytes or halves a thread a unit. Packed outputs run in
/// place too (where the lists' fold cannot copy as it folds). `bad_index`: one index out of
/// range, which is skipped and reported (then the values are order-free, so that every mode
/// is checked bit for bit).
fn rows_reduce_in_both_modes(seed: u64, rows: u32, picked: u32, pick_from: u32, bad_index: bool) {
    let mut rng = Rng::new(seed);
    for (k, data_type) in DataType::ALL.into_iter().enumerate() {
        let reduction = REDUCTIONS[k % 4];
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let width = [64u32, 96, 300, 66, 65][k % 5];
            let output = if k % 2 == 0 {
                TensorDesc::new(data_type, &[rows, width])
            } else {
                common::random_layout(&mut rng, data_type, &[rows, width], false)
            };
            let desc = OperatorDesc::ScatterNd(
                ScatterNdDesc::new(
                    TensorDesc::new(data_type, &[rows, width]),
                    TensorDesc::new(INDEX_TYPES[k % 4], &[picked, 1]),
                    TensorDesc::new(data_type, &[picked, width]),
                    output,
                    2,
                    2,
                )
                .with_reduction(reduction)
                .with_duplicates(duplicates),
            );
            let mut inputs = common::random_inputs(&mut rng, &desc);
            let indices = desc.inputs()[1].1.clone();
            let index_type = indices.data_type;
            let bad_row = rng.range(0, picked as u64 - 1) as u32;
            write_indices(&indices, &mut inputs[1], |c| {
                if bad_index && c[0] == bad_row {
                    rows as i128 + 3
                } else if rng.chance(10) {
                    // The last row, from the end half the time where the type is signed.
                    if index_type.is_signed() && rng.chance(50) {
                        -1
                    } else {
                        rows as i128 - 1
                    }
                } else {
                    random_index(&mut rng, pick_from, index_type)
                }
            });
            if data_type.is_float() {
                let values = if bad_index || common::order_matters(reduction, duplicates) {
                    Values::OrderFree
                } else {
                    Values::Numbers
                };
                common::fill_scatter_floats(&mut rng, &desc, &mut inputs, values, reduction);
            }
            if bad_index {
                check_out_of_range(&desc, &inputs);
                if k % 2 == 0 {
                    check_in_place(&desc, &inputs);
                }
                continue;
            }
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            common::check_on(context(), &desc, &slices, Expect::ByMode)
                .expect("compile and record");
            // In place, held to the reference bit for bit: where the mode lets the order
            // vary, only values that every order folds to the same bits (not float Min and
            // Max, whose tied zeros and NaNs may then keep either).
            let exact = duplicates == DuplicateMode::InOrder
                || !data_type.is_float()
                || common::order_matters(reduction, duplicates);
            if k % 2 == 0 && exact {
                check_in_place(&desc, &inputs);
            }
        }
    }
}

#[test]
fn in_order_float_min_and_max_of_rows_keep_the_first_of_tied_zeros_and_nans() {
    // Wide rows fold along lists in any order, their zeros and NaNs claiming their units by
    // position: more rows than the table (out of place, the first pass copies as it folds),
    // lists that end in the first pass (which settles their ties) and one of about 4200 rows,
    // past it (its claims in tie words; the input's claim outranks the later passes' of its
    // class), a table of four times the updates' units (the most tie words an update); sorted
    // runs past that (its tie words would outweigh them) or where the lists are long on
    // average; rows of whole words (a thread a cell) and of odd halves (a thread a unit); out
    // of place and in place. 150 rows onto one row of a table of 200 (fewer rows than the
    // table's: the first pass starts from the rows) pass the lists' bound of 32: the rest set
    // aside, the row's claims settled after them.
    let mut rng = Rng::new(84);
    for data_type in [DataType::Float16, DataType::BFloat16, DataType::Float32] {
        for reduction in [Reduction::Min, Reduction::Max] {
            let shapes = [
                (6, 64, 40, 3),
                (48, 66, 12, 4),
                (49, 66, 12, 4),
                (70, 64, 4200, 1),
                (70, 65, 4200, 1),
                (3, 65, 1100, 1),
                (200, 64, 150, 1),
            ];
            for shape in shapes {
                for pool in tie_pools(data_type) {
                    let (desc, inputs) = pooled_rows(&mut rng, data_type, reduction, shape, &pool);
                    check_against_reference(&desc, &inputs);
                    check_in_place(&desc, &inputs);
                }
            }
        }
    }
}

#[test]
fn in_order_float_min_and_max_of_a_hub_claim_ties_in_the_rows_set_aside() {
    // 2100 rows in order onto a table of 256, about half onto one hub row (the rest about 4
    // a row): the hub's list holds 64 rows (four times the mean, 9, as a power of two) and the
    // rest are set aside; the hub's first-pass claims go to its tie words, the rows set aside
    // combine their values and claim their zeros and NaNs by position (atomicMax), and
    // write_list_ties settles the hub's units after them. Rows of whole words and of odd
    // halves (65 units: two lanes of rows a workgroup of the combining pass); out of place and
    // in place.
    let mut rng = Rng::new(100);
    for data_type in [DataType::Float16, DataType::BFloat16, DataType::Float32] {
        for reduction in [Reduction::Min, Reduction::Max] {
            for width in [64, 65, 130] {
                for pool in tie_pools(data_type) {
                    let hub = rng.range(0, 255) as i64;
                    let (desc, inputs) = pooled_rows_picked(
                        &mut rng,
                        data_type,
                        reduction,
                        (256, width, 2100),
                        &pool,
                        |rng| {
                            if rng.chance(50) {
                                hub
                            } else {
                                rng.range(0, 255) as i64
                            }
                        },
                    );
                    check_against_reference(&desc, &inputs);
                    check_in_place(&desc, &inputs);
                }
            }
        }
    }
}

/// ScatterND in order of `picked` rows of `width` into a table of `table_rows`, the rows
/// picking among the table's first `pick_from` rows, every element drawn from `pool`.
fn pooled_rows(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    (table_rows, width, picked, pick_from): (u32, u32, u32, u32),
    pool: &[u64],
) -> (OperatorDesc, Vec<Vec<u8>>) {
    pooled_rows_picked(
        rng,
        data_type,
        reduction,
        (table_rows, width, picked),
        pool,
        |rng| rng.range(0, pick_from as u64 - 1) as i64,
    )
}

/// [`pooled_rows`] with each row's table row drawn by `pick`.
fn pooled_rows_picked(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    (table_rows, width, picked): (u32, u32, u32),
    pool: &[u64],
    mut pick: impl FnMut(&mut Rng) -> i64,
) -> (OperatorDesc, Vec<Vec<u8>>) {
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(data_type, &[table_rows, width]),
            TensorDesc::new(DataType::Int64, &[picked, 1]),
            TensorDesc::new(data_type, &[picked, width]),
            TensorDesc::new(data_type, &[table_rows, width]),
            2,
            2,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder),
    );
    let table = pooled_bytes(rng, data_type, pool, table_rows * width);
    let updates = pooled_bytes(rng, data_type, pool, picked * width);
    let indices = (0..picked).flat_map(|_| pick(rng).to_le_bytes()).collect();
    (desc, vec![table, indices, updates])
}
