//! Lowering tests of the scatter reductions: which entry points each type, shape, mode and
//! device takes (`src/ops/scatter_lowering.rs`, `scatter_plans.rs`, `scatter_bins.rs`).

use crate::kernels::Entry;
use crate::lowering::{DeviceFacts, Placement};
use crate::ops::index_map::tests::{DEVICE, GPU, entries, scatter_rows};
use crate::ops::{Operator, ScatterElementsDesc};
use crate::tensor::{DataType, TensorDesc};

#[test]
fn reductions_onto_small_outputs_combine_in_workgroup_bins() {
    use crate::ops::Reduction;
    // 16 rows of 128 units fit BIN_CAPACITY (2048); 17 rows do not, but bins take ranges of
    // it, a range a workgroup, leaving partials for a fold: up to eight (128 rows) by
    // compare-exchange (floats), two (32 rows) by the integers' own atomics; 8-byte units
    // never.
    for (data_type, rows, bins) in [
        (DataType::Int32, 16, true),
        (DataType::UInt8, 16, true),
        (DataType::Float16, 16, true),
        (DataType::Int32, 17, true),
        (DataType::Int32, 32, true),
        (DataType::Int32, 33, false),
        (DataType::Float32, 17, true),
        (DataType::Float32, 128, true),
        (DataType::Float32, 129, false),
        (DataType::Int64, 16, false),
    ] {
        let desc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[rows, 128]),
            TensorDesc::new(DataType::Int64, &[9, 128]),
            TensorDesc::new(data_type, &[9, 128]),
            TensorDesc::new(data_type, &[rows, 128]),
            0,
        )
        .with_reduction(Reduction::Add);
        let lowered = entries(&desc, &DEVICE);
        assert_eq!(
            lowered.contains(&Entry::ScatterReduceBins),
            bins,
            "{data_type:?} {rows}: {lowered:?}"
        );
        if data_type.size_in_bytes() <= 4 {
            assert_eq!(lowered.contains(&Entry::ScatterReduce), !bins);
        }
        // Ranges leave partials, which a pass folds into the output.
        assert_eq!(
            lowered.contains(&Entry::FoldPartials),
            bins && (rows > 16 || data_type.is_float()),
            "{data_type:?} {rows}: {lowered:?}"
        );
    }
}

#[test]
fn float32_add_takes_the_float_atomics_past_two_ranges_of_bins_where_updates_are_many() {
    use crate::ops::{DuplicateMode, Reduction};
    let atomics = DeviceFacts {
        float32_atomics: true,
        ..DEVICE
    };
    // Outputs of `rows` rows of 128 units, `updates` rows of 128 updates.
    let desc = |data_type, rows, updates: u32, reduction, duplicates| {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[rows, 128]),
            TensorDesc::new(DataType::Int64, &[updates, 128]),
            TensorDesc::new(data_type, &[updates, 128]),
            TensorDesc::new(data_type, &[rows, 128]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(duplicates)
    };
    let any = DuplicateMode::AnyUpdate;
    for (case, device, data_type, rows, updates, reduction, duplicates, taken) in [
        (
            "many updates",
            &atomics,
            DataType::Float32,
            200,
            400,
            Reduction::Add,
            any,
            true,
        ),
        (
            "a quarter",
            &atomics,
            DataType::Float32,
            200,
            50,
            Reduction::Add,
            any,
            true,
        ),
        (
            "fewer updates",
            &atomics,
            DataType::Float32,
            200,
            49,
            Reduction::Add,
            any,
            false,
        ),
        (
            "in the bins",
            &atomics,
            DataType::Float32,
            16,
            400,
            Reduction::Add,
            any,
            false,
        ),
        (
            "in two ranges of bins",
            &atomics,
            DataType::Float32,
            32,
            400,
            Reduction::Add,
            any,
            false,
        ),
        // Past two ranges the atomics, not the bins' ranges (NATIVE_BIN_RANGES).
        (
            "past two ranges of bins",
            &atomics,
            DataType::Float32,
            33,
            400,
            Reduction::Add,
            any,
            true,
        ),
        (
            "in eight ranges of bins",
            &atomics,
            DataType::Float32,
            128,
            400,
            Reduction::Add,
            any,
            true,
        ),
        (
            "past two ranges of bins, no atomics",
            &DEVICE,
            DataType::Float32,
            33,
            400,
            Reduction::Add,
            any,
            false,
        ),
        (
            "no atomics",
            &DEVICE,
            DataType::Float32,
            200,
            400,
            Reduction::Add,
            any,
            false,
        ),
        (
            "Mul",
            &atomics,
            DataType::Float32,
            200,
            400,
            Reduction::Mul,
            any,
            false,
        ),
        (
            "Float16",
            &atomics,
            DataType::Float16,
            200,
            400,
            Reduction::Add,
            any,
            false,
        ),
        (
            "in order",
            &atomics,
            DataType::Float32,
            200,
            400,
            Reduction::Add,
            DuplicateMode::InOrder,
            false,
        ),
    ] {
        let lowered = entries(
            &desc(data_type, rows, updates, reduction, duplicates),
            device,
        );
        let screened = [
            Entry::ScreenFloatAdd,
            Entry::ScatterAddFloatAtomics,
            Entry::ScatterReduce,
        ];
        let found: Vec<Entry> = lowered
            .iter()
            .copied()
            .filter(|e| screened.contains(e))
            .collect();
        if taken {
            // The screen (out of place one that copies `output = input` as it reads, the
            // output laid out as the input; in place one that reads), the atomics, then the
            // compare-exchange pass for what they refuse; no copy of its own.
            let mut expected = screened.to_vec();
            expected.insert(0, Entry::ScreenFloatAdd);
            assert_eq!(found, expected, "{case}: {lowered:?}");
            assert!(
                !lowered.iter().any(|e| e.name().starts_with("strided_copy")),
                "{case}: {lowered:?}"
            );
        } else {
            assert!(
                !lowered.contains(&Entry::ScreenFloatAdd)
                    && !lowered.contains(&Entry::ScatterAddFloatAtomics),
                "{case}: {lowered:?}"
            );
        }
        // Up to 16,384 units (two ranges where the atomics could take them), the bins.
        let binned = rows <= 32 || (rows <= 128 && !taken && duplicates == any);
        assert_eq!(
            lowered.contains(&Entry::ScatterReduceBins),
            binned,
            "{case}: {lowered:?}"
        );
    }
}

