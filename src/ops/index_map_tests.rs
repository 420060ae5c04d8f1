//! Lowering tests of the scatters and gathers: which entry points each shape, layout and
//! device takes (`src/ops/index_map.rs`, `scatter_lowering.rs`, `gather.rs`).

use super::super::Operator;
use crate::kernels::Entry;
use crate::lowering::{DeviceFacts, Placement};
use crate::ops::{GatherElementsDesc, ScatterElementsDesc};
use crate::tensor::{DataType, TensorDesc};

const DEVICE: DeviceFacts = DeviceFacts {
    unit_alignment: 16,
    workgroup_size: 256,
    row_threads: 1024,
    max_workgroup_storage_bytes: 49152,
    max_workgroups_per_dimension: 65535,
    copies_in_kernels: false,
    int64_atomics: crate::lowering::Int64Atomics::None,
    hardware_float64: false,
    float32_atomics: false,
    per_element: false,
    bindings: None,
};

fn entries(operator: &dyn Operator, device: &DeviceFacts) -> Vec<Entry> {
    operator
        .lower(device)
        .expect("lowered")
        .steps
        .iter()
        .map(|step| step.entry)
        .collect()
}

fn scatter_rows(data_type: DataType, row: u32) -> ScatterElementsDesc {
    ScatterElementsDesc::new(
        TensorDesc::new(data_type, &[16, row]),
        TensorDesc::new(DataType::Int64, &[9, row]),
        TensorDesc::new(data_type, &[9, row]),
        TensorDesc::new(data_type, &[16, row]),
        0,
    )
}

fn gather_rows(data_type: DataType, row: u32) -> GatherElementsDesc {
    GatherElementsDesc::new(
        TensorDesc::new(data_type, &[16, row]),
        TensorDesc::new(DataType::Int32, &[9, row]),
        TensorDesc::new(data_type, &[9, row]),
        0,
    )
}

#[test]
fn narrow_rows_that_do_not_fill_words_move_a_word_of_neighbours_a_thread() {
    for data_type in [DataType::UInt8, DataType::Float16] {
        for (row, scatter, gather) in [
            (24, Entry::ScatterWords, Entry::GatherWords),
            (4097, Entry::ScatterSpans, Entry::GatherSpans),
            (3, Entry::ScatterSpans, Entry::GatherSpans),
        ] {
            let lowered = entries(&scatter_rows(data_type, row), &DEVICE);
            assert!(
                lowered.contains(&scatter),
                "{data_type:?} {row}: {lowered:?}"
            );
            let lowered = entries(&gather_rows(data_type, row), &DEVICE);
            assert!(
                lowered.contains(&gather),
                "{data_type:?} {row}: {lowered:?}"
            );
        }
        // Where each element checks its windows, one element a thread.
        let per_element = DeviceFacts {
            per_element: true,
            ..DEVICE
        };
        let lowered = entries(&scatter_rows(data_type, 4097), &per_element);
        assert!(lowered.contains(&Entry::Scatter), "{lowered:?}");
        let lowered = entries(&gather_rows(data_type, 4097), &per_element);
        assert!(lowered.contains(&Entry::Gather), "{lowered:?}");
    }
}

#[test]
fn scatters_along_an_inner_axis_copy_rows_in_their_kernel_where_copies_run_as_kernels() {
    let fusing = DeviceFacts {
        copies_in_kernels: true,
        ..DEVICE
    };
    let along = |data_type, output: &[u32], updates: &[u32], axis| {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, output),
            TensorDesc::new(DataType::Int64, updates),
            TensorDesc::new(data_type, updates),
            TensorDesc::new(data_type, output),
            axis,
        )
    };
    let f32_rows = along(DataType::Float32, &[64, 8192], &[64, 4096], 1);
    // Out of place the copying kernel, in place the plain one; no copy step.
    assert_eq!(
        entries(&f32_rows, &fusing),
        [
            Entry::ScatterCopyRows,
            Entry::ScatterBlocks,
            Entry::DescribeStatus
        ]
    );
    // Narrow elements too, rows of whole words or not (their end words shared).
    for (data_type, columns) in [
        (DataType::Float16, 8192),
        (DataType::Int8, 4097),
        (DataType::Int8, 4098),
    ] {
        let narrow = along(data_type, &[63, columns], &[63, 2048], 1);
        let lowered = entries(&narrow, &fusing);
        assert_eq!(
            lowered[0],
            Entry::ScatterCopyRows,
            "{narrow:?}: {lowered:?}"
        );
    }
    for (desc, device) in [
        // The device copies faster by command.
        (f32_rows.clone(), DEVICE),
        // Each element checks its windows.
        (
            f32_rows.clone(),
            DeviceFacts {
                per_element: true,
                ..fusing
            },
        ),
        // Along the outer axis every update may land in any row.
        (
            along(DataType::Float32, &[64, 8192], &[32, 8192], 0),
            fusing,
        ),
        // Rows larger than workgroup memory, or shorter than a workgroup.
        (along(DataType::Float32, &[4, 12289], &[4, 100], 1), fusing),
        (
            along(DataType::Float32, &[4096, 100], &[4096, 50], 1),
            fusing,
        ),
    ] {
        let lowered = entries(&desc, &device);
        assert!(!lowered.contains(&Entry::ScatterCopyRows), "{desc:?}");
        assert!(
            lowered.contains(&Entry::StridedCopyBlocks) || lowered.contains(&Entry::StridedCopy),
            "{desc:?}: {lowered:?}"
        );
    }
}

