//! Every operator validation rule, one test per rule: a valid descriptor of each operator
//! with one thing changed is rejected with that rule's [`Error`], by `validate` and by
//! `compile` alike, before any GPU work (TensorDesc's own rules: tests/tensor.rs).
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::context;
use dml_wgsl::{
    DataType, Error, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc, reference,
};

/// The error `desc` is rejected with: `validate` returns it, and `compile` the same one.
fn rejection(desc: impl Into<OperatorDesc>) -> Error {
    let desc = desc.into();
    let e = desc.validate().expect_err("the descriptor breaks a rule");
    assert_eq!(context().compile(&desc).expect_err("compile"), e);
    e
}

/// `assert_rejects!(desc => pattern)`: `desc` is rejected (see [`rejection`]) with an error
/// matching `pattern`.
macro_rules! assert_rejects {
    ($desc:expr => $pattern:pat) => {{
        let e = rejection($desc);
        assert!(matches!(e, $pattern), "{e}");
    }};
}

/// `desc` with `change` made.
fn changed<D>(mut desc: D, change: impl FnOnce(&mut D)) -> D {
    change(&mut desc);
    desc
}

// ---- Slice and Slice1 ----

fn valid_slice() -> SliceDesc {
    SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[2, 2]),
        &[1, 0],
        &[2, 2],
        &[1, 2],
    )
}

fn valid_slice1() -> Slice1Desc {
    Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[2, 2]),
        &[1, 0],
        &[2, 4],
        &[1, -2],
    )
}

#[test]
fn the_valid_slice_descriptors_pass() {
    OperatorDesc::Slice(valid_slice()).validate().unwrap();
    OperatorDesc::Slice1(valid_slice1()).validate().unwrap();
}

#[test]
fn slice_output_data_type_must_match_input() {
    assert_rejects!(
        changed(valid_slice(), |d| d.output.data_type = DataType::Int32)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
}

#[test]
fn slice_output_rank_must_match_input() {
    assert_rejects!(
        changed(valid_slice(), |d| {
            d.output = TensorDesc::new(DataType::Float32, &[1, 2, 2]);
        })
            => Error::RankMismatch { tensor: "output", actual: 3, expected: 2, .. }
    );
}

#[test]
fn slice_parameter_arrays_need_one_value_per_dimension() {
    assert_rejects!(
        changed(valid_slice(), |d| d.offsets = vec![1])
            => Error::ParameterLength { field: "offsets", actual: 1, expected: 2, .. }
    );
    assert_rejects!(
        changed(valid_slice(), |d| d.sizes = vec![2, 2, 1])
            => Error::ParameterLength { field: "sizes", .. }
    );
    assert_rejects!(
        changed(valid_slice(), |d| d.strides = vec![])
            => Error::ParameterLength { field: "strides", .. }
    );
}

#[test]
fn slice_strides_must_be_positive() {
    assert_rejects!(
        changed(valid_slice(), |d| d.strides[1] = 0)
            => Error::InvalidParameter { field: "strides", dimension: 1, value: 0, .. }
    );
}

#[test]
fn slice_sizes_must_equal_the_output_sizes() {
    assert_rejects!(
        changed(valid_slice(), |d| d.sizes[0] = 1)
            => Error::SizeMismatch { tensor: "output", dimension: 0, actual: 2, expected: 1, .. }
    );
}

#[test]
fn slice_reads_must_stay_inside_the_input() {
    assert_rejects!(
        changed(valid_slice(), |d| d.offsets[0] = 3)
            => Error::ReadOutOfBounds { dimension: 0, last: 4, input_size: 4 }
    );
    assert_rejects!(
        changed(valid_slice(), |d| d.strides[1] = 4)
            => Error::ReadOutOfBounds { dimension: 1, last: 4, .. }
    );
}

#[test]
fn slice_dimensions_of_size_0_read_nothing_at_any_offset() {
    let empty = changed(valid_slice(), |d| {
        d.sizes[0] = 0;
        d.output.sizes[0] = 0;
        d.offsets[0] = u32::MAX;
    });
    OperatorDesc::Slice(empty.clone()).validate().unwrap();
    // The other dimensions' reads are still checked.
    assert_rejects!(
        changed(empty, |d| d.offsets[1] = 3)
            => Error::ReadOutOfBounds { dimension: 1, last: 5, input_size: 4 }
    );
}

#[test]
fn slice_offsets_near_u32_max_do_not_overflow_the_bounds_check() {
    assert_rejects!(
        changed(valid_slice(), |d| {
            d.offsets[0] = u32::MAX;
            d.strides[0] = u32::MAX;
        })
            => Error::ReadOutOfBounds { dimension: 0, .. }
    );
}

#[test]
fn slice1_output_data_type_and_rank_must_match_input() {
    assert_rejects!(
        changed(valid_slice1(), |d| d.output.data_type = DataType::Float16)
            => Error::DataTypeMismatch { .. }
    );
    assert_rejects!(
        changed(valid_slice1(), |d| d.output = TensorDesc::new(DataType::Float32, &[4]))
            => Error::RankMismatch { .. }
    );
}

#[test]
fn slice1_parameter_arrays_need_one_value_per_dimension() {
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_offsets = vec![0])
            => Error::ParameterLength { field: "input_window_offsets", .. }
    );
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_sizes = vec![0, 0, 0])
            => Error::ParameterLength { field: "input_window_sizes", .. }
    );
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_strides = vec![1])
            => Error::ParameterLength { field: "input_window_strides", .. }
    );
}

