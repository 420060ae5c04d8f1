//! Plan tests of the in-order sorted runs, the sorted rows in any order and the lists
//! (`src/ops/scatter_plans.rs`, `scatter_lists.rs`): their passes and what each is told to do.

use super::super::scatter_lists::{SPILLS_ROWS, list_bound};
use super::{DESCRIBES_STATUS, FOLD_RUNS_LATER, SPILL_ROUNDS, describes_status};
use crate::kernels::Entry;
use crate::kernels::params::{IndexParams, Parameters};
use crate::kernels::{LIST_BOUND, LIST_ROUNDS, LONG_ROUNDS};
use crate::lowering::{Grid, Placement, Step};
use crate::ops::index_map::tests::{DEVICE, GPU};
use crate::ops::{DuplicateMode, Operator, Reduction, ScatterElementsDesc, ScatterNdDesc};
use crate::tensor::{DataType, TensorDesc};

fn index_params(step: &Step) -> &IndexParams {
    match &step.params {
        Parameters::Index(params) => params,
        Parameters::StridedCopy(_) => panic!("a copy's parameters"),
    }
}

/// Float32 `reduction` of `edges` rows of 64 into a table of `nodes` rows (ScatterND).
fn edge_messages(
    edges: u32,
    nodes: u32,
    reduction: Reduction,
    mode: DuplicateMode,
) -> ScatterNdDesc {
    rows_of(DataType::Float32, 64, edges, nodes, reduction, mode)
}

/// `reduction` of `edges` rows of `width` units into a table of `nodes` rows (ScatterND).
fn rows_of(
    data_type: DataType,
    width: u32,
    edges: u32,
    nodes: u32,
    reduction: Reduction,
    mode: DuplicateMode,
) -> ScatterNdDesc {
    ScatterNdDesc::new(
        TensorDesc::new(data_type, &[nodes, width]),
        TensorDesc::new(DataType::Int64, &[edges, 1]),
        TensorDesc::new(data_type, &[edges, width]),
        TensorDesc::new(data_type, &[nodes, width]),
        2,
        2,
    )
    .with_reduction(reduction)
    .with_duplicates(mode)
}

/// Float32 `reduction` of a 64 x 64 tensor of updates along its outer axis (ScatterElements).
fn elements(reduction: Reduction, mode: DuplicateMode) -> ScatterElementsDesc {
    let floats = TensorDesc::new(DataType::Float32, &[64, 64]);
    ScatterElementsDesc::new(
        floats.clone(),
        TensorDesc::new(DataType::Int32, &[64, 64]),
        floats.clone(),
        floats,
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(mode)
}

#[test]
fn later_list_passes_walk_several_rounds_of_turns_where_loops_are_unbounded() {
    // A million rows into 65,536 (a list could hold them all): past the first pass's 4096 rows,
    // a later pass walks 32 turns (256 threads, 8 a row) of 4096 rows a round: eight passes of
    // one round where the device bounds loops, one of eight rounds on a GPU. 8-byte units in
    // any order without 64-bit atomics (the lists, all of a block's rows; the ties' lists are
    // bounded, their rows past the bound set aside).
    for (data_type, reduction, mode) in
        [(DataType::Float64, Reduction::Add, DuplicateMode::AnyUpdate)]
    {
        let desc = rows_of(data_type, 64, 1 << 20, 65536, reduction, mode);
        for (device, passes, rounds) in [(&DEVICE, 8, 1), (&GPU, 1, LIST_ROUNDS)] {
            let lowered = desc.lower(device).expect("lowered");
            let later: Vec<&Step> = lowered
                .steps
                .iter()
                .filter(|step| step.entry == Entry::FoldSliceListRuns)
                .collect();
            let label = format!("{reduction:?}, bounded loops {}", device.bounded_loops);
            assert_eq!(later.len(), passes, "{label}");
            assert!(
                later
                    .iter()
                    .all(|step| index_params(step).in_order.fold_rounds == rounds),
                "{label}"
            );
        }
    }
}

#[test]
fn long_run_passes_fold_several_spans_where_loops_are_unbounded_and_the_chain_folds() {
    // 4 Mi + 1 Add updates in order onto 1000 targets: at 256 threads a span of
    // fold_long_runs is 262,144 updates, so a run could take 17 passes of one span where the
    // device bounds loops (pass 1 given a workgroup for each of the 15 runs that could be
    // longer than a span, pass 16 one), and on a GPU 2 passes of up to LONG_ROUNDS (16) spans
    // where the kernel folds by the hardware's chain (Float32; pass 1 one workgroup); Float16
    // (no chain) keeps one span a pass there too.
    let count = (1 << 22) + 1;
    for (data_type, device, passes, rounds, second_pass, last_pass) in [
        (DataType::Float32, &DEVICE, 17, 1, 15, 1),
        (DataType::Float32, &GPU, 2, LONG_ROUNDS, 1, 1),
        (DataType::Float16, &GPU, 17, 1, 15, 1),
    ] {
        let desc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[1000]),
            TensorDesc::new(DataType::Int32, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[1000]),
            0,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(DuplicateMode::InOrder);
        let lowered = desc.lower(device).expect("lowered");
        let folds: Vec<&Step> = lowered
            .steps
            .iter()
            .filter(|step| step.entry == Entry::FoldLongRuns)
            .collect();
        let label = format!("{data_type:?}, bounded loops {}", device.bounded_loops);
        assert_eq!(folds.len(), passes, "{label}");
        assert!(
            folds
                .iter()
                .all(|step| index_params(step).in_order.fold_rounds == rounds),
            "{label}"
        );
        assert_eq!(folds[1].grid, Grid::Flat(second_pass * 256), "{label}");
        assert_eq!(
            folds[passes - 1].grid,
            Grid::Flat(last_pass * 256),
            "{label}"
        );
    }
}

