//! Operator descriptors, their validation, and their lowering to kernel dispatches.
//!
//! Each family has a module: it defines the DirectML-shaped `*Desc`, checks every rule
//! before any GPU work, and lowers the descriptor to the kernel dispatches `context.rs` records.

pub mod gather;
mod index_map;
pub mod scatter;
pub mod slice;

pub use gather::{GatherDesc, GatherElementsDesc, GatherNdDesc};
pub use scatter::{DuplicateMode, ScatterElementsDesc, ScatterNdDesc};
pub use slice::{Slice1Desc, SliceDesc};

use crate::error::{Error, Result};
use crate::shaders::{Kernel, Unit};
use crate::tensor::{DataType, MAX_RANK, TensorDesc};

/// One DirectML operator with its tensors and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperatorDesc {
    /// `DML_SLICE_OPERATOR_DESC`.
    Slice(SliceDesc),
    /// `DML_SLICE1_OPERATOR_DESC`.
    Slice1(Slice1Desc),
    /// `DML_SCATTER_OPERATOR_DESC` (scatter elements).
    ScatterElements(ScatterElementsDesc),
    /// `DML_SCATTER_ND_OPERATOR_DESC`.
    ScatterNd(ScatterNdDesc),
    /// `DML_GATHER_OPERATOR_DESC`.
    Gather(GatherDesc),
    /// `DML_GATHER_ELEMENTS_OPERATOR_DESC`.
    GatherElements(GatherElementsDesc),
    /// `DML_GATHER_ND1_OPERATOR_DESC` (`DML_GATHER_ND` with no batch dimensions).
    GatherNd(GatherNdDesc),
}

impl OperatorDesc {
    /// The input tensors, in the order `run` and `record` take their buffers, with their roles.
    pub fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        match self {
            OperatorDesc::Slice(d) => vec![("input", &d.input)],
            OperatorDesc::Slice1(d) => vec![("input", &d.input)],
            OperatorDesc::ScatterElements(d) => {
                vec![
                    ("input", &d.input),
                    ("indices", &d.indices),
                    ("updates", &d.updates),
                ]
            }
            OperatorDesc::ScatterNd(d) => {
                vec![
                    ("input", &d.input),
                    ("indices", &d.indices),
                    ("updates", &d.updates),
                ]
            }
            OperatorDesc::Gather(d) => vec![("input", &d.input), ("indices", &d.indices)],
            OperatorDesc::GatherElements(d) => vec![("input", &d.input), ("indices", &d.indices)],
            OperatorDesc::GatherNd(d) => vec![("input", &d.input), ("indices", &d.indices)],
        }
    }

    /// The output tensor.
    pub fn output(&self) -> &TensorDesc {
        match self {
            OperatorDesc::Slice(d) => &d.output,
            OperatorDesc::Slice1(d) => &d.output,
            OperatorDesc::ScatterElements(d) => &d.output,
            OperatorDesc::ScatterNd(d) => &d.output,
            OperatorDesc::Gather(d) => &d.output,
            OperatorDesc::GatherElements(d) => &d.output,
            OperatorDesc::GatherNd(d) => &d.output,
        }
    }

    /// Checks every rule of the descriptor; no GPU involved.
    pub fn validate(&self) -> Result<()> {
        match self {
            OperatorDesc::Slice(d) => d.validate(),
            OperatorDesc::Slice1(d) => d.validate(),
            OperatorDesc::ScatterElements(d) => d.validate(),
            OperatorDesc::ScatterNd(d) => d.validate(),
            OperatorDesc::Gather(d) => d.validate(),
            OperatorDesc::GatherElements(d) => d.validate(),
            OperatorDesc::GatherNd(d) => d.validate(),
        }
    }

    /// Lowers a valid descriptor (see [`OperatorDesc::validate`]) to the dispatches that
    /// compute the output.
    pub(crate) fn lower(&self, device: &DeviceFacts) -> Lowered {
        match self {
            OperatorDesc::Slice(d) => Lowered::steps(d.lower().steps(device)),
            OperatorDesc::Slice1(d) => Lowered::steps(d.lower().steps(device)),
            OperatorDesc::ScatterElements(d) => d.lower(device),
            OperatorDesc::ScatterNd(d) => d.lower(device),
            OperatorDesc::Gather(d) => d.lower(device),
            OperatorDesc::GatherElements(d) => d.lower(device),
            OperatorDesc::GatherNd(d) => d.lower(device),
        }
    }
}