#[test]
fn slice1_strides_must_be_non_zero() {
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_strides[0] = 0)
            => Error::InvalidParameter { field: "input_window_strides", dimension: 0, .. }
    );
}

#[test]
fn slice1_windows_may_be_empty_up_to_the_dimensions_end() {
    // ONNX's test_slice_start_out_of_bounds, its start clamped: an empty window at the end.
    let onnx = Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[20, 10, 5]),
        TensorDesc::new(DataType::Float32, &[20, 0, 5]),
        &[0, 10, 0],
        &[20, 0, 5],
        &[1, -1, 1],
    );
    OperatorDesc::Slice1(onnx.clone()).validate().unwrap();
    // Past the end it is still outside the input, and the output's size still ceil(0 / 1).
    assert_rejects!(
        changed(onnx.clone(), |d| d.input_window_offsets[1] = 11)
            => Error::ReadOutOfBounds { dimension: 1, last: 10, input_size: 10 }
    );
    assert_rejects!(
        changed(onnx, |d| d.output.sizes[1] = 1)
            => Error::SizeMismatch { tensor: "output", dimension: 1, actual: 1, expected: 0, .. }
    );
}

#[test]
fn slice1_window_must_lie_inside_the_input() {
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_offsets[1] = 1)
            => Error::ReadOutOfBounds { dimension: 1, last: 4, input_size: 4 }
    );
}

#[test]
fn slice1_output_sizes_are_the_window_over_the_stride_rounded_up() {
    assert_rejects!(
        changed(valid_slice1(), |d| d.input_window_strides[1] = -1)
            => Error::SizeMismatch { tensor: "output", dimension: 1, actual: 2, .. }
    );
}

// ---- Gather, GatherElements and GatherND ----

fn valid_gather() -> GatherDesc {
    GatherDesc::new(
        TensorDesc::new(DataType::Float32, &[1, 4, 5]),
        TensorDesc::new(DataType::Int32, &[1, 2, 3]),
        TensorDesc::new(DataType::Float32, &[2, 3, 5]),
        1, // axis
        2, // index_dimensions
    )
}

fn valid_gather_elements() -> GatherElementsDesc {
    GatherElementsDesc::new(
        TensorDesc::new(DataType::UInt8, &[4, 5]),
        TensorDesc::new(DataType::UInt64, &[7, 5]),
        TensorDesc::new(DataType::UInt8, &[7, 5]),
        0, // axis
    )
}

fn valid_gather_nd() -> GatherNdDesc {
    GatherNdDesc::new(
        TensorDesc::new(DataType::Float16, &[1, 3, 4, 5]),
        TensorDesc::new(DataType::Int64, &[1, 3, 2, 1]),
        TensorDesc::new(DataType::Float16, &[1, 3, 2, 5]),
        3, // input_dimension_count
        3, // indices_dimension_count
        1, // batch_dimension_count
    )
}