#[test]
fn sorted_runs_and_lists_describe_the_status_in_a_pass_after_their_reports() {
    // No describe_status dispatch: the sorted runs' find_runs or the sorted rows'
    // reduce_sorted_rows (after the sort, whose first radix_count reports) or the lists'
    // first fold (after link_slices), in place and
    // copying, describes it; on a device that bounds loops and on a GPU (the lists' copy by
    // their long entry), ties too, short lists (the wide copy) and long ones. Other plans end
    // with describe_status (here an any-order Max of elements).
    let lists = edge_messages(4096, 1024, Reduction::Add, DuplicateMode::AnyUpdate);
    let long_lists = edge_messages(65536, 2048, Reduction::Add, DuplicateMode::AnyUpdate);
    let sorted_rows = edge_messages(65536, 256, Reduction::Add, DuplicateMode::AnyUpdate);
    let ties = edge_messages(4096, 1024, Reduction::Max, DuplicateMode::InOrder);
    let sorted = edge_messages(4096, 1024, Reduction::Add, DuplicateMode::InOrder);
    let sorted_elements = elements(Reduction::Add, DuplicateMode::InOrder);
    let copies = [
        Entry::FoldSliceListCopy,
        Entry::FoldSliceListCopyWide,
        Entry::FoldSliceListCopyWideLong,
    ];
    let list_folds: &[Entry] = &[Entry::FoldSliceListColumns, Entry::FoldSliceLists];
    let cases: [(&dyn Operator, &str, &[Entry]); 6] = [
        (&lists, "lists", list_folds),
        (&long_lists, "long lists", list_folds),
        (
            &sorted_rows,
            "sorted rows in any order",
            &[Entry::ReduceSortedRows],
        ),
        (&ties, "lists with ties", list_folds),
        (&sorted, "sorted rows", &[Entry::FindRuns]),
        (&sorted_elements, "sorted elements", &[Entry::FindRuns]),
    ];
    let mut long_copies = 0;
    for ((desc, case, hosts), device) in cases.into_iter().flat_map(|c| [(c, &DEVICE), (c, &GPU)]) {
        let label = format!("{case}, bounded loops {}", device.bounded_loops);
        let lowered = desc.lower(device).expect("lowered");
        let describing: Vec<(Entry, Placement)> = lowered
            .steps
            .iter()
            .filter(|step| describes_status(step))
            .map(|step| (step.entry, step.placement))
            .collect();
        long_copies += describing
            .iter()
            .filter(|(entry, _)| *entry == Entry::FoldSliceListCopyWideLong)
            .count();
        let last_report = lowered
            .steps
            .iter()
            .rposition(|step| matches!(step.entry, Entry::LinkSlices | Entry::RadixCount))
            .expect("a reporting pass");
        let first_describing = lowered
            .steps
            .iter()
            .position(describes_status)
            .expect("a describing pass");
        assert!(first_describing > last_report, "{label}: {describing:?}");
        assert!(
            !lowered
                .steps
                .iter()
                .any(|step| step.entry == Entry::DescribeStatus),
            "{label}"
        );
        // One pass whatever the placement: an in-place one, a copying one, or one always.
        let placements: Vec<Placement> = describing.iter().map(|&(_, p)| p).collect();
        assert!(
            placements == [Placement::Always]
                || placements == [Placement::InPlace, Placement::OutOfPlace],
            "{label}: {describing:?}"
        );
        assert!(
            describing
                .iter()
                .all(|(entry, _)| hosts.contains(entry) || copies.contains(entry)),
            "{label}: {describing:?}"
        );
    }
    assert_eq!(long_copies, 1, "the short lists' long copy on a GPU");
    let any_order = elements(Reduction::Max, DuplicateMode::AnyUpdate);
    let lowered = any_order.lower(&DEVICE).expect("lowered");
    assert_eq!(
        lowered.steps.last().map(|step| step.entry),
        Some(Entry::DescribeStatus)
    );
}