/// What lowering needs to know of the device.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeviceFacts {
    /// Binding offsets are multiples of this (capped at 16), so wider units stay aligned.
    pub unit_alignment: u32,
    /// Threads a workgroup.
    pub workgroup_size: u32,
    /// Workgroups a dispatch dimension.
    pub max_workgroups_per_dimension: u32,
}

/// A buffer an operator step reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The caller's input tensor, in the desc's order.
    Input(usize),
    /// The caller's output tensor.
    Output,
    /// The operator's own status words (out-of-range reports).
    Status,
    /// The operator's own scratch buffer (per-element winners of a last-wins scatter).
    Scratch,
}

/// One GPU command of a lowered operator.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// A compute dispatch: binding 0 holds `params`, bindings 1.. the slots in order.
    Dispatch {
        kernel: Kernel,
        entry_point: &'static str,
        params: Vec<u32>,
        slots: Vec<Slot>,
        invocations: u64,
        /// Explicit workgroup counts (a 3-D grid), instead of folding `invocations`.
        grid: Option<[u32; 3]>,
        /// The `output = input` copy, left out when the output is the input's own range.
        skip_in_place: bool,
    },
    /// Zeroes one of the operator's own buffers before the dispatches.
    Clear(Slot),
}

/// A lowered operator: its steps and what `context.rs` needs around them.
#[derive(Clone, Debug)]
pub(crate) struct Lowered {
    pub steps: Vec<Step>,
    /// Bytes of scratch the steps use (`Slot::Scratch`).
    pub scratch_bytes: u64,
    /// How to turn the status words into `Error::IndexOutOfRange`, for operators with indices.
    pub index_report: Option<IndexReport>,
    /// Input 0 may be bound to the output's own range (in place): their layouts are equal.
    pub in_place_allowed: bool,
}

impl Lowered {
    fn steps(steps: Vec<Step>) -> Lowered {
        Lowered {
            steps,
            scratch_bytes: 0,
            index_report: None,
            in_place_allowed: false,
        }
    }
}

/// What the host needs to describe an out-of-range index found by the GPU, which reports
/// the lowest dense unit (updates or output) whose index tuple was out of range.
#[derive(Clone, Debug)]
pub(crate) struct IndexReport {
    /// The dense tensor's sizes: the reported unit counts over them, row-major.
    pub dense_sizes: Vec<u32>,
    /// Elements per unit moved (more than 1 where rows move 16 bytes at a time).
    pub elements_per_unit: u64,
    /// Per indices dimension (less the tuple dimension), the dense dimension holding its
    /// coordinate; `None` for placeholders of size 1.
    pub positions: Vec<Option<usize>>,
    /// The indices' last dimension holds tuples: the position gets the component appended.
    pub tuples: bool,
    /// The bound of each tuple component.
    pub bounds: Vec<u32>,
    pub index_type: DataType,
}

impl IndexReport {
    /// Decodes the four status words (see `shaders/index_map.wgsl`).
    pub fn decode(&self, words: [u32; 4]) -> Result<()> {
        if words[0] == 0 {
            return Ok(());
        }
        let mut linear = (u32::MAX - words[0]) as u64 * self.elements_per_unit;
        let mut dense = vec![0u32; self.dense_sizes.len()];
        for (c, &size) in dense.iter_mut().zip(&self.dense_sizes).rev() {
            *c = (linear % size as u64) as u32;
            linear /= size as u64;
        }
        let mut position: Vec<u32> = self
            .positions
            .iter()
            .map(|p| p.map_or(0, |d| dense[d]))
            .collect();
        let component = words[1] as usize;
        if self.tuples {
            position.push(component as u32);
        }
        let wide = (words[3] as u64) << 32 | words[2] as u64;
        let value = match self.index_type {
            DataType::Int32 => words[2] as i32 as i128,
            DataType::Int64 => wide as i64 as i128,
            DataType::UInt32 => words[2] as i128,
            _ => wide as i128,
        };
        Err(Error::IndexOutOfRange {
            tensor: "indices",
            position,
            value,
            bound: self.bounds.get(component).copied().unwrap_or(0),
        })
    }
}

