//! Index tensors: reading an index element whole, normalising it into its dimension (or
//! clamping it), and the first out-of-range index a run reports.

use crate::error::{Error, Result};
use crate::ops::OutOfRange;
use crate::tensor::TensorDesc;

/// Between a tensor and the `count` meaningful dimensions it holds right-aligned (a gather's
/// output, ScatterND's updates): the coordinate `o` with leading zeros added, or cropped
/// (cropped dimensions are 1s, so their coordinate is 0), to `count` dimensions.
pub(super) fn gathered_coordinate(o: &[u32], count: usize) -> Vec<u32> {
    if count >= o.len() {
        let mut g = vec![0u32; count - o.len()];
        g.extend_from_slice(o);
        g
    } else {
        o[o.len() - count..].to_vec()
    }
}

/// Reads the index element at `c` as a wide integer (signed types sign-extended).
pub(super) fn read_index(t: &TensorDesc, bytes: &[u8], c: &[u32]) -> i128 {
    let at = t.byte_offset(c) as usize;
    let b = |n: usize| -> [u8; 8] {
        let mut word = [0u8; 8];
        word[..n].copy_from_slice(&bytes[at..at + n]);
        word
    };
    match t.data_type {
        crate::DataType::Int32 => i32::from_le_bytes(b(4)[..4].try_into().unwrap()) as i128,
        crate::DataType::UInt32 => u32::from_le_bytes(b(4)[..4].try_into().unwrap()) as i128,
        crate::DataType::Int64 => i64::from_le_bytes(b(8)) as i128,
        crate::DataType::UInt64 => u64::from_le_bytes(b(8)) as i128,
        other => unreachable!("validated index type, not {other:?}"),
    }
}

/// `value` as an index into a dimension of `bound` elements: `[0, bound)` as is, and for
/// signed types `[-bound, 0)` counted from the end; anything else is `None` with
/// [`OutOfRange::Report`], and clamped (see [`clamp_index`]) with [`OutOfRange::Clamp`].
pub(super) fn normalise(
    value: i128,
    bound: u32,
    signed: bool,
    out_of_range: OutOfRange,
) -> Option<u32> {
    match out_of_range {
        OutOfRange::Report => {
            let bound = bound as i128;
            if (0..bound).contains(&value) {
                Some(value as u32)
            } else if signed && (-bound..0).contains(&value) {
                Some((value + bound) as u32)
            } else {
                None
            }
        }
        OutOfRange::Clamp => clamp_index(value, bound, signed),
    }
}

/// [`OutOfRange::Clamp`]'s index rule: an index `value` (read whole, as a wide integer: no
/// 64-bit index is ever truncated) into a dimension of `bound` elements. A negative value
/// of a signed index type is first counted from the end (`value + bound`); the result is
/// then clamped into `[0, bound)`: below 0 gives 0, `bound` or more gives `bound - 1`. So
/// for `bound = 5`: -2 gives 3, -100 and `i64::MIN` give 0, 100 and `u64::MAX` give 4. An
/// empty dimension (`bound` 0) has nothing to clamp to: `None` (descriptors that would
/// clamp into one are refused by `validate`).
pub fn clamp_index(value: i128, bound: u32, signed: bool) -> Option<u32> {
    let last = (bound as i128).checked_sub(1).filter(|&last| last >= 0)?;
    let counted = if signed && value < 0 {
        value + bound as i128
    } else {
        value
    };
    Some(counted.clamp(0, last) as u32)
}

pub(super) fn first_error(status: &mut Result<()>, position: Vec<u32>, value: i128, bound: u32) {
    if status.is_ok() {
        *status = Err(Error::IndexOutOfRange {
            tensor: "indices",
            position,
            value,
            bound,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_index_counts_negatives_from_the_end_then_clamps() {
        assert_eq!(clamp_index(-100, 5, true), Some(0));
        assert_eq!(clamp_index(-2, 5, true), Some(3));
        assert_eq!(clamp_index(-5, 5, true), Some(0));
        assert_eq!(clamp_index(-6, 5, true), Some(0));
        assert_eq!(clamp_index(100, 5, true), Some(4));
        assert_eq!(clamp_index(5, 5, false), Some(4));
        assert_eq!(clamp_index(i64::MIN as i128, 5, true), Some(0));
        assert_eq!(clamp_index(i64::MAX as i128, 5, true), Some(4));
        assert_eq!(clamp_index(u64::MAX as i128, 5, false), Some(4));
        // 2^32 + 1 would be 1 if truncated to 32 bits.
        assert_eq!(clamp_index((1 << 32) + 1, 5, false), Some(4));
        assert_eq!(clamp_index(-1, 1, true), Some(0));
        assert_eq!(clamp_index(7, 1, true), Some(0));
        assert_eq!(
            clamp_index(u32::MAX as i128, u32::MAX, false),
            Some(u32::MAX - 1)
        );
        assert_eq!(clamp_index(0, 0, true), None);
        assert_eq!(clamp_index(-1, 0, true), None);
    }
}