#[test]
fn the_valid_gather_descriptors_pass() {
    OperatorDesc::Gather(valid_gather()).validate().unwrap();
    OperatorDesc::GatherElements(valid_gather_elements())
        .validate()
        .unwrap();
    OperatorDesc::GatherNd(valid_gather_nd())
        .validate()
        .unwrap();
}

#[test]
fn gather_indices_must_be_32_or_64_bit_integers() {
    assert_rejects!(
        changed(valid_gather(), |d| d.indices.data_type = DataType::Float32)
            => Error::UnsupportedDataType { tensor: "indices", .. }
    );
    assert_rejects!(
        changed(valid_gather_elements(), |d| d.indices.data_type = DataType::UInt16)
            => Error::UnsupportedDataType { tensor: "indices", .. }
    );
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.indices.data_type = DataType::Int8)
            => Error::UnsupportedDataType { tensor: "indices", .. }
    );
}

#[test]
fn gather_output_has_the_input_data_type() {
    assert_rejects!(
        changed(valid_gather(), |d| d.output.data_type = DataType::Int32)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
    assert_rejects!(
        changed(valid_gather_elements(), |d| d.output.data_type = DataType::Int8)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.output.data_type = DataType::UInt16)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
}

#[test]
fn gather_tensors_share_the_input_rank() {
    assert_rejects!(
        changed(valid_gather(), |d| d.indices = TensorDesc::new(DataType::Int32, &[2, 3]))
            => Error::RankMismatch { tensor: "indices", .. }
    );
    assert_rejects!(
        changed(valid_gather(), |d| d.output = TensorDesc::new(DataType::Float32, &[1, 2, 3, 5]))
            => Error::RankMismatch { tensor: "output", .. }
    );
    assert_rejects!(
        changed(valid_gather_elements(), |d| d.indices = TensorDesc::new(DataType::UInt64, &[35]))
            => Error::RankMismatch { tensor: "indices", .. }
    );
    assert_rejects!(
        changed(valid_gather_elements(), |d| d.output = TensorDesc::new(DataType::UInt8, &[35]))
            => Error::RankMismatch { tensor: "output", .. }
    );
}

#[test]
fn gather_axis_is_below_the_rank() {
    assert_eq!(
        rejection(changed(valid_gather(), |d| d.axis = 3)),
        Error::AxisOutOfRange { axis: 3, rank: 3 }
    );
    assert_eq!(
        rejection(changed(valid_gather_elements(), |d| d.axis = 2)),
        Error::AxisOutOfRange { axis: 2, rank: 2 }
    );
}

#[test]
fn gather_index_dimensions_are_at_most_the_indices_rank() {
    assert_rejects!(
        changed(valid_gather(), |d| d.index_dimensions = 4)
            => Error::DimensionCount { field: "index_dimensions", value: 4, max: 3, .. }
    );
}

#[test]
fn gather_indices_before_the_index_dimensions_are_size_1() {
    assert_rejects!(
        changed(valid_gather(), |d| d.index_dimensions = 1)
            => Error::SizeMismatch { tensor: "indices", dimension: 1, actual: 2, expected: 1, .. }
    );
}

#[test]
fn gather_output_sizes_are_the_gathered_sizes_right_aligned() {
    assert_rejects!(
        changed(valid_gather(), |d| d.output.sizes = vec![2, 3, 4])
            => Error::SizeMismatch { tensor: "output", dimension: 2, actual: 4, expected: 5, .. }
    );
    // Without a leading 1 to crop, four gathered sizes cannot fit rank 3.
    assert_rejects!(
        changed(valid_gather(), |d| {
            d.input.sizes = vec![2, 4, 5];
        })
            => Error::RankMismatch { tensor: "output", actual: 3, expected: 4, .. }
    );
}

#[test]
fn gather_elements_output_sizes_equal_the_indices_sizes() {
    assert_rejects!(
        changed(valid_gather_elements(), |d| d.output.sizes = vec![7, 4])
            => Error::SizeMismatch { tensor: "output", dimension: 1, actual: 4, expected: 5, .. }
    );
}

#[test]
fn gather_elements_indices_fit_the_input_outside_the_axis() {
    assert_rejects!(
        changed(valid_gather_elements(), |d| {
            d.indices.sizes = vec![7, 6];
            d.output.sizes = vec![7, 6];
        })
            => Error::SizeTooLarge { tensor: "indices", dimension: 1, actual: 6, limit: 5, .. }
    );
}

#[test]
fn gather_nd_dimension_counts_lie_between_1_and_the_rank() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.input_dimension_count = 0)
            => Error::DimensionCount { field: "input_dimension_count", .. }
    );
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.indices_dimension_count = 5)
            => Error::DimensionCount { field: "indices_dimension_count", value: 5, max: 4, .. }
    );
}