#[test]
fn narrow_scatters_along_an_inner_axis_in_place_take_a_workgroup_a_row_where_rows_are_dense() {
    let along = |data_type, output: &[u32], updates: &[u32], axis| {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, output),
            TensorDesc::new(DataType::Int32, updates),
            TensorDesc::new(data_type, updates),
            TensorDesc::new(data_type, output),
            axis,
        )
    };
    let in_place = |desc: &ScatterElementsDesc, device: &DeviceFacts| -> Vec<Entry> {
        let lowered = desc.lower(device).expect("lowered");
        lowered
            .steps
            .iter()
            .filter(|step| step.placement.runs(true))
            .map(|step| step.entry)
            .collect()
    };
    let fusing = DeviceFacts {
        copies_in_kernels: true,
        ..DEVICE
    };
    // Whatever the copy method: in place there is no copy.
    for device in [DEVICE, fusing] {
        // Rows of whole words or not; an eighth of the row in updates is enough.
        for (data_type, columns, updates) in [
            (DataType::Float16, 8192, 1024),
            (DataType::Int8, 4097, 4097),
            (DataType::UInt8, 4099, 513),
        ] {
            let desc = along(data_type, &[63, columns], &[61, updates], 1);
            assert_eq!(
                in_place(&desc, &device),
                [Entry::ScatterRowsInPlace, Entry::DescribeStatus],
                "{desc:?}"
            );
        }
        // Sparse rows, 4-byte units, the outer axis, rows shorter than a workgroup: the
        // plain passes.
        for desc in [
            along(DataType::Int8, &[63, 4099], &[61, 512], 1),
            along(DataType::Float32, &[63, 4096], &[61, 4096], 1),
            along(DataType::Int8, &[63, 4096], &[61, 4096], 0),
            along(DataType::Int8, &[4096, 100], &[4096, 100], 1),
        ] {
            let lowered = in_place(&desc, &device);
            assert!(
                !lowered.contains(&Entry::ScatterRowsInPlace),
                "{desc:?}: {lowered:?}"
            );
        }
    }
}

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
fn float32_add_takes_the_float_atomics_past_the_bins_where_updates_are_many() {
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
            128,
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

/// The column-block width (0: row-major) of `operator`'s dispatch of `entry`.
fn tile(operator: &dyn Operator, entry: Entry) -> u32 {
    let lowered = operator.lower(&DEVICE).expect("lowered");
    lowered
        .steps
        .iter()
        .find_map(|step| match &step.params {
            crate::kernels::params::Parameters::Index(params) if step.entry == entry => {
                Some(params.tile)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {entry:?} in {:?}", lowered.steps))
}

#[test]
fn narrow_gathers_walk_rows_in_order_where_scatters_and_wider_gathers_take_column_blocks() {
    // Rows of 256 along axis 0, an index an element: where column blocks would apply.
    for data_type in [DataType::UInt8, DataType::Float16] {
        assert_eq!(tile(&gather_rows(data_type, 256), Entry::GatherWords), 0);
        assert!(tile(&scatter_rows(data_type, 256), Entry::ScatterWords) > 0);
    }
    assert!(tile(&gather_rows(DataType::Float32, 256), Entry::GatherRows) > 0);
}

#[test]
fn any_order_reductions_take_one_update_a_thread_up_to_two_to_the_seventeenth_threads() {
    use crate::kernels::params::Parameters;
    use crate::lowering::Grid;
    use crate::ops::Reduction;
    // Then up to 16 a thread (scatter_reduce, and scatter_reduce_wide alike), the threads
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
