//! The gathers: Gather, GatherElements and GatherND, element by element.

use super::index::{first_error, gathered_coordinate, normalise, read_index};
use super::{copy_element, for_each_coordinate, zeroed};
use crate::error::Result;
use crate::ops::{GatherDesc, GatherElementsDesc, GatherNdDesc};
use crate::tensor::TensorDesc;

/// Fills the output of a gather: `source(o)` gives the input coordinate of output
/// coordinate `o`, or the out-of-range index (position, value, bound); those stay zero.
fn gather_with(
    input: &TensorDesc,
    input_bytes: &[u8],
    output: &TensorDesc,
    mut source: impl FnMut(&[u32]) -> std::result::Result<Vec<u32>, (Vec<u32>, i128, u32)>,
) -> (Vec<u8>, Result<()>) {
    let mut bytes = zeroed(output);
    let mut status = Ok(());
    for_each_coordinate(&output.sizes, |o| match source(o) {
        Ok(from) => copy_element(input, input_bytes, &from, output, &mut bytes, o),
        Err((position, value, bound)) => first_error(&mut status, position, value, bound),
    });
    (bytes, status)
}

/// `DML_GATHER`: `output[a, j, b] = input[a, indices[j], b]`.
pub(super) fn gather(desc: &GatherDesc, input: &[u8], indices: &[u8]) -> (Vec<u8>, Result<()>) {
    let axis = desc.axis as usize;
    let index_dimensions = desc.index_dimensions as usize;
    let count = desc.input.rank() - 1 + index_dimensions;
    let bound = desc.input.sizes[axis];
    let signed = desc.indices.data_type.is_signed();
    gather_with(&desc.input, input, &desc.output, |o| {
        let g = gathered_coordinate(o, count);
        let mut at = vec![0u32; desc.indices.rank() - index_dimensions];
        at.extend_from_slice(&g[axis..axis + index_dimensions]);
        let value = read_index(&desc.indices, indices, &at);
        let n = normalise(value, bound, signed, desc.out_of_range).ok_or((at, value, bound))?;
        Ok([&g[..axis], &[n], &g[axis + index_dimensions..]].concat())
    })
}

/// `DML_GATHER_ELEMENTS`: `output[c] = input[c with c[axis] = indices[c]]`.
pub(super) fn gather_elements(
    desc: &GatherElementsDesc,
    input: &[u8],
    indices: &[u8],
) -> (Vec<u8>, Result<()>) {
    let axis = desc.axis as usize;
    let bound = desc.input.sizes[axis];
    let signed = desc.indices.data_type.is_signed();
    gather_with(&desc.input, input, &desc.output, |c| {
        let value = read_index(&desc.indices, indices, c);
        let n = normalise(value, bound, signed, desc.out_of_range);
        let n = n.ok_or_else(|| (c.to_vec(), value, bound))?;
        let mut from = c.to_vec();
        from[axis] = n;
        Ok(from)
    })
}

