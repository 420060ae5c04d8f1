//! Lowering tests of the scatter reductions by rows: where rows go unit by unit (few against
//! the output, or crowded onto it) or are sorted and combined, the lists' ties
//! (`src/ops/scatter_lowering.rs`, `scatter_plans.rs`, `scatter_lists.rs`).

use crate::kernels::Entry;
use crate::lowering::DeviceFacts;
use crate::ops::Operator;
use crate::ops::index_map::tests::{DEVICE, GPU, entries};
use crate::tensor::{DataType, TensorDesc};

#[test]
fn sparse_rows_go_unit_by_unit_where_the_output_dwarfs_them() {
    use crate::lowering::Int64Atomics;
    use crate::ops::{DuplicateMode, Reduction};
    // Rows of 64 units into a table past the bins: where the updates' units are at most a
    // 32nd of the output's (units of 4 and 8 bytes) or a 64th (narrower), no lists: the
    // copy, then the element path (Float32 Min and Max by the loop, no screen); one row more,
    // by rows (the lists, or the sort where Float16's in-order ties would need more tie
    // words than the lists keep). Additions in order of Float16 sort either way.
    let wide_atomics = DeviceFacts {
        int64_atomics: Int64Atomics::All,
        ..DEVICE
    };
    let rows = rows_of_64;
    let copies = |lowered: &[Entry]| lowered.iter().any(|e| e.name().starts_with("strided_copy"));
    let (any, ordered) = (DuplicateMode::AnyUpdate, DuplicateMode::InOrder);
    let (float16, float32, float64) = (DataType::Float16, DataType::Float32, DataType::Float64);
    let (add, min, max) = (Reduction::Add, Reduction::Min, Reduction::Max);
    // (type, table rows, the most rows of updates that go unit by unit, reduction, mode, an
    // entry of the element path)
    for (data_type, table, sparse, reduction, duplicates, unit_entry) in [
        (float32, 4096, 128, max, any, Entry::ScatterReduce),
        (float32, 4096, 128, min, ordered, Entry::WriteTies),
        (float32, 4096, 128, add, any, Entry::ScatterReduce),
        (float16, 4096, 64, add, any, Entry::ScatterReduce),
        (float16, 4096, 64, max, ordered, Entry::WriteTies),
        (float64, 4096, 128, add, any, Entry::ScatterReduceWide),
    ] {
        let case = format!("{data_type:?} {reduction:?} {duplicates:?}");
        let lowered = entries(
            &rows(data_type, table, sparse, reduction, duplicates),
            &wide_atomics,
        );
        assert!(
            lowered.contains(&unit_entry)
                && !lowered.contains(&Entry::LinkSlices)
                && !lowered.contains(&Entry::RadixCount)
                && !lowered.contains(&Entry::ScreenOutput)
                && copies(&lowered),
            "{case}, {sparse} rows into {table}: {lowered:?}"
        );
        let lowered = entries(
            &rows(data_type, table, sparse + 1, reduction, duplicates),
            &wide_atomics,
        );
        assert!(
            (lowered.contains(&Entry::LinkSlices) || lowered.contains(&Entry::RadixCount))
                && !lowered.contains(&unit_entry),
            "{case}, {} rows into {table}: {lowered:?}",
            sparse + 1
        );
    }
    let lowered = entries(&rows(float16, 4096, 8, add, ordered), &wide_atomics);
    assert!(lowered.contains(&Entry::RadixCount), "{lowered:?}");
}