/// An element-by-element copy between two strided layouts: for every coordinate `c` of `sizes`,
/// `output[output_base + c . output_strides] = input[input_base + c . input_strides]`.
/// Offsets and strides count elements of `element_bytes`; input strides may be negative
/// (reversed windows) or zero (broadcast).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StridedCopy {
    pub element_bytes: u32,
    pub sizes: Vec<u32>,
    pub input_strides: Vec<i64>,
    pub input_base: u64,
    pub output_strides: Vec<i64>,
    pub output_base: u64,
}

impl StridedCopy {
    /// Drops size-1 dimensions and merges neighbours that are contiguous in both tensors,
    /// so most copies run at rank 1 to 3.
    pub fn merged(&self) -> StridedCopy {
        let (sizes, strides) =
            merge_dimensions(&self.sizes, &[&self.input_strides, &self.output_strides]);
        let [input_strides, output_strides] = <[Vec<i64>; 2]>::try_from(strides).unwrap();
        StridedCopy {
            sizes,
            input_strides,
            output_strides,
            ..self.clone()
        }
    }

    /// Reinterprets runs of elements as wider units (up to `max_unit` bytes) when the innermost
    /// dimension is contiguous in both tensors and every offset stays aligned to the unit.
    pub fn widened(&self, max_unit: u32) -> StridedCopy {
        let inner = self.sizes.len() - 1;
        let mut unit = max_unit.min(16);
        while unit > self.element_bytes {
            let k = (unit / self.element_bytes) as i64;
            let fits = self.input_strides[inner] == 1
                && self.output_strides[inner] == 1
                && self.sizes[inner] as i64 % k == 0
                && self.input_base as i64 % k == 0
                && self.output_base as i64 % k == 0
                && (0..inner)
                    .all(|d| self.input_strides[d] % k == 0 && self.output_strides[d] % k == 0);
            if fits {
                let mut wide = self.clone();
                wide.element_bytes = unit;
                wide.sizes[inner] /= k as u32;
                wide.input_base /= k as u64;
                wide.output_base /= k as u64;
                for d in 0..inner {
                    wide.input_strides[d] /= k;
                    wide.output_strides[d] /= k;
                }
                return wide;
            }
            unit /= 2;
        }
        self.clone()
    }

    /// The workgroup grid of `strided_copy_planes`, where the copy has at most 3
    /// dimensions [A, B, C] and both B x C / workgroup size and A fit the dispatch limit.
    fn planes(&self, device: &DeviceFacts) -> Option<[u32; 3]> {
        let rank = self.sizes.len();
        if rank > 3 || self.element_bytes == 16 {
            return None;
        }
        let size = |d: usize| {
            if d < rank {
                self.sizes[rank - 1 - d] as u64
            } else {
                1
            }
        };
        let x = (size(0) * size(1)).div_ceil(device.workgroup_size as u64);
        let max = device.max_workgroups_per_dimension as u64;
        (x <= max && size(2) <= max).then_some([x as u32, size(2) as u32, 1])
    }

    /// The same copy with leading dimensions of size 1 up to `rank`.
    fn padded_to_rank(mut self, rank: usize) -> StridedCopy {
        while self.sizes.len() < rank {
            self.sizes.insert(0, 1);
            self.input_strides.insert(0, 0);
            self.output_strides.insert(0, 0);
        }
        self
    }