#[test]
fn gather_nd_batches_are_fewer_than_both_dimension_counts() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.batch_dimension_count = 3)
            => Error::InvalidParameter { field: "batch_dimension_count", value: 3, .. }
    );
}

#[test]
fn gather_nd_dimensions_before_the_counts_are_size_1() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.input.sizes[0] = 2)
            => Error::SizeMismatch { tensor: "input", dimension: 0, .. }
    );
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.indices.sizes[0] = 2)
            => Error::SizeMismatch { tensor: "indices", dimension: 0, .. }
    );
}

#[test]
fn gather_nd_batch_sizes_match_between_input_and_indices() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| {
            d.indices.sizes[1] = 2;
            d.output.sizes[1] = 2;
        })
            => Error::SizeMismatch { tensor: "indices", dimension: 1, actual: 2, expected: 3, .. }
    );
}

#[test]
fn gather_nd_tuple_size_fits_after_the_batches() {
    assert_eq!(
        rejection(changed(valid_gather_nd(), |d| {
            d.indices.sizes[3] = 3;
            d.output.sizes = vec![1, 1, 3, 2];
        })),
        Error::TupleSize { value: 3, max: 2 }
    );
}

#[test]
fn gather_nd_index_tuples_have_at_least_one_component() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.indices.sizes[3] = 0)
            => Error::ZeroSize { tensor: "indices", dimension: 3, .. }
    );
}

#[test]
fn gather_nd_output_sizes_are_the_indices_then_the_input_trailing_sizes() {
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.output.sizes = vec![1, 3, 2, 4])
            => Error::SizeMismatch { tensor: "output", dimension: 3, actual: 4, expected: 5, .. }
    );
    assert_rejects!(
        changed(valid_gather_nd(), |d| d.output = TensorDesc::new(DataType::Float16, &[30]))
            => Error::RankMismatch { tensor: "output", .. }
    );
}

// ---- ScatterElements and ScatterND ----

fn valid_scatter_elements() -> ScatterElementsDesc {
    ScatterElementsDesc::new(
        TensorDesc::new(DataType::Float16, &[4, 5]),
        TensorDesc::new(DataType::Int64, &[2, 5]),
        TensorDesc::new(DataType::Float16, &[2, 5]),
        TensorDesc::new(DataType::Float16, &[4, 5]),
        0, // axis
    )
}

fn valid_scatter_nd() -> ScatterNdDesc {
    ScatterNdDesc::new(
        TensorDesc::new(DataType::Int8, &[1, 4, 5, 6]),
        TensorDesc::new(DataType::UInt32, &[1, 1, 3, 2]),
        TensorDesc::new(DataType::Int8, &[1, 1, 3, 6]),
        TensorDesc::new(DataType::Int8, &[1, 4, 5, 6]),
        3, // input_dimension_count
        2, // indices_dimension_count
    )
}

#[test]
fn the_valid_scatter_descriptors_pass() {
    OperatorDesc::ScatterElements(valid_scatter_elements())
        .validate()
        .unwrap();
    OperatorDesc::ScatterNd(valid_scatter_nd())
        .validate()
        .unwrap();
}

#[test]
fn scatter_indices_must_be_32_or_64_bit_integers() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.indices.data_type = DataType::Float32)
            => Error::UnsupportedDataType { tensor: "indices", actual: DataType::Float32, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.indices.data_type = DataType::Int16)
            => Error::UnsupportedDataType { tensor: "indices", .. }
    );
}