#[test]
fn list_ties_settle_in_the_first_pass_and_leave_the_tie_words_uncleared() {
    use crate::kernels::params::Parameters;
    use crate::lowering::Grid;
    use crate::ops::{DuplicateMode, Reduction, ScatterNdDesc};
    // Float32 Max in order of rows of 64 into a table of 1024 rows (128 for 32 rows, within
    // the tie words' bound of 4 an update unit): the lists, at most a
    // bound of rows a block (32: four times the mean, at least 32), the rest set aside. Where
    // no block can pass the bound, no pass settles ties after the first; where some can, the
    // units of at most `slices / 33` blocks are settled after the rows set aside (a thread
    // each). The clear stops before the tie words (4 bytes an output unit), which only the
    // first pass writes.
    for (table, updates, tie_threads) in [
        (128u32, 32u32, None),
        (1024, 512, Some(15 * 64u64)),
        (1024, 8192, Some(248 * 64)),
    ] {
        let desc = ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[table, 64]),
            TensorDesc::new(DataType::Int64, &[updates, 1]),
            TensorDesc::new(DataType::Float32, &[updates, 64]),
            TensorDesc::new(DataType::Float32, &[table, 64]),
            2,
            2,
        )
        .with_reduction(Reduction::Max)
        .with_duplicates(DuplicateMode::InOrder);
        let lowered = desc.lower(&DEVICE).expect("lowered");
        let find = |entry| lowered.steps.iter().find(|step| step.entry == entry);
        assert!(find(Entry::LinkSlices).is_some(), "{updates} rows");
        assert!(find(Entry::WriteUnitTies).is_none(), "{updates} rows");
        let settled = find(Entry::WriteListTies).map(|step| match step.grid {
            Grid::Flat(threads) => threads,
            Grid::Planes(_) => panic!("planes"),
        });
        assert_eq!(settled, tie_threads, "{updates} rows");
        let cleared = match &find(Entry::ClearHeads).expect("clear").params {
            Parameters::Index(params) => params.count as u64,
            Parameters::StridedCopy(_) => panic!("a copy's parameters"),
        };
        assert_eq!(
            cleared * 4 + table as u64 * 64 * 4,
            lowered.scratch_bytes,
            "{updates} rows"
        );
    }
}