    /// The kernel dispatch for this copy, merged and widened.
    pub fn steps(&self, device: &DeviceFacts) -> Vec<Step> {
        let copy = self.merged().widened(device.unit_alignment);
        let unit = Unit::from_bytes(copy.element_bytes);
        let inner = *copy.sizes.last().expect("rank >= 1");
        let rows: u64 = copy.sizes[..copy.sizes.len() - 1]
            .iter()
            .map(|&s| s as u64)
            .product();
        // Whole blocks of a workgroup's units per row: coalesced blocks; else row groups.
        let block = device.workgroup_size * unit.copy_group();
        let mut copy = copy;
        let mut grid = None;
        let (entry_point, row_groups, threads) =
            if inner.is_multiple_of(block) && unit.copy_group() > 1 {
                let blocks = inner / block;
                (
                    "strided_copy_blocks",
                    blocks,
                    rows * (blocks * device.workgroup_size) as u64,
                )
            } else if let Some(g) = copy.planes(device) {
                // Short rows of at most 3 dimensions: one division a unit.
                grid = Some(g);
                let threads =
                    g.iter().map(|&n| n as u64).product::<u64>() * device.workgroup_size as u64;
                copy = copy.padded_to_rank(3);
                ("strided_copy_planes", 0, threads)
            } else {
                let groups = inner.div_ceil(unit.copy_group());
                ("strided_copy", groups, rows * groups as u64)
            };
        let mut params = vec![
            threads as u32,
            copy.sizes.len() as u32,
            copy.input_base as u32,
            copy.output_base as u32,
            inner,
            row_groups,
            0,
            0,
        ];
        params.extend(padded(copy.sizes.iter().copied()));
        // Strides travel as two's-complement u32: the shader's wrapping arithmetic lands on
        // the right element as long as the true offset fits, which the binding limit ensures.
        params.extend(padded(copy.input_strides.iter().map(|&s| s as u32)));
        params.extend(padded(copy.output_strides.iter().map(|&s| s as u32)));
        vec![Step::Dispatch {
            kernel: Kernel::StridedCopy(unit),
            entry_point,
            params,
            slots: vec![Slot::Input(0), Slot::Output],
            invocations: threads,
            grid,
            skip_in_place: false,
        }]
    }
}

/// Drops size-1 dimensions and merges each dimension into its outer neighbour where, in every
/// stride set, the outer stride steps exactly over the whole inner dimension. Row-major
/// order of the iteration space is unchanged, so linear positions keep their meaning.
/// Returns at least one dimension.
pub(crate) fn merge_dimensions(sizes: &[u32], strides: &[&[i64]]) -> (Vec<u32>, Vec<Vec<i64>>) {
    let mut merged_sizes: Vec<u32> = Vec::new();
    let mut merged: Vec<Vec<i64>> = vec![Vec::new(); strides.len()];
    for (d, &size) in sizes.iter().enumerate() {
        if size == 1 {
            continue;
        }
        if let Some(last) = merged_sizes.len().checked_sub(1) {
            let contiguous = strides
                .iter()
                .zip(&merged)
                .all(|(s, m)| s[d].checked_mul(size as i64) == Some(m[last]));
            // A valid tensor has at most 2^32 - 1 elements, so merged sizes fit a u32; if
            // they did not, the dimensions stay apart rather than wrap.
            let merged_size = merged_sizes[last].checked_mul(size);
            if let (true, Some(merged_size)) = (contiguous, merged_size) {
                merged_sizes[last] = merged_size;
                for (s, m) in strides.iter().zip(merged.iter_mut()) {
                    m[last] = s[d];
                }
                continue;
            }
        }
        merged_sizes.push(size);
        for (s, m) in strides.iter().zip(merged.iter_mut()) {
            m.push(s[d]);
        }
    }
    if merged_sizes.is_empty() {
        merged_sizes.push(1);
        for m in merged.iter_mut() {
            m.push(0);
        }
    }
    (merged_sizes, merged)
}

