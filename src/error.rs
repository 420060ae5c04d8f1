//! The library's error type. Every variant names the field, the bad value and the rule.

use crate::tensor::DataType;

/// A `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong, each rule its own variant.
///
/// Descriptor errors are found before any GPU work; `IndexOutOfRange` is found by the GPU
/// and reported after the operator ran (the offending accesses were skipped).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // ---- tensors ----
    #[error("{tensor}: rank {rank} is outside 1..=8")]
    InvalidRank { tensor: &'static str, rank: usize },
    /// A size of 0 where a rule needs at least one element (sizes of 0 are otherwise legal:
    /// see [`TensorDesc`](crate::TensorDesc)): an index tuple of no components, or
    /// [`OutOfRange::Clamp`](crate::OutOfRange::Clamp) into an empty dimension that indices
    /// are used on (there is nothing to clamp to).
    #[error("{tensor}: size of dimension {dimension} is 0; {rule}")]
    ZeroSize {
        tensor: &'static str,
        dimension: usize,
        rule: &'static str,
    },
    /// `elements` saturates at `u64::MAX`.
    #[error("{tensor}: {elements} elements; at most 2^32 - 1 are allowed")]
    TooManyElements { tensor: &'static str, elements: u64 },
    #[error(
        "{tensor}: sizes {sizes:?} with element strides {strides:?} span more than 2^64 - 1 bytes"
    )]
    LayoutOverflow {
        tensor: &'static str,
        sizes: Vec<u32>,
        strides: Vec<u64>,
    },
    #[error("{tensor}: {actual} strides given for {expected} dimensions; they must match")]
    StridesLength {
        tensor: &'static str,
        expected: usize,
        actual: usize,
    },
    #[error(
        "{tensor}: stride 0 on dimension {dimension} of size {size}; an output may not broadcast"
    )]
    BroadcastOutput {
        tensor: &'static str,
        dimension: usize,
        size: u32,
    },
    #[error(
        "{tensor}: dimension {dimension}'s stride is smaller than the extent of the dimension below it; output elements may not overlap"
    )]
    OverlappingOutput {
        tensor: &'static str,
        dimension: usize,
    },
    #[error("{tensor}: total_tensor_size_in_bytes {given} is not a multiple of 4")]
    TotalSizeNotAligned { tensor: &'static str, given: u64 },
    #[error(
        "{tensor}: total_tensor_size_in_bytes {given} is below the layout's minimum of {minimum}"
    )]
    TotalSizeTooSmall {
        tensor: &'static str,
        given: u64,
        minimum: u64,
    },
    #[error("{tensor}: data type {actual:?} must equal {expected_from}'s {expected:?}")]
    DataTypeMismatch {
        tensor: &'static str,
        actual: DataType,
        expected_from: &'static str,
        expected: DataType,
    },
    #[error("{tensor}: data type {actual:?} is not allowed here; allowed: {allowed:?}")]
    UnsupportedDataType {
        tensor: &'static str,
        actual: DataType,
        allowed: &'static [DataType],
    },
    #[error("{tensor}: rank {actual} must equal {expected_from}'s rank {expected}")]
    RankMismatch {
        tensor: &'static str,
        actual: usize,
        expected_from: &'static str,
        expected: usize,
    },

    // ---- operator parameters ----
    #[error("{field}: {actual} values given; {expected} required ({rule})")]
    ParameterLength {
        field: &'static str,
        actual: usize,
        expected: usize,
        rule: &'static str,
    },
    #[error("{field}[{dimension}] = {value}: {rule}")]
    InvalidParameter {
        field: &'static str,
        dimension: usize,
        value: i64,
        rule: &'static str,
    },
    #[error("{tensor}.sizes[{dimension}] = {actual}, but {rule} requires {expected}")]
    SizeMismatch {
        tensor: &'static str,
        dimension: usize,
        actual: u32,
        expected: u64,
        rule: &'static str,
    },
    #[error(
        "dimension {dimension}: the last element read, {last}, lies outside the input's size {input_size}"
    )]
    ReadOutOfBounds {
        dimension: usize,
        last: u64,
        input_size: u32,
    },

    #[error("axis {axis} is outside [0, {rank}) for tensors of rank {rank}")]
    AxisOutOfRange { axis: u32, rank: usize },
    #[error("{tensor}.sizes[{dimension}] = {actual} exceeds {limit}: {rule}")]
    SizeTooLarge {
        tensor: &'static str,
        dimension: usize,
        actual: u32,
        limit: u32,
        rule: &'static str,
    },
    #[error("{field} = {value} is outside [1, {max}]: {rule}")]
    DimensionCount {
        field: &'static str,
        value: u32,
        max: usize,
        rule: &'static str,
    },
    #[error(
        "the index tuple size (the indices' last size) {value} exceeds input_dimension_count {max}"
    )]
    TupleSize { value: u32, max: u32 },

    // ---- typed slices (`Context::run_typed`) ----
    #[error("{tensor}: a slice of {slice:?} elements for a tensor of {expected:?}")]
    SliceDataType {
        tensor: &'static str,
        slice: DataType,
        expected: DataType,
    },
    #[error("{tensor}: a slice of {given} elements; the tensor's layout spans {required}")]
    SliceLength {
        tensor: &'static str,
        given: u64,
        required: u64,
    },

    // ---- buffers and limits ----
    #[error("{actual} input buffers given; the operator takes {expected}")]
    InputCount { expected: usize, actual: usize },
    #[error("{tensor}: {given} bytes given; its TensorDesc needs {required}")]
    InputTooSmall {
        tensor: &'static str,
        given: u64,
        required: u64,
    },
    #[error("{tensor}: binding of {given} bytes is smaller than the tensor's {required} bytes")]
    BindingTooSmall {
        tensor: &'static str,
        given: u64,
        required: u64,
    },
    #[error(
        "{tensor}: binding offset {offset} is not a multiple of the device's storage alignment {alignment}"
    )]
    BindingOffsetAlignment {
        tensor: &'static str,
        offset: u64,
        alignment: u32,
    },
    #[error("{tensor}: the buffer lacks usage {missing:?}")]
    BindingUsage {
        tensor: &'static str,
        missing: wgpu::BufferUsages,
    },
    #[error("{tensor} and {other} are bound to the same buffer; {rule}")]
    AliasedBindings {
        tensor: &'static str,
        other: &'static str,
        rule: &'static str,
    },
    #[error("timestamp_writes: {rule}")]
    InvalidTimestampWrites { rule: &'static str },
    #[error("{tensor}: {bytes} bytes exceed the device's {limit_name} of {limit}")]
    TensorTooLarge {
        tensor: &'static str,
        bytes: u64,
        limit_name: &'static str,
        limit: u64,
    },
    #[error(
        "{tensor}: its layout spans {elements} elements, past the {limit} that the kernels' \
         32-bit element offsets reach"
    )]
    LayoutTooWide {
        tensor: &'static str,
        elements: u64,
        limit: u64,
    },
    #[error("{what} needs {needed}, beyond the device's {limit_name} of {limit}")]
    LimitExceeded {
        what: &'static str,
        needed: u64,
        limit_name: &'static str,
        limit: u64,
    },

    // ---- found by the GPU ----
    #[error(
        "{tensor}{position:?} = {value} is out of range for a dimension of size {bound} (allowed: [-{bound}, {bound}) for signed types, [0, {bound}) for unsigned); the offending elements were skipped"
    )]
    IndexOutOfRange {
        tensor: &'static str,
        position: Vec<u32>,
        value: i128,
        bound: u32,
    },
    /// A linear TensorScatter's write index whose run of positions does not fit the cache.
    #[error(
        "write_indices[{entry}] = {value}: a linear TensorScatter writes {length} positions from it, which must lie in [0, {bound}) (allowed: [0, {bound} - {length}]); that entry's updates were skipped"
    )]
    WriteIndexOutOfRange {
        entry: u32,
        value: i128,
        length: u32,
        bound: u32,
    },

    // ---- the GPU ----
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    #[error("could not open the device: {0}")]
    RequestDevice(String),
    #[error("wgpu reported: {0}")]
    Wgpu(String),
    #[error("reading results back failed: {0}")]
    Readback(String),
}