#[test]
fn lists_in_any_order_hold_a_bound_of_rows_a_block_and_set_the_rest_aside() {
    // Narrow units in any order, more rows than the bound (LIST_BOUND, or four times the rows
    // a block on average, a power of two: here 16, so 64): link_slices sets a block's rows
    // past it aside, so no list goes on past the first pass, and reduce_spilled_rows follows
    // the first fold: a workgroup a tile of 256 columns of each run of set-aside rows (rows of
    // 64 and of 300 units: one tile and two). Its heads count each block's rows and the rows
    // set aside; its links keep two words a row set aside. A bound's worth of rows cannot
    // spill (no pass); nor can 8-byte units' without every 64-bit atomic (later passes
    // instead; with them, the test of 8-byte rows below), nor rows
    // whose bound would pass the first pass's walk (later passes).
    for device in [&DEVICE, &GPU] {
        for (width, tiles) in [(64u64, 1u64), (300, 2)] {
            for data_type in [DataType::Float16, DataType::Float32, DataType::Int8] {
                let label = format!(
                    "{data_type:?}, {width} wide, bounded {}",
                    device.bounded_loops
                );
                let (rows, nodes) = (1u64 << 20, 65536u64);
                let desc = rows_of(
                    data_type,
                    width as u32,
                    rows as u32,
                    nodes as u32,
                    Reduction::Add,
                    DuplicateMode::AnyUpdate,
                );
                let lowered = desc.lower(device).expect("lowered");
                let entries: Vec<Entry> = lowered.steps.iter().map(|step| step.entry).collect();
                assert!(
                    !entries.contains(&Entry::FoldSliceListRuns),
                    "{label}: {entries:?}"
                );
                let link = lowered
                    .steps
                    .iter()
                    .find(|step| step.entry == Entry::LinkSlices)
                    .expect("linked");
                assert_ne!(
                    index_params(link).in_order.fold_flags & SPILLS_ROWS,
                    0,
                    "{label}"
                );
                let spilled = lowered.steps.last().expect("steps");
                assert_eq!(
                    spilled.entry,
                    Entry::ReduceSpilledRows,
                    "{label}: {entries:?}"
                );
                assert_eq!(spilled.placement, Placement::Always, "{label}");
                let params = index_params(spilled);
                assert_eq!(params.in_order.spill_bound, 64, "{label}");
                assert_eq!(params.in_order.run_rows, SPILL_ROUNDS * 256, "{label}");
                assert_eq!(index_params(link).in_order.spill_bound, 64, "{label}");
                let run = SPILL_ROUNDS as u64 * 256;
                let capacity = rows - 64;
                assert_eq!(
                    step_threads(spilled),
                    capacity.div_ceil(run) * tiles * 256,
                    "{label}"
                );
                // Heads: the lists' heads, a pass count and two, the blocks' counts and the
                // rows set aside; links: a row's link and two words a row set aside.
                assert_eq!(
                    lowered.scratch_bytes,
                    (nodes + 2 + nodes + 1) * 4,
                    "{label}"
                );
                assert_eq!(lowered.links_bytes, (rows + 2 * capacity) * 4, "{label}");
            }
        }
        let plans = |rows: u32, data_type, mode| {
            let reduction = if mode == DuplicateMode::InOrder {
                Reduction::Max
            } else {
                Reduction::Add
            };
            rows_of(data_type, 64, rows, 16, reduction, mode)
                .lower(device)
                .expect("lowered")
                .steps
                .iter()
                .map(|step| step.entry)
                .collect::<Vec<Entry>>()
        };
        let spills = |entries: Vec<Entry>| entries.contains(&Entry::ReduceSpilledRows);
        let any_order = DuplicateMode::AnyUpdate;
        // 32 or 33 rows onto 16 blocks: the least bound, LIST_BOUND.
        assert_eq!(list_bound(33, 16), LIST_BOUND);
        assert!(!spills(plans(LIST_BOUND, DataType::Float32, any_order)));
        assert!(spills(plans(LIST_BOUND + 1, DataType::Float32, any_order)));
        assert!(!spills(plans(5000, DataType::Float64, any_order)));
        // 63 rows a block on average: bounded at 256 (here onto 1024 units, within the bins:
        // never sorted, however crowded); 2048 a block (onto 128 rows) on a device that cannot sort (a workgroup of
        // 48): past the first pass's 4096, so the lists go on instead.
        assert_eq!(list_bound(63 * 16, 16), 256);
        assert!(spills(plans(63 * 16, DataType::Float32, any_order)));
        let crowded = rows_of(
            DataType::Float32,
            64,
            1 << 18,
            128,
            Reduction::Add,
            any_order,
        );
        let unsortable = crate::lowering::DeviceFacts {
            workgroup_size: 48,
            ..*device
        };
        let listed: Vec<Entry> = crowded
            .lower(&unsortable)
            .expect("lowered")
            .steps
            .iter()
            .map(|step| step.entry)
            .collect();
        assert!(!spills(listed.clone()), "{listed:?}");
        assert!(listed.contains(&Entry::FoldSliceListRuns), "{listed:?}");
        // Ties' lists (float Max in order) are bounded too, their blocks with rows set aside
        // settled by write_list_ties after the rows set aside.
        let ties = plans(1000, DataType::Float32, DuplicateMode::InOrder);
        assert!(ties.contains(&Entry::LinkSlices), "{ties:?}");
        assert!(
            spills(ties.clone()) && ties.last() == Some(&Entry::WriteListTies),
            "{ties:?}"
        );
        // Their scratch, as the shaders lay it out (1000 rows onto 16 blocks of 64 units: a
        // bound of 256, so at most 3 blocks in the tie list and 744 rows set aside). Heads:
        // the lists' heads, two pass counts, the blocks' counts and the rows set aside, the
        // tie list's count, a tie word a unit; links: a row's link, the two lists of blocks
        // that go on (4 words an entry, none used), the tie list, two words a row set aside.
        let lowered = rows_of(
            DataType::Float32,
            64,
            1000,
            16,
            Reduction::Max,
            DuplicateMode::InOrder,
        )
        .lower(device)
        .expect("lowered");
        assert_eq!(lowered.scratch_bytes, (16 + 2 + 16 + 1 + 1 + 16 * 64) * 4);
        assert_eq!(lowered.links_bytes, (1000 + 4 * 3 + 3 + 2 * 744) * 4);
        let spilled = lowered
            .steps
            .iter()
            .find(|step| step.entry == Entry::ReduceSpilledRows)
            .expect("rows set aside");
        let params = index_params(spilled).in_order;
        assert_eq!(
            (params.spill_bound, params.fold_capacity, params.tie_words),
            (256, 3, 16 + 2 + 16 + 1 + 1)
        );
    }
}

