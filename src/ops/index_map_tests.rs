//! Lowering tests of the scatters and gathers: which entry points each shape, layout and
//! device takes (`src/ops/index_map.rs`, `scatter_any_update.rs`, `gather.rs`); the
//! reductions' in `scatter_lowering_tests.rs`, with the device and helper declared here.

use super::super::Operator;
use crate::kernels::Entry;
use crate::lowering::DeviceFacts;
use crate::ops::{GatherElementsDesc, ScatterElementsDesc};
use crate::tensor::{DataType, TensorDesc};

pub(crate) const DEVICE: DeviceFacts = DeviceFacts {
    unit_alignment: 16,
    workgroup_size: 256,
    row_threads: 1024,
    max_workgroup_storage_bytes: 49152,
    max_workgroups_per_dimension: 65535,
    copies_in_kernels: false,
    int64_atomics: crate::lowering::Int64Atomics::None,
    hardware_float64: false,
    float32_atomics: false,
    bounded_loops: true,
    per_element: false,
    bindings: None,
};

/// `DEVICE` as a GPU: loops unbounded (`DeviceFacts::bounded_loops`).
pub(crate) const GPU: DeviceFacts = DeviceFacts {
    bounded_loops: false,
    ..DEVICE
};

pub(crate) fn entries(operator: &dyn Operator, device: &DeviceFacts) -> Vec<Entry> {
    operator
        .lower(device)
        .expect("lowered")
        .steps
        .iter()
        .map(|step| step.entry)
        .collect()
}

pub(crate) fn scatter_rows(data_type: DataType, row: u32) -> ScatterElementsDesc {
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