#[test]
fn crowded_rows_are_sorted_and_combined_or_go_unit_by_unit_and_float32_rows_take_the_atomics() {
    use crate::lowering::Int64Atomics;
    use crate::ops::{DuplicateMode, Reduction};
    // Rows of 64 units in any order: narrow units onto more than 2048 units by the lists
    // below 128 rows a table row on average, sorted by table row and combined across
    // workgroups from 128 on, however many (no lists, no unit-by-unit pass, no runs found);
    // onto the bins' 2048 units or fewer, the lists up to 512 and the bins past them;
    // Float64 (every 64-bit atomic) the same way past 2048 units, onto fewer by the lists up
    // to 512 a row, past them unit by unit (the 8-byte slots); in order, the sort and its
    // runs (Float32 Max's tie claims too: the lists only below 64 a row).
    let device = DeviceFacts {
        int64_atomics: Int64Atomics::All,
        float32_atomics: true,
        ..GPU
    };
    let rows = rows_of_64;
    let (any, ordered) = (DuplicateMode::AnyUpdate, DuplicateMode::InOrder);
    let (add, max) = (Reduction::Add, Reduction::Max);
    let sorted_rows = |entries: &[Entry]| {
        entries.contains(&Entry::RadixCount)
            && entries.last() == Some(&Entry::ReduceSortedRows)
            && !entries.iter().any(|entry| {
                matches!(
                    entry,
                    Entry::LinkSlices
                        | Entry::FindRuns
                        | Entry::ScatterReduceBins
                        | Entry::ScatterReduce
                        | Entry::FoldSlices
                        | Entry::FoldSliceColumns
                )
            })
    };
    for (data_type, reduction, table) in [
        (DataType::Float16, add, 64),
        (DataType::Float32, max, 33),
        (DataType::Int32, add, 256),
        (DataType::UInt8, Reduction::Mul, 128),
    ] {
        let case = format!("{data_type:?} {reduction:?} into {table}");
        let below = entries(
            &rows(data_type, table, 127 * table, reduction, any),
            &device,
        );
        assert!(
            below.contains(&Entry::LinkSlices) && !below.contains(&Entry::RadixCount),
            "{case}, 127 rows a row: {below:?}"
        );
        for mean in [128, 513, 4096] {
            let sorted = entries(
                &rows(data_type, table, mean * table, reduction, any),
                &device,
            );
            assert!(
                sorted_rows(&sorted),
                "{case}, {mean} rows a row: {sorted:?}"
            );
        }
        if data_type.is_float() {
            let in_order = entries(
                &rows(data_type, table, 600 * table, reduction, ordered),
                &device,
            );
            assert!(
                in_order.contains(&Entry::FindRuns) && !in_order.contains(&Entry::ReduceSortedRows),
                "{case} in order: {in_order:?}"
            );
        }
    }
    for (data_type, reduction, table) in [(DataType::Float16, add, 4), (DataType::Float32, max, 32)]
    {
        let case = format!("{data_type:?} {reduction:?} into {table}");
        let at_most = entries(
            &rows(data_type, table, 512 * table, reduction, any),
            &device,
        );
        let past = entries(
            &rows(data_type, table, 513 * table, reduction, any),
            &device,
        );
        assert!(
            at_most.contains(&Entry::LinkSlices)
                && past.contains(&Entry::ScatterReduceBins)
                && !past.contains(&Entry::LinkSlices)
                && !past.contains(&Entry::RadixCount),
            "{case}, 512 rows a row: {at_most:?}; 513: {past:?}"
        );
    }
    let float64 = |table, updates, device: &DeviceFacts| {
        entries(&rows(DataType::Float64, table, updates, add, any), device)
    };
    let at_most = float64(4, 512 * 4, &device);
    let past = float64(4, 513 * 4, &device);
    assert!(
        at_most.contains(&Entry::LinkSlices)
            && past.contains(&Entry::ScatterReduceWide)
            && !past.contains(&Entry::LinkSlices)
            && !past.contains(&Entry::ReduceSortedRows),
        "Float64 512 rows a row: {at_most:?}; 513: {past:?}"
    );
    // Past the bins' 2048 output units, Float64 rows crowded 128 a row and more are sorted
    // and combined by 64-bit atomics where the device has them all (`RowsWide`), 127 a row
    // take the lists; without every 64-bit atomic, the lists however crowded. Onto at most
    // 4096 units, 8-byte rows without 64-bit atomics take the element sort where the device
    // can sort, else the lists; narrow rows on a device that cannot sort, the lists or unit
    // by unit as before.
    let without_atomics = DeviceFacts {
        int64_atomics: Int64Atomics::None,
        ..device
    };
    let min_max_atomics = DeviceFacts {
        int64_atomics: Int64Atomics::MinMax,
        ..device
    };
    for table in [33, 64, 128] {
        let wide = float64(table, 128 * table, &device);
        assert!(
            sorted_rows(&wide)
                && wide.contains(&Entry::ReduceSortedRows)
                && !wide.contains(&Entry::LinkSlices),
            "Float64 onto {table} rows of 64: {wide:?}"
        );
        let below = float64(table, 127 * table, &device);
        assert!(
            below.contains(&Entry::LinkSlices) && !below.contains(&Entry::RadixCount),
            "Float64 127 rows a row onto {table}: {below:?}"
        );
    }
    for facts in [without_atomics, min_max_atomics] {
        let listed = float64(128, 600 * 128, &facts);
        assert!(
            listed.contains(&Entry::LinkSlices) && !listed.contains(&Entry::ReduceSortedRows),
            "Float64 onto 8192 units, {:?}: {listed:?}",
            facts.int64_atomics
        );
    }
    let sorted = float64(4, 600 * 4, &without_atomics);
    assert!(
        sorted.contains(&Entry::RadixCount) && !sorted.contains(&Entry::LinkSlices),
        "Float64 without 64-bit atomics: {sorted:?}"
    );
    let unsortable = DeviceFacts {
        workgroup_size: 48,
        ..without_atomics
    };
    let listed = float64(4, 600 * 4, &unsortable);
    assert!(
        listed.contains(&Entry::LinkSlices),
        "Float64 without 64-bit atomics, a workgroup of 48: {listed:?}"
    );
    let narrow = entries(&rows(DataType::Float16, 4, 600 * 4, add, any), &unsortable);
    assert!(
        narrow.contains(&Entry::ScatterReduceBins) && !narrow.contains(&Entry::RadixCount),
        "Float16, a workgroup of 48: {narrow:?}"
    );
    // A downlevel device (4 storage buffers a stage, fewer than the in-order kernel's 6) keeps
    // the element path for crowded narrow rows onto 4096 units (the bins' ranges), as before.
    let downlevel = DeviceFacts {
        bindings: Some(crate::lowering::BindingFacts {
            bytes: [1 << 20; crate::kernels::ROLES],
            max_storage_buffer_binding_size: 1 << 27,
            min_storage_buffer_offset_alignment: 256,
            max_storage_buffers_per_shader_stage: 4,
        }),
        ..device
    };
    let crowded = rows(DataType::Float16, 64, 600 * 64, add, any);
    let kept = entries(&crowded, &downlevel);
    assert!(
        kept.contains(&Entry::ScatterReduceBins) && !kept.contains(&Entry::RadixCount),
        "Float16 onto 4096 units, 4 storage buffers: {kept:?}"
    );
    assert!(
        sorted_rows(&entries(&crowded, &device)),
        "the same, unlimited"
    );
    // Float32 Add of rows that the f32 atomics may take: more than 16 rows a table row by the
    // atomics (here past the bins, 16,384 units), not the lists; without f32 atomics the
    // lists up to 127 and sorted from 128.
    let without = DeviceFacts {
        float32_atomics: false,
        ..device
    };
    let at_most = entries(&rows(DataType::Float32, 256, 16 * 256, add, any), &device);
    let past = entries(&rows(DataType::Float32, 256, 17 * 256, add, any), &device);
    let listed = entries(&rows(DataType::Float32, 256, 17 * 256, add, any), &without);
    let below = entries(&rows(DataType::Float32, 256, 127 * 256, add, any), &without);
    let sorted = entries(&rows(DataType::Float32, 256, 128 * 256, add, any), &without);
    assert!(
        below.contains(&Entry::LinkSlices) && sorted_rows(&sorted),
        "without f32 atomics, 127 rows a row: {below:?}; 128: {sorted:?}"
    );
    assert!(
        at_most.contains(&Entry::LinkSlices)
            && past.contains(&Entry::ScatterAddFloatAtomics)
            && !past.contains(&Entry::LinkSlices)
            && listed.contains(&Entry::LinkSlices),
        "16 rows a row: {at_most:?}; 17: {past:?}; 17 without f32 atomics: {listed:?}"
    );
    // Crowded Float32 Add (64 and 256 table rows, 600 rows a row) by the f32 atomics where the
    // device has them; without them, sorted.
    for table in [64, 256] {
        let desc = rows(DataType::Float32, table, 600 * table, add, any);
        let atomics = entries(&desc, &device);
        assert!(
            atomics.contains(&Entry::ScatterAddFloatAtomics)
                && !atomics.contains(&Entry::ScatterReduceBins)
                && !atomics.contains(&Entry::RadixCount),
            "into {table}: {atomics:?}"
        );
        let lowered = entries(&desc, &without);
        assert!(
            sorted_rows(&lowered),
            "into {table} without f32 atomics: {lowered:?}"
        );
    }
}