#[test]
fn in_order_reductions_sort_by_target_settle_ties_or_are_refused() {
    use crate::ops::{DuplicateMode, Reduction};
    let in_order = |data_type, reduction| {
        scatter_rows(data_type, 5)
            .with_reduction(reduction)
            .with_duplicates(DuplicateMode::InOrder)
    };
    let sorted = [Entry::RadixCount, Entry::RadixScatter, Entry::FoldRuns];
    // Float Add and Mul, and every 8-byte type, sort by target.
    for (data_type, reduction) in [
        (DataType::Float32, Reduction::Add),
        (DataType::Float16, Reduction::Mul),
        (DataType::Float64, Reduction::Max),
        (DataType::Int64, Reduction::Add),
    ] {
        let lowered = entries(&in_order(data_type, reduction), &DEVICE);
        assert!(
            sorted.iter().all(|e| lowered.contains(e))
                && !lowered.contains(&Entry::RadixScanBlocks),
            "{data_type:?} {reduction:?}: {lowered:?}"
        );
        // Past 16 tiles of 256 updates, the histogram's blocks are scanned by a pass of
        // their own; up to them, by each radix_scatter workgroup.
        for (count, scanned_apart) in [(4096, false), (4097, true)] {
            let column = |rows| TensorDesc::new(data_type, &[rows, 1]);
            let desc = ScatterElementsDesc::new(
                column(16),
                TensorDesc::new(DataType::Int64, &[count, 1]),
                column(count),
                column(16),
                0,
            )
            .with_reduction(reduction)
            .with_duplicates(DuplicateMode::InOrder);
            let lowered = entries(&desc, &DEVICE);
            assert!(
                lowered.contains(&Entry::RadixScanBlocks) == scanned_apart,
                "{data_type:?} {reduction:?}, {count} updates: {lowered:?}"
            );
        }
        // Out of place, input and output of one packed layout: units of 4 and 8 bytes
        // are copied as their runs fold (fold_runs_copy, no copy of its own); 2-byte
        // ones share words between threads and copy first.
        let copy_folds = data_type.size_in_bytes() >= 4;
        let copies = |e: &Entry| e.name().starts_with("strided_copy");
        assert!(
            lowered.contains(&Entry::FoldRunsCopy) == copy_folds
                && lowered.iter().any(copies) != copy_folds,
            "{data_type:?} {reduction:?}: {lowered:?}"
        );
        let mut strided = in_order(data_type, reduction);
        strided.output = TensorDesc::new(data_type, &[16, 5]).with_strides(&[8, 1]);
        let lowered = entries(&strided, &DEVICE);
        assert!(
            !lowered.contains(&Entry::FoldRunsCopy) && lowered.iter().any(copies),
            "{data_type:?} {reduction:?}, output with gaps: {lowered:?}"
        );
    }
    // Float Min and Max of 2 and 4 bytes: any order between the two tie passes (into
    // workgroup bins: the output is small).
    for data_type in [DataType::Float16, DataType::Float32] {
        let lowered = entries(&in_order(data_type, Reduction::Min), &DEVICE);
        assert_eq!(
            lowered[lowered.len() - 4..],
            [
                Entry::ClaimTies,
                Entry::ScatterReduceBins,
                Entry::WriteTies,
                Entry::DescribeStatus
            ],
            "{data_type:?}"
        );
        // As many updates as the output's units or more: the updates claim as they are
        // placed, the inputs' claims and the write go over the output's units.
        let mut crowded = in_order(data_type, Reduction::Max);
        crowded.input = TensorDesc::new(data_type, &[8, 5]);
        crowded.output = crowded.input.clone();
        let lowered = entries(&crowded, &DEVICE);
        assert_eq!(
            lowered[lowered.len() - 4..],
            [
                Entry::ScreenOutput,
                Entry::ScatterReduceBins,
                Entry::WriteUnitTies,
                Entry::DescribeStatus
            ],
            "{data_type:?}"
        );
        assert!(!lowered.contains(&Entry::ClearHeads), "{lowered:?}");
        // Out of place, the inputs' claims copy `output = input` as they read (Float32: a
        // unit a word), as a variant of their own; in place the plain one reads the output.
        let steps = crowded.lower(&DEVICE).expect("lowered").steps;
        let screens: Vec<_> = steps
            .iter()
            .filter(|step| step.entry == Entry::ScreenOutput)
            .map(|step| (step.kernel.copying() == step.kernel, step.placement))
            .collect();
        let copies = |step: &crate::lowering::Step| step.entry.name().starts_with("strided_copy");
        if data_type == DataType::Float32 {
            assert_eq!(
                screens,
                [(true, Placement::OutOfPlace), (false, Placement::InPlace)]
            );
            assert!(!steps.iter().any(copies), "{lowered:?}");
        } else {
            assert_eq!(screens, [(false, Placement::Always)]);
            assert!(steps.iter().any(copies), "{lowered:?}");
        }
    }
    // Rows in order: their slices sorted by block, folded a thread a few columns.
    let rows = crate::ops::ScatterNdDesc::new(
        TensorDesc::new(DataType::Float32, &[16, 5]),
        TensorDesc::new(DataType::Int64, &[9, 1]),
        TensorDesc::new(DataType::Float32, &[9, 5]),
        TensorDesc::new(DataType::Float32, &[16, 5]),
        2,
        2,
    )
    .with_reduction(Reduction::Add)
    .with_duplicates(DuplicateMode::InOrder);
    let lowered = entries(&rows, &DEVICE);
    assert!(
        [
            Entry::RadixCount,
            Entry::RadixScatter,
            Entry::FoldSliceColumns
        ]
        .iter()
        .all(|e| lowered.contains(e)),
        "{lowered:?}"
    );
    // Narrow rows fold a thread a few whole words, or a thread a unit where a row's
    // units leave a word shared with the next row.
    for (width, fold) in [
        (64, Entry::FoldSliceListColumns),
        (65, Entry::FoldSliceLists),
    ] {
        let rows = crate::ops::ScatterNdDesc::new(
            TensorDesc::new(DataType::Float16, &[16, width]),
            TensorDesc::new(DataType::Int64, &[9, 1]),
            TensorDesc::new(DataType::Float16, &[9, width]),
            TensorDesc::new(DataType::Float16, &[16, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Add);
        let lowered = entries(&rows, &DEVICE);
        assert!(lowered.contains(&fold), "{width}: {lowered:?}");
    }
    // Wide rows in the default mode, and 8-byte rows: linked into lists, no sort. Out of
    // place, where the output is laid out as the input without gaps, the first fold
    // copies as it folds (the plain fold runs in place): no copy of its own. An output
    // with gaps between its rows is copied first.
    let copies = |e: &Entry| {
        matches!(
            e,
            Entry::StridedCopy | Entry::StridedCopyBlocks | Entry::StridedCopyPlanes
        )
    };
    // Narrow rows with short lists take the wide copy (more cells a thread); 8-byte
    // units already take 16 bytes a thread.
    for (data_type, width, copy) in [
        (DataType::Float32, 64, Entry::FoldSliceListCopyWide),
        (DataType::Float64, 2, Entry::FoldSliceListCopy),
    ] {
        for strided in [false, true] {
            let output = TensorDesc::new(data_type, &[16, width]);
            let output = if strided {
                output.with_strides(&[2 * width, 1])
            } else {
                output
            };
            let rows = crate::ops::ScatterNdDesc::new(
                TensorDesc::new(data_type, &[16, width]),
                TensorDesc::new(DataType::Int64, &[9, 1]),
                TensorDesc::new(data_type, &[9, width]),
                output,
                2,
                2,
            )
            .with_reduction(Reduction::Add);
            let lowered = entries(&rows, &DEVICE);
            assert!(
                lowered.contains(&Entry::LinkSlices)
                    && lowered.contains(&Entry::FoldSliceListColumns)
                    && !lowered.contains(&Entry::RadixCount)
                    && lowered.contains(&copy) != strided
                    && lowered.iter().any(copies) == strided,
                "{data_type:?}, strided {strided}: {lowered:?}"
            );
        }
    }
    // Rows in order, sorted: where the first fold starts from the output's blocks (rows
    // of updates at least as many), out of place it copies as it folds; where it starts
    // from the rows of updates (fewer), or the output has gaps, the copy goes first.
    for (updates, strided, copy_folds) in [(24, false, true), (9, false, false), (24, true, false)]
    {
        let output = TensorDesc::new(DataType::Float32, &[16, 64]);
        let output = if strided {
            output.with_strides(&[128, 1])
        } else {
            output
        };
        let rows = crate::ops::ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[16, 64]),
            TensorDesc::new(DataType::Int64, &[updates, 1]),
            TensorDesc::new(DataType::Float32, &[updates, 64]),
            output,
            2,
            2,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(crate::DuplicateMode::InOrder);
        let lowered = entries(&rows, &DEVICE);
        assert!(
            lowered.contains(&Entry::RadixCount)
                && lowered.contains(&Entry::FoldSliceColumns)
                && lowered.contains(&Entry::FoldSliceColumnsCopy) == copy_folds
                && lowered.iter().any(copies) != copy_folds,
            "{updates} rows, strided {strided}: {lowered:?}"
        );
    }
    // Float rows in order (Add: sorted runs) of 1 KiB or more (64 threads of 16 bytes a
    // block) whose runs are short on average (at most 4 rows of updates a block): out of
    // place, the sorted first fold copies as it folds, 16 bytes a thread, whether it starts
    // from the blocks or the rows; narrower rows, 8-byte units (16 bytes are their column
    // cells) and longer runs do not.
    for (data_type, width, updates, wide) in [
        (DataType::Float16, 512, 9, true),
        (DataType::Float16, 512, 64, true),
        (DataType::Float16, 1024, 9, true),
        (DataType::Float32, 256, 24, true),
        (DataType::Float16, 256, 9, false),
        (DataType::Float32, 128, 24, false),
        (DataType::Float64, 512, 24, false),
        (DataType::Float32, 256, 65, false),
    ] {
        let rows = crate::ops::ScatterNdDesc::new(
            TensorDesc::new(data_type, &[16, width]),
            TensorDesc::new(DataType::Int64, &[updates, 1]),
            TensorDesc::new(data_type, &[updates, width]),
            TensorDesc::new(data_type, &[16, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(crate::DuplicateMode::InOrder);
        let lowered = entries(&rows, &DEVICE);
        let narrow = lowered.contains(&Entry::FoldSliceColumnsCopy);
        assert!(
            lowered.contains(&Entry::RadixCount)
                && lowered.contains(&Entry::FoldSliceColumnsCopyWide) == wide
                && (wide || narrow == (updates >= 16))
                && lowered.iter().any(copies) == (!wide && !narrow),
            "{data_type:?} rows of {width}, {updates} of them: {lowered:?}"
        );
    }
    // The wide copy walks a run or list once a part (4 of them for Float16): where the device
    // bounds loops, its first pass walks a quarter of FOLD_STEPS slices, so a run or list of
    // 1100 goes on in a pass of fold_slice_runs or fold_slice_list_runs (in place too, the
    // plain first fold walking as many), where the copy a cell a thread (rows of 256) walks
    // 4096; on a GPU the wide copy walks 4096 a part (the lists' by an entry of its own), and
    // no pass follows. Lists in any order hold at most their bound of rows a block (narrow
    // units): none goes on, on either device; the rest are set aside.
    let sorted = (
        crate::DuplicateMode::InOrder,
        [
            Entry::FoldSliceColumnsCopyWide,
            Entry::FoldSliceColumnsCopyWide,
        ],
        Entry::FoldSliceRuns,
        true,
    );
    let lists = (
        crate::DuplicateMode::AnyUpdate,
        [
            Entry::FoldSliceListCopyWide,
            Entry::FoldSliceListCopyWideLong,
        ],
        Entry::FoldSliceListRuns,
        false,
    );
    for (width, (duplicates, copies, runs, goes_on), wide) in [
        (512, sorted, true),
        (256, sorted, false),
        (256, lists, true),
    ] {
        let rows = crate::ops::ScatterNdDesc::new(
            TensorDesc::new(DataType::Float16, &[300, width]),
            TensorDesc::new(DataType::Int64, &[1100, 1]),
            TensorDesc::new(DataType::Float16, &[1100, width]),
            TensorDesc::new(DataType::Float16, &[300, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Mul)
        .with_duplicates(duplicates);
        for (device, copy, bounded) in [(&DEVICE, copies[0], true), (&GPU, copies[1], false)] {
            let lowered = entries(&rows, device);
            let other = copies[usize::from(bounded)];
            assert!(
                lowered.contains(&copy) == wide
                    && (other == copy || !lowered.contains(&other))
                    && lowered.contains(&runs) == (wide && bounded && goes_on)
                    && lowered.contains(&Entry::ReduceSpilledRows) != goes_on,
                "rows of {width}, {duplicates:?}, bounded loops {bounded}: {lowered:?}"
            );
        }
    }
    // Float Max in order (lists with ties) plans as for a device that bounds loops on a GPU
    // too: the wide copy walking a part's share (1024 rows of Float16); its rows past the
    // bound set aside (no later pass), their ties settled after them.
    let ties = crate::ops::ScatterNdDesc::new(
        TensorDesc::new(DataType::Float16, &[300, 64]),
        TensorDesc::new(DataType::Int64, &[1100, 1]),
        TensorDesc::new(DataType::Float16, &[1100, 64]),
        TensorDesc::new(DataType::Float16, &[300, 64]),
        2,
        2,
    )
    .with_reduction(Reduction::Max)
    .with_duplicates(crate::DuplicateMode::InOrder);
    for device in [&DEVICE, &GPU] {
        let lowered = entries(&ties, device);
        assert!(
            lowered.last() == Some(&Entry::WriteListTies)
                && lowered.contains(&Entry::FoldSliceListCopyWide)
                && !lowered.contains(&Entry::FoldSliceListCopyWideLong)
                && lowered.contains(&Entry::ReduceSpilledRows)
                && !lowered.contains(&Entry::FoldSliceListRuns),
            "ties, bounded loops {}: {lowered:?}",
            device.bounded_loops
        );
    }
    // A workgroup that is no power of two: refused, naming the limit (no unbounded list
    // walks to fall back on).
    let odd = DeviceFacts {
        workgroup_size: 96,
        ..DEVICE
    };
    match in_order(DataType::Float32, Reduction::Add)
        .lower(&odd)
        .err()
    {
        Some(crate::Error::LimitExceeded { limit_name, .. }) => {
            assert_eq!(limit_name, "max_compute_invocations_per_workgroup")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn any_order_reductions_take_one_update_a_thread_up_to_two_to_the_seventeenth_threads() {
    use crate::kernels::params::Parameters;
    use crate::lowering::Grid;
    use crate::ops::Reduction;
    // Then up to 16 a thread (scatter_reduce, and scatter_reduce_wide's native atomics; its
    // compare-exchange past the slots' ranges takes fewer: scatter_bins.rs), the threads
    // enough to cover every update once.
    let wave = 1u32 << 17;
    for (count, per_thread) in [
        (4096, 1),
        (wave, 1),
        (wave + 1, 2),
        (15 * wave + 1, 16),
        (40 * wave, 16),
    ] {
        // An output past the bins' ranges (8 * 2048 units).
        let desc = ScatterElementsDesc::new(
            TensorDesc::new(DataType::Float32, &[20000]),
            TensorDesc::new(DataType::Int32, &[count]),
            TensorDesc::new(DataType::Float32, &[count]),
            TensorDesc::new(DataType::Float32, &[20000]),
            0,
        )
        .with_reduction(Reduction::Add);
        let lowered = desc.lower(&DEVICE).expect("lowered");
        let step = lowered
            .steps
            .iter()
            .find(|step| step.entry == Entry::ScatterReduce)
            .expect("scatter_reduce");
        let Parameters::Index(params) = step.params else {
            panic!("{count}: index parameters");
        };
        let threads = (count as u64).div_ceil(per_thread as u64);
        assert_eq!(
            (params.bins.per_thread, params.bins.threads as u64),
            (per_thread, threads),
            "{count} updates"
        );
        assert!(
            matches!(step.grid, Grid::Flat(t) if t == threads),
            "{count} updates"
        );
    }
}

#[test]
fn float32_min_and_max_take_the_sign_atomics_where_the_updates_are_not_crowded() {
    use crate::ops::{DuplicateMode, Reduction};
    // Past the bins, Float32 Min and Max screen the output, take the fast pass and the pass
    // for the NaNs it refused, where the updates are a quarter to 4 times the output's units;
    // other types, and other crowds, take the loop alone.
    let elements = |data_type, targets, updates, reduction| {
        let column = |n| TensorDesc::new(data_type, &[n]);
        ScatterElementsDesc::new(
            column(targets),
            TensorDesc::new(DataType::Int32, &[updates]),
            column(updates),
            column(targets),
            0,
        )
        .with_reduction(reduction)
    };
    for reduction in [Reduction::Min, Reduction::Max] {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            // (type, targets, updates, whether the screen runs, the passes of scatter_reduce)
            for (data_type, targets, updates, screens, passes) in [
                (DataType::Float32, 20_000, 60_000, true, 2),
                (DataType::Float32, 20_000, 80_000, true, 2),
                (DataType::Float32, 20_000, 80_001, false, 1),
                (DataType::Float32, 20_000, 4_999, false, 1),
                // The bins.
                (DataType::Float32, 16_384, 60_000, false, 0),
                (DataType::Float16, 20_000, 60_000, false, 1),
            ] {
                let desc =
                    elements(data_type, targets, updates, reduction).with_duplicates(duplicates);
                let lowered = entries(&desc, &DEVICE);
                let reduces = lowered
                    .iter()
                    .filter(|&&e| e == Entry::ScatterReduce)
                    .count();
                // The screen of the output runs for the sign atomics, and in order for
                // the inputs' tie claims where the updates are at least the output's units.
                let claims = duplicates == DuplicateMode::InOrder && updates >= targets;
                assert_eq!(
                    (lowered.contains(&Entry::ScreenOutput), reduces),
                    (screens || claims, passes),
                    "{data_type:?} {reduction:?} {duplicates:?}, {updates} onto {targets}: {lowered:?}"
                );
                // Out of place, the claims' screen copies `output = input` as it reads
                // (4-byte units); the sign atomics' screen alone reads after the copy.
                let steps = desc.lower(&DEVICE).expect("lowered").steps;
                let copying = steps
                    .iter()
                    .any(|s| s.entry == Entry::ScreenOutput && s.kernel.copying() == s.kernel);
                let copies = steps
                    .iter()
                    .any(|s| s.entry.name().starts_with("strided_copy"));
                let fused = claims && data_type == DataType::Float32;
                assert_eq!(
                    (copying, copies),
                    (fused, !fused),
                    "{data_type:?} {reduction:?} {duplicates:?}, {updates} onto {targets}: {lowered:?}"
                );
                // Only the sign atomics' passes build their path into the pipeline.
                let sign_constants = steps
                    .iter()
                    .filter(|s| s.entry == Entry::ScatterReduce)
                    .map(|s| {
                        s.params
                            .pipeline_constants()
                            .entries()
                            .contains(&("SIGN_ATOMICS_ON", 1.0))
                    })
                    .collect::<Vec<_>>();
                assert_eq!(
                    sign_constants,
                    vec![screens; reduces],
                    "{data_type:?} {reduction:?} {duplicates:?}, {updates} onto {targets}"
                );
            }
        }
    }
}