#[test]
fn scatter_updates_and_output_share_the_input_data_type() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.updates.data_type = DataType::UInt16)
            => Error::DataTypeMismatch { tensor: "updates", .. }
    );
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.output.data_type = DataType::Int16)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.updates.data_type = DataType::UInt8)
            => Error::DataTypeMismatch { tensor: "updates", .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.output.data_type = DataType::UInt8)
            => Error::DataTypeMismatch { tensor: "output", .. }
    );
}

#[test]
fn scatter_elements_tensors_share_one_rank() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| {
            d.indices = TensorDesc::new(DataType::Int64, &[1, 2, 5]);
        })
            => Error::RankMismatch { tensor: "indices", actual: 3, expected: 2, .. }
    );
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.updates = TensorDesc::new(DataType::Float16, &[10]))
            => Error::RankMismatch { tensor: "updates", .. }
    );
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.output = TensorDesc::new(DataType::Float16, &[20]))
            => Error::RankMismatch { tensor: "output", .. }
    );
}

#[test]
fn scatter_output_sizes_equal_the_input_sizes() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.output.sizes = vec![4, 6])
            => Error::SizeMismatch { tensor: "output", dimension: 1, actual: 6, expected: 5, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.output.sizes = vec![1, 4, 5, 7])
            => Error::SizeMismatch { tensor: "output", dimension: 3, .. }
    );
}

#[test]
fn scatter_elements_updates_sizes_equal_the_indices_sizes() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| d.updates.sizes = vec![3, 5])
            => Error::SizeMismatch { tensor: "updates", dimension: 0, actual: 3, expected: 2, .. }
    );
}

#[test]
fn scatter_elements_axis_is_below_the_rank() {
    assert_eq!(
        rejection(changed(valid_scatter_elements(), |d| d.axis = 2)),
        Error::AxisOutOfRange { axis: 2, rank: 2 }
    );
}

#[test]
fn scatter_elements_indices_fit_the_input_outside_the_axis() {
    assert_rejects!(
        changed(valid_scatter_elements(), |d| {
            d.indices.sizes = vec![2, 6];
            d.updates.sizes = vec![2, 6];
        })
            => Error::SizeTooLarge { tensor: "indices", dimension: 1, actual: 6, limit: 5, .. }
    );
    // Along the axis the indices may be longer than the input (duplicates).
    let mut d = valid_scatter_elements();
    d.indices.sizes = vec![9, 5];
    d.updates.sizes = vec![9, 5];
    OperatorDesc::ScatterElements(d).validate().unwrap();
}

#[test]
fn scatter_nd_dimension_counts_lie_between_1_and_the_rank() {
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.input_dimension_count = 0)
            => Error::DimensionCount { field: "input_dimension_count", value: 0, max: 4, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.input_dimension_count = 5)
            => Error::DimensionCount { field: "input_dimension_count", value: 5, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.indices_dimension_count = 0)
            => Error::DimensionCount { field: "indices_dimension_count", .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.indices_dimension_count = 5)
            => Error::DimensionCount { field: "indices_dimension_count", value: 5, max: 4, .. }
    );
}

#[test]
fn scatter_nd_dimensions_before_the_counts_are_size_1() {
    assert_rejects!(
        changed(valid_scatter_nd(), |d| {
            d.input.sizes[0] = 2;
            d.output.sizes[0] = 2;
        })
            => Error::SizeMismatch { tensor: "input", dimension: 0, actual: 2, expected: 1, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.indices.sizes[1] = 2)
            => Error::SizeMismatch { tensor: "indices", dimension: 1, .. }
    );
}

#[test]
fn scatter_nd_tuple_size_is_at_most_the_input_dimension_count() {
    // With input_dimension_count 1 the leading-1 rule fires first; test the tuple rule alone.
    assert_rejects!(
        changed(valid_scatter_nd(), |d| {
            d.input_dimension_count = 1;
            d.indices.sizes[3] = 2;
        })
            => Error::SizeMismatch { .. } | Error::TupleSize { .. }
    );
    assert_eq!(
        rejection(changed(valid_scatter_nd(), |d| {
            d.input = TensorDesc::new(DataType::Int8, &[1, 1, 1, 6]);
            d.output = d.input.clone();
            d.input_dimension_count = 1;
        })),
        Error::TupleSize { value: 2, max: 1 }
    );
}