#[test]
fn rows_of_a_thousand_units_and_more_are_sorted_from_64_a_block() {
    use crate::lowering::Int64Atomics;
    use crate::ops::{DuplicateMode, Reduction};
    // Onto 4 table rows of 1024 units (past the bins' 2048): 63 rows a table row by the
    // lists, 64 sorted and combined (Float16, and Float64 by 64-bit atomics); rows of 1023
    // units still by the lists at 64 and 127 a row, sorted from 128.
    let device = DeviceFacts {
        int64_atomics: Int64Atomics::All,
        ..GPU
    };
    let (add, any) = (Reduction::Add, DuplicateMode::AnyUpdate);
    let listed = |lowered: &[Entry]| {
        lowered.contains(&Entry::LinkSlices) && !lowered.contains(&Entry::ReduceSortedRows)
    };
    let sorted = |lowered: &[Entry]| {
        lowered.contains(&Entry::RadixCount)
            && lowered.last() == Some(&Entry::ReduceSortedRows)
            && !lowered.contains(&Entry::LinkSlices)
    };
    for data_type in [DataType::Float16, DataType::Float64] {
        let lowered = |width: u32, mean: u32| {
            entries(&rows_of(width, data_type, 4, mean * 4, add, any), &device)
        };
        for (width, below, from) in [(1024, 63, 64), (1023, 127, 128)] {
            let (under, at) = (lowered(width, below), lowered(width, from));
            assert!(
                listed(&under) && sorted(&at),
                "{data_type:?} rows of {width}, {below} a row: {under:?}; {from}: {at:?}"
            );
        }
        let short = lowered(1023, 64);
        assert!(
            listed(&short),
            "{data_type:?} rows of 1023, 64 a row: {short:?}"
        );
    }
}

/// ScatterND of `updates` rows of 64 units (Int64 indices) into a table of `table` rows.
fn rows_of_64(
    data_type: DataType,
    table: u32,
    updates: u32,
    reduction: crate::ops::Reduction,
    duplicates: crate::ops::DuplicateMode,
) -> crate::ops::ScatterNdDesc {
    rows_of(64, data_type, table, updates, reduction, duplicates)
}

/// ScatterND of `updates` rows of `width` units (Int64 indices) into a table of `table` rows.
fn rows_of(
    width: u32,
    data_type: DataType,
    table: u32,
    updates: u32,
    reduction: crate::ops::Reduction,
    duplicates: crate::ops::DuplicateMode,
) -> crate::ops::ScatterNdDesc {
    crate::ops::ScatterNdDesc::new(
        TensorDesc::new(data_type, &[table, width]),
        TensorDesc::new(DataType::Int64, &[updates, 1]),
        TensorDesc::new(data_type, &[updates, width]),
        TensorDesc::new(data_type, &[table, width]),
        2,
        2,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
}