/// `DML_GATHER_ND1`: `output[batch, b, t] = input[batch, indices[batch, b, :], t]`.
pub(super) fn gather_nd(
    desc: &GatherNdDesc,
    input: &[u8],
    indices: &[u8],
) -> (Vec<u8>, Result<()>) {
    let indices_rank = desc.indices.rank();
    let input_rank = desc.input.rank();
    let tuple = desc.indices.sizes[indices_rank - 1] as usize;
    let batch = desc.batch_dimension_count as usize;
    let leading = desc.indices_dimension_count as usize - 1;
    let input_first = input_rank - desc.input_dimension_count as usize;
    let indices_first = indices_rank - desc.indices_dimension_count as usize;
    let trailing = desc.input_dimension_count as usize - batch - tuple;
    let signed = desc.indices.data_type.is_signed();
    gather_with(&desc.input, input, &desc.output, |o| {
        let g = gathered_coordinate(o, leading + trailing);
        let mut at = vec![0u32; indices_first];
        at.extend_from_slice(&g[..leading]);
        at.push(0);
        let mut from = vec![0u32; input_first];
        from.extend_from_slice(&g[..batch]);
        for k in 0..tuple {
            at[indices_rank - 1] = k as u32;
            let value = read_index(&desc.indices, indices, &at);
            let bound = desc.input.sizes[input_first + batch + k];
            let n = normalise(value, bound, signed, desc.out_of_range);
            from.push(n.ok_or_else(|| (at.clone(), value, bound))?);
        }
        from.extend_from_slice(&g[leading..]);
        Ok(from)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{from_le, le, run, run_with_status};
    use crate::error::Error;
    use crate::ops::{GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc, OutOfRange};
    use crate::tensor::{DataType, TensorDesc};

    #[test]
    fn gather_clamps_signed_and_unsigned_indices() {
        let make = |index_type, k, out_of_range| -> OperatorDesc {
            GatherDesc::new(
                TensorDesc::new(DataType::Int32, &[5]),
                TensorDesc::new(index_type, &[k]),
                TensorDesc::new(DataType::Int32, &[k]),
                0,
                1,
            )
            .with_out_of_range(out_of_range)
            .into()
        };
        let input = le(&[10i32, 20, 30, 40, 50]);
        let indices = le(&[-100i64, -2, 100, i64::MIN, i64::MAX, -5, -6, 4]);
        let desc = make(DataType::Int64, 8, OutOfRange::Clamp);
        let (output, status) = run_with_status(&desc, &[&input, &indices]).unwrap();
        assert_eq!(status, Ok(()));
        assert_eq!(from_le::<i32>(&output), [10, 40, 50, 10, 50, 10, 10, 50]);
        // Reported as before without Clamp: the first out-of-range index.
        let desc = make(DataType::Int64, 8, OutOfRange::Report);
        assert_eq!(
            run(&desc, &[&input, &indices]),
            Err(Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![0],
                value: -100,
                bound: 5,
            })
        );
        let indices = le(&[u64::MAX, 5, 2, 0, 1 << 32]);
        let desc = make(DataType::UInt64, 5, OutOfRange::Clamp);
        let output = run(&desc, &[&input, &indices]).unwrap();
        assert_eq!(from_le::<i32>(&output), [50, 50, 30, 10, 50]);
        let indices = le(&[u32::MAX, 3]);
        let desc = make(DataType::UInt32, 2, OutOfRange::Clamp);
        let output = run(&desc, &[&input, &indices]).unwrap();
        assert_eq!(from_le::<i32>(&output), [50, 40]);
    }

    #[test]
    fn gather_elements_clamps_along_its_axis() {
        let desc: OperatorDesc = GatherElementsDesc::new(
            TensorDesc::new(DataType::Int32, &[2, 3]),
            TensorDesc::new(DataType::Int32, &[2, 2]),
            TensorDesc::new(DataType::Int32, &[2, 2]),
            1,
        )
        .with_out_of_range(OutOfRange::Clamp)
        .into();
        let input = le(&[1i32, 2, 3, 4, 5, 6]);
        // Row 0: -4 + 3 = -1 -> 0, 7 -> 2; row 1: 3 -> 2, -1 -> 2.
        let indices = le(&[-4i32, 7, 3, -1]);
        let output = run(&desc, &[&input, &indices]).unwrap();
        assert_eq!(from_le::<i32>(&output), [1, 3, 6, 6]);
    }

    #[test]
    fn gather_nd_clamps_each_tuple_component() {
        let desc: OperatorDesc = GatherNdDesc::new(
            TensorDesc::new(DataType::Int16, &[2, 3]),
            TensorDesc::new(DataType::Int64, &[2, 2]),
            TensorDesc::new(DataType::Int16, &[2]),
            2,
            2,
            0,
        )
        .with_out_of_range(OutOfRange::Clamp)
        .into();
        let input = le(&[10i16, 11, 12, 20, 21, 22]);
        // (5, -9) -> (1, 0); (-1, 1) -> (1, 1).
        let indices = le(&[5i64, -9, -1, 1]);
        let output = run(&desc, &[&input, &indices]).unwrap();
        assert_eq!(from_le::<i16>(&output), [20, 21]);
    }
}