/// Where `count` meaningful dimensions sit in a tensor of `rank` dimensions that holds them
/// right-aligned (DirectML's broadcasting rule): meaningful dimension `p` is tensor dimension
/// `p + rank - count`. Leading meaningful dimensions past the rank (which must be 1s) are
/// held nowhere: `None`. Ranks are compared right-aligned, never subtracted unsigned.
pub(crate) fn right_aligned_dimension(p: usize, count: usize, rank: usize) -> Option<usize> {
    (p + rank).checked_sub(count)
}

/// Exactly `MAX_RANK` values, zero padded, as the shaders' `array<vec4<u32>, 2>` expects.
pub(crate) fn padded(values: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = values.collect();
    v.resize(MAX_RANK, 0);
    v
}

/// Checks a per-dimension parameter array's length against the dimension count.
pub(crate) fn check_length(
    field: &'static str,
    actual: usize,
    expected: usize,
    rule: &'static str,
) -> Result<()> {
    if actual != expected {
        return Err(Error::ParameterLength {
            field,
            actual,
            expected,
            rule,
        });
    }
    Ok(())
}

/// The index tensor types DirectML accepts.
pub const INDEX_TYPES: &[DataType] = &[
    DataType::Int32,
    DataType::UInt32,
    DataType::Int64,
    DataType::UInt64,
];

/// Checks that an index tensor has one of [`INDEX_TYPES`].
pub(crate) fn check_index_type(indices: &TensorDesc) -> Result<()> {
    if !INDEX_TYPES.contains(&indices.data_type) {
        return Err(Error::UnsupportedDataType {
            tensor: "indices",
            actual: indices.data_type,
            allowed: INDEX_TYPES,
        });
    }
    Ok(())
}

/// Checks a tensor's sizes against the sizes a rule requires (ranks already equal).
pub(crate) fn check_same_sizes(
    tensor: &'static str,
    desc: &TensorDesc,
    expected: &[u32],
    rule: &'static str,
) -> Result<()> {
    if desc.rank() != expected.len() {
        return Err(Error::RankMismatch {
            tensor,
            actual: desc.rank(),
            expected_from: rule,
            expected: expected.len(),
        });
    }
    for (dimension, (&actual, &want)) in desc.sizes.iter().zip(expected).enumerate() {
        if actual != want {
            return Err(Error::SizeMismatch {
                tensor,
                dimension,
                actual,
                expected: want as u64,
                rule,
            });
        }
    }
    Ok(())
}

/// Checks that `desc` holds the `meaningful` sizes right-aligned: its rank may crop leading
/// 1s of them or add leading 1s, and its sizes then equal them (gather outputs, ScatterND
/// updates). `expected_from` names where the meaningful sizes come from.
pub(crate) fn check_right_aligned_sizes(
    tensor: &'static str,
    desc: &TensorDesc,
    mut meaningful: Vec<u32>,
    expected_from: &'static str,
    rule: &'static str,
) -> Result<()> {
    let rank = desc.rank();
    while meaningful.len() > rank && meaningful[0] == 1 {
        meaningful.remove(0);
    }
    if meaningful.len() > rank {
        return Err(Error::RankMismatch {
            tensor,
            actual: rank,
            expected_from,
            expected: meaningful.len(),
        });
    }
    let mut expected = vec![1; rank - meaningful.len()];
    expected.extend(meaningful);
    check_same_sizes(tensor, desc, &expected, rule)
}

/// Checks `DML_*_ND`'s dimension counts: each in `[1, rank]`, with the dimensions before it
/// placeholders of size 1.
pub(crate) fn check_dimension_counts(
    input: &TensorDesc,
    input_dimension_count: u32,
    indices: &TensorDesc,
    indices_dimension_count: u32,
) -> Result<()> {
    for (field, value, rank) in [
        ("input_dimension_count", input_dimension_count, input.rank()),
        (
            "indices_dimension_count",
            indices_dimension_count,
            indices.rank(),
        ),
    ] {
        if value == 0 || value as usize > rank {
            return Err(Error::DimensionCount {
                field,
                value,
                max: rank,
                rule: "between 1 and the tensor's rank",
            });
        }
    }
    check_placeholders("input", input, input_dimension_count as usize)?;
    check_placeholders("indices", indices, indices_dimension_count as usize)
}