#[test]
fn eight_byte_rows_set_aside_or_sorted_are_combined_by_the_wide_kernel_where_every_64_bit_atomic_is()
 {
    use crate::kernels::{Kernel, ReduceOrder};
    use crate::lowering::{DeviceFacts, Int64Atomics};
    // 8-byte rows in any order: 5000 rows of 64 onto 16 table rows (1024 units: within the
    // bins, never sorted; 312 a row: not crowded) set the rows past the bound aside, and
    // 128 a row onto 64 table rows (4096 units) are sorted, where the device has every 64-bit
    // atomic: the combining pass in RowsWide's kernel (the output as 64-bit atomics), every
    // pass before it in InOrder's. With the least of them (integer Min and Max) or none, the
    // lists as before: no rows set aside, none sorted.
    for (data_type, reduction) in [
        (DataType::Float64, Reduction::Add),
        (DataType::Float64, Reduction::Max),
        (DataType::Int64, Reduction::Min),
        (DataType::UInt64, Reduction::Mul),
    ] {
        let kernel = |order| Kernel::ScatterReduce {
            data_type,
            reduction,
            order,
            copies: false,
            hardware_float64: false,
        };
        for atomics in [Int64Atomics::All, Int64Atomics::MinMax, Int64Atomics::None] {
            let device = DeviceFacts {
                int64_atomics: atomics,
                ..GPU
            };
            let label = format!("{data_type:?} {reduction:?}, {atomics:?}");
            for (rows, nodes, combining) in [
                (5000, 16, Entry::ReduceSpilledRows),
                (128 * 64, 64, Entry::ReduceSortedRows),
            ] {
                let steps = rows_of(
                    data_type,
                    64,
                    rows,
                    nodes,
                    reduction,
                    DuplicateMode::AnyUpdate,
                )
                .lower(&device)
                .expect("lowered")
                .steps;
                let entries: Vec<Entry> = steps.iter().map(|step| step.entry).collect();
                if atomics != Int64Atomics::All {
                    assert!(
                        entries.contains(&Entry::LinkSlices)
                            && !entries.contains(&Entry::ReduceSpilledRows)
                            && !entries.contains(&Entry::ReduceSortedRows),
                        "{label}, {rows} rows onto {nodes}: {entries:?}"
                    );
                    continue;
                }
                let last = steps.last().expect("steps");
                assert_eq!(last.entry, combining, "{label}: {entries:?}");
                assert_eq!(last.kernel, kernel(ReduceOrder::RowsWide), "{label}");
                for step in &steps[..steps.len() - 1] {
                    if step.entry == Entry::StridedCopy
                        || step.entry.name().starts_with("strided_copy")
                    {
                        continue;
                    }
                    assert_eq!(
                        step.kernel.copying(),
                        kernel(ReduceOrder::InOrder).copying(),
                        "{label}: {:?}",
                        step.entry
                    );
                }
            }
        }
    }
}

