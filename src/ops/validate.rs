//! Checks shared by the operator families' validation, and the right-alignment rule that
//! gather outputs and ScatterND updates follow.

use std::ops::Range;

use crate::error::{Error, Result};
use crate::options::OutOfRange;
use crate::tensor::{DataType, TensorDesc};

/// Where `count` meaningful dimensions sit in a tensor of `rank` dimensions that holds them
/// right-aligned (DirectML's broadcasting rule): meaningful dimension `p` is tensor dimension
/// `p + rank - count`. Leading meaningful dimensions past the rank (which must be 1s) are
/// held nowhere: `None`. Ranks are compared right-aligned, never subtracted unsigned.
pub(crate) fn right_aligned_dimension(p: usize, count: usize, rank: usize) -> Option<usize> {
    (p + rank).checked_sub(count)
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

/// ScatterElements' and GatherElements' axis rules: `axis` below the rank, and outside it
/// the indices' sizes at most the input's (DirectML asks for equality; smaller is accepted,
/// as PyTorch and ONNX do).
pub(crate) fn check_elements_axis(
    input: &TensorDesc,
    indices: &TensorDesc,
    axis: u32,
) -> Result<()> {
    let rank = input.rank();
    if axis as usize >= rank {
        return Err(Error::AxisOutOfRange { axis, rank });
    }
    for d in (0..rank).filter(|&d| d != axis as usize) {
        if indices.sizes[d] > input.sizes[d] {
            return Err(Error::SizeTooLarge {
                tensor: "indices",
                dimension: d,
                actual: indices.sizes[d],
                limit: input.sizes[d],
                rule: "outside the axis, the indices' sizes are at most the input's",
            });
        }
    }
    Ok(())
}

/// The tuple size of an ND operator's indices: their last size (the rank is at least 1 once
/// the tensor is validated).
pub(crate) fn tuple_size(indices: &TensorDesc) -> u32 {
    indices.sizes.last().copied().unwrap_or(1)
}

/// Checks that an ND operator's index tuples have at least one component (the indices' last
/// size, which other sizes of 0 leave alone: no tuples at all is legal).
pub(crate) fn check_tuple_not_empty(indices: &TensorDesc) -> Result<()> {
    if tuple_size(indices) == 0 {
        return Err(Error::ZeroSize {
            tensor: "indices",
            dimension: indices.rank() - 1,
            rule: "an index tuple (the indices' last size) has at least one component",
        });
    }
    Ok(())
}

/// With [`OutOfRange::Clamp`], an index that some element uses (`used`: the gather's output,
/// or the scatter's updates, is not empty) needs an element to be clamped to: each of the
/// input's `indexed` dimensions must have one. (With [`OutOfRange::Report`] every index into
/// an empty dimension is simply out of range, and reported.)
pub(crate) fn check_clamp_target(
    out_of_range: OutOfRange,
    used: bool,
    input: &TensorDesc,
    mut indexed: Range<usize>,
) -> Result<()> {
    if out_of_range != OutOfRange::Clamp || !used {
        return Ok(());
    }
    match indexed.find(|&d| input.sizes[d] == 0) {
        Some(dimension) => Err(Error::ZeroSize {
            tensor: "input",
            dimension,
            rule: "with OutOfRange::Clamp, indices used on an empty dimension have nothing to \
                   clamp to (OutOfRange::Report reports them as out of range)",
        }),
        None => Ok(()),
    }
}