/// Checks that the dimensions of `t` before its last `count` are placeholders of size 1.
pub(crate) fn check_placeholders(tensor: &'static str, t: &TensorDesc, count: usize) -> Result<()> {
    let leading = t.rank() - count;
    if let Some(d) = (0..leading).find(|&d| t.sizes[d] != 1) {
        return Err(Error::SizeMismatch {
            tensor,
            dimension: d,
            actual: t.sizes[d],
            expected: 1,
            rule: "dimensions before the dimension count are placeholders of size 1",
        });
    }
    Ok(())
}

/// Checks that two tensors share data type and rank.
pub(crate) fn check_same_kind(
    tensor: &'static str,
    desc: &TensorDesc,
    expected_from: &'static str,
    expected: &TensorDesc,
) -> Result<()> {
    if desc.data_type != expected.data_type {
        return Err(Error::DataTypeMismatch {
            tensor,
            actual: desc.data_type,
            expected_from,
            expected: expected.data_type,
        });
    }
    if desc.rank() != expected.rank() {
        return Err(Error::RankMismatch {
            tensor,
            actual: desc.rank(),
            expected_from,
            expected: expected.rank(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::DataType;

    fn slice(data_type: DataType, input: &[u32], offsets: &[u32], sizes: &[u32]) -> StridedCopy {
        SliceDesc {
            input: TensorDesc::new(data_type, input),
            output: TensorDesc::new(data_type, sizes),
            offsets: offsets.to_vec(),
            sizes: sizes.to_vec(),
            strides: vec![1; sizes.len()],
        }
        .lower()
    }

    #[test]
    fn size_one_dimensions_drop_and_contiguous_dimensions_merge() {
        let copy = slice(
            DataType::Float32,
            &[1, 3, 4, 5],
            &[0, 0, 0, 0],
            &[1, 3, 4, 5],
        )
        .merged();
        assert_eq!(copy.sizes, [60]);
        assert_eq!(copy.input_strides, [1]);
        let crop = slice(
            DataType::Float32,
            &[64, 256, 56, 56],
            &[0, 0, 1, 1],
            &[64, 256, 54, 54],
        )
        .merged();
        assert_eq!(crop.sizes, [64 * 256, 54, 54]);
        assert_eq!(crop.input_strides, [56 * 56, 56, 1]);
        assert_eq!(crop.output_strides, [54 * 54, 54, 1]);
        assert_eq!(crop.input_base, 57);
    }

    #[test]
    fn aligned_contiguous_rows_widen_to_16_byte_units() {
        let copy = slice(
            DataType::Float32,
            &[8192, 8192],
            &[1024, 512],
            &[6144, 7168],
        )
        .merged()
        .widened(16);
        assert_eq!(copy.element_bytes, 16);
        assert_eq!(copy.sizes, [6144, 1792]);
        assert_eq!(copy.input_strides, [2048, 1]);
        assert_eq!(copy.input_base, (1024 * 8192 + 512) / 4);
        let bytes = slice(DataType::UInt8, &[4, 4], &[0, 0], &[4, 4])
            .merged()
            .widened(16);
        assert_eq!((bytes.element_bytes, bytes.sizes.clone()), (16, vec![1]));
    }

    #[test]
    fn widening_stops_at_the_device_alignment_and_at_misaligned_offsets() {
        let copy = slice(DataType::UInt8, &[4, 64], &[1, 0], &[2, 64]).merged();
        assert_eq!(copy.widened(8).element_bytes, 8);
        assert_eq!(copy.widened(16).element_bytes, 16);
        let odd = slice(DataType::UInt16, &[4, 64], &[1, 2], &[2, 60])
            .merged()
            .widened(16);
        assert_eq!(
            odd.element_bytes, 4,
            "offset 2 x 2 bytes aligns to 4 bytes only"
        );
        let reversed = StridedCopy {
            input_strides: vec![-1],
            ..slice(DataType::Float32, &[16], &[0], &[16])
        };
        assert_eq!(reversed.widened(16).element_bytes, 4);
    }
}