#[test]
fn crowded_rows_in_any_order_are_sorted_then_combined_in_runs_sized_for_a_thousand_workgroups() {
    // Float16 Add of rows in any order, 128+ a block onto more than 2048 units: the radix sort
    // (one pass for up to 256 blocks, two past them), then reduce_sorted_rows alone (no runs
    // found, no folds, the copy first), describing the status: runs of 1024 rows halved while
    // they make fewer than 1024 workgroups, down to 32, a workgroup a tile of 256 columns of
    // each run; the sort's scratch, 16 bytes a row.
    for (rows, width, blocks, run, passes) in [
        (1u32 << 18, 256u32, 64u32, 256u32, 1u32),
        (4096, 1024, 16, 32, 1),
        (1 << 22, 64, 64, 1024, 1),
        (1 << 20, 64, 4096, 1024, 2),
    ] {
        let label = format!("{rows} rows of {width} into {blocks}");
        let desc = rows_of(
            DataType::Float16,
            width,
            rows,
            blocks,
            Reduction::Add,
            DuplicateMode::AnyUpdate,
        );
        let lowered = desc.lower(&GPU).expect("lowered");
        let entries: Vec<Entry> = lowered.steps.iter().map(|step| step.entry).collect();
        assert_eq!(
            entries
                .iter()
                .filter(|&&entry| entry == Entry::RadixCount)
                .count(),
            passes as usize,
            "{label}: {entries:?}"
        );
        assert!(
            !entries.iter().any(|entry| matches!(
                entry,
                Entry::FindRuns | Entry::FoldSlices | Entry::FoldSliceColumns | Entry::LinkSlices
            )),
            "{label}: {entries:?}"
        );
        let copy = lowered
            .steps
            .iter()
            .position(|step| step.placement == Placement::OutOfPlace)
            .expect("out of place, the copy");
        let sort = entries.iter().position(|&entry| entry == Entry::RadixCount);
        assert!(sort.is_some_and(|sort| copy < sort), "{label}: {entries:?}");
        let combine = lowered.steps.last().expect("steps");
        assert_eq!(combine.entry, Entry::ReduceSortedRows, "{label}");
        assert_eq!(combine.placement, Placement::Always, "{label}");
        let params = index_params(combine);
        assert_eq!(params.in_order.run_rows, run, "{label}");
        assert_eq!(params.in_order.slices, rows, "{label}");
        assert_eq!(params.in_order.radix_shift, passes * 8, "{label}");
        assert_ne!(params.in_order.fold_flags & DESCRIBES_STATUS, 0, "{label}");
        let tiles = (width as u64).div_ceil(256);
        assert_eq!(
            step_threads(combine),
            (rows as u64).div_ceil(run as u64) * tiles * 256,
            "{label}"
        );
        assert!(lowered.links_bytes >= 16 * rows as u64, "{label}");
    }
}