#[test]
fn scatter_nd_index_tuples_have_at_least_one_component() {
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.indices.sizes[3] = 0)
            => Error::ZeroSize { tensor: "indices", dimension: 3, .. }
    );
}

/// With `OutOfRange::Clamp` an index into an empty dimension has nothing to clamp to: refused
/// where some element uses an index (a gather's output, a scatter's updates, not empty).
/// `Report` takes it (every such index is reported at run time), and so does `Clamp` where no
/// index is used.
#[test]
fn clamping_into_an_empty_dimension_is_refused_where_indices_are_used() {
    use dml_wgsl::OutOfRange::{Clamp, Report};
    let empty_axis: [(OperatorDesc, usize); 5] = [
        (changed(valid_gather(), |d| d.input.sizes[1] = 0).into(), 1),
        (
            changed(valid_gather_elements(), |d| d.input.sizes[0] = 0).into(),
            0,
        ),
        (
            changed(valid_gather_nd(), |d| d.input.sizes[2] = 0).into(),
            2,
        ),
        (
            changed(valid_scatter_elements(), |d| {
                d.input.sizes[0] = 0;
                d.output.sizes[0] = 0;
            })
            .into(),
            0,
        ),
        (
            changed(valid_scatter_nd(), |d| {
                d.input.sizes[2] = 0;
                d.output.sizes[2] = 0;
            })
            .into(),
            2,
        ),
    ];
    for (desc, dimension) in empty_axis {
        let mut clamped = desc.clone();
        common::set_out_of_range(&mut clamped, Clamp);
        let e = rejection(clamped);
        assert!(
            matches!(e, Error::ZeroSize { tensor: "input", dimension: d, .. } if d == dimension),
            "{e}"
        );
        let mut reported = desc;
        common::set_out_of_range(&mut reported, Report);
        reported.validate().unwrap();
    }
    // No element uses an index: an empty output (no indices) clamps nothing.
    let unused = changed(valid_gather(), |d| {
        d.input.sizes[1] = 0;
        d.indices.sizes[1] = 0;
        d.output.sizes[0] = 0;
    })
    .with_out_of_range(Clamp);
    OperatorDesc::Gather(unused).validate().unwrap();
}

#[test]
fn scatter_nd_updates_have_at_least_the_meaningful_rank() {
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.updates = TensorDesc::new(DataType::Int8, &[18]))
            => Error::RankMismatch { tensor: "updates", actual: 1, expected: 2, .. }
    );
}

#[test]
fn scatter_nd_updates_sizes_are_the_indices_then_the_input_trailing_sizes() {
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.updates.sizes = vec![1, 1, 3, 5])
            => Error::SizeMismatch { tensor: "updates", dimension: 3, actual: 5, expected: 6, .. }
    );
    assert_rejects!(
        changed(valid_scatter_nd(), |d| d.updates.sizes = vec![2, 1, 3, 6])
            => Error::SizeMismatch { tensor: "updates", dimension: 0, actual: 2, expected: 1, .. }
    );
}

/// Regression (fuzzing): sizes whose element count passes 2^64 wrapped to 0, passed
/// validation, and made `compile` divide by zero.
#[test]
fn scatter_nd_with_an_overflowing_element_count_is_an_error_not_a_panic() {
    let huge = [65536u32; 4];
    let desc = OperatorDesc::ScatterNd(ScatterNdDesc::new(
        TensorDesc::new(DataType::Float32, &[4]),
        TensorDesc::new(DataType::UInt32, &[65536, 65536, 65536, 65536, 1]).with_strides(&[0; 5]),
        TensorDesc::new(DataType::Float32, &huge).with_strides(&[0; 4]),
        TensorDesc::new(DataType::Float32, &[4]),
        1, // input_dimension_count
        5, // indices_dimension_count
    ));
    let expected = Error::TooManyElements {
        tensor: "indices",
        elements: u64::MAX,
    };
    assert_eq!(desc.validate(), Err(expected.clone()));
    assert_eq!(context().compile(&desc).err(), Some(expected.clone()));
    assert_eq!(reference::run(&desc, &[&[], &[], &[]]), Err(expected));
}