#[test]
fn long_sorted_runs_of_add_and_mul_fold_from_the_later_passes_where_their_workgroups_are_few() {
    // Float16 rows in order, sorted: 512 rows a block and more on average, and at most 512
    // workgroups of the later passes (a tile of 8 columns of each block), fold from the later
    // passes (the first folds each run's first row); fewer rows a block, more workgroups, and
    // Max (whose column fold takes four rows at a time in the first pass) from the first.
    let cases = [
        (65_536u32, 64u32, 16u32, Reduction::Add, true),
        (300_000, 8, 1, Reduction::Add, true),
        (65_536, 64, 64, Reduction::Mul, true),
        (32_768, 64, 64, Reduction::Add, true),
        (4096, 1024, 4, Reduction::Add, true),
        (32_767, 64, 64, Reduction::Add, false),
        (65_536, 64, 256, Reduction::Add, false),
        (4096, 1024, 8, Reduction::Add, false),
        (262_144, 256, 64, Reduction::Add, false),
        (65_536, 64, 16, Reduction::Max, false),
    ];
    for (rows, width, blocks, reduction, later) in cases {
        let label = format!("{reduction:?} of {rows} rows of {width} into {blocks}");
        let desc = rows_of(
            DataType::Float16,
            width,
            rows,
            blocks,
            reduction,
            DuplicateMode::InOrder,
        );
        let lowered = desc.lower(&GPU).expect("lowered");
        let first_folds: Vec<&Step> = lowered
            .steps
            .iter()
            .filter(|step| {
                matches!(
                    step.entry,
                    Entry::FoldSlices
                        | Entry::FoldSliceColumns
                        | Entry::FoldSliceColumnsCopy
                        | Entry::FoldSliceColumnsCopyWide
                )
            })
            .collect();
        assert!(!first_folds.is_empty(), "{label}");
        for step in &first_folds {
            let flags = index_params(step).in_order.fold_flags;
            assert_eq!(
                flags & FOLD_RUNS_LATER != 0,
                later,
                "{label}: {:?}",
                step.entry
            );
        }
        let later_passes: Vec<&Step> = lowered
            .steps
            .iter()
            .filter(|step| step.entry == Entry::FoldSliceRuns)
            .collect();
        if later {
            // Later passes of 131,072 rows a run each (32 rows of turns of 4096 rows), a
            // workgroup a tile of each block in each: at most a run a block goes on.
            let passes = (rows as u64 - 1).div_ceil(32 * 4096);
            assert_eq!(later_passes.len() as u64, passes, "{label}");
            let tiles = (width as u64).div_ceil(8);
            for pass in later_passes {
                assert_eq!(step_threads(pass), blocks as u64 * tiles * 256, "{label}");
                assert_ne!(
                    index_params(pass).in_order.fold_flags & FOLD_RUNS_LATER,
                    0,
                    "{label}"
                );
            }
        }
    }
}

/// A step's invocations.
fn step_threads(step: &Step) -> u64 {
    match step.grid {
        crate::lowering::Grid::Flat(threads) => threads,
        ref grid => panic!("a flat grid, not {grid:?}"),
    }
}
