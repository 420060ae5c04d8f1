//! The scatters' writes: every element ScatterElements, ScatterND or TensorScatter writes
//! after `output = input`, in the updates' row-major order ([`run`](super::run) folds them in).

use super::index::{first_error, gathered_coordinate, normalise, read_index};
use super::{check_inputs, for_each_coordinate};
use crate::error::Error;
use crate::error::Result;
use crate::ops::{
    OperatorDesc, OutOfRange, ScatterElementsDesc, ScatterNdDesc, TensorScatterDesc,
    TensorScatterMode,
};

/// One element a scatter writes: byte offsets into the output and the updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScatterWrite {
    pub output_offset: u64,
    pub updates_offset: u64,
}

/// Every write a scatter performs after `output = input`, in the updates' row-major order,
/// with the status (the first out-of-range index, whose writes are left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScatterWrites {
    pub writes: Vec<ScatterWrite>,
    pub status: Result<()>,
}

/// The writes of a ScatterElements, ScatterND or TensorScatter descriptor (validated here).
pub fn scatter_writes(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<ScatterWrites> {
    check_inputs(desc, inputs)?;
    Ok(match desc {
        OperatorDesc::ScatterElements(d) => scatter_elements_writes(d, inputs[1]),
        OperatorDesc::ScatterNd(d) => scatter_nd_writes(d, inputs[1]),
        OperatorDesc::TensorScatter(d) => tensor_scatter_writes(d, inputs.get(2).copied()),
        _ => ScatterWrites {
            writes: Vec::new(),
            status: Ok(()),
        },
    })
}

fn scatter_elements_writes(desc: &ScatterElementsDesc, indices: &[u8]) -> ScatterWrites {
    let axis = desc.axis as usize;
    let bound = desc.input.sizes[axis];
    let mut writes = Vec::new();
    let mut status = Ok(());
    for_each_coordinate(&desc.indices.sizes, |c| {
        let value = read_index(&desc.indices, indices, c);
        let signed = desc.indices.data_type.is_signed();
        match normalise(value, bound, signed, desc.out_of_range) {
            Some(v) => {
                let mut target = c.to_vec();
                target[axis] = v;
                writes.push(ScatterWrite {
                    output_offset: desc.output.byte_offset(&target),
                    updates_offset: desc.updates.byte_offset(c),
                });
            }
            None => first_error(&mut status, c.to_vec(), value, bound),
        }
    });
    ScatterWrites { writes, status }
}

fn scatter_nd_writes(desc: &ScatterNdDesc, indices: &[u8]) -> ScatterWrites {
    let indices_rank = desc.indices.rank();
    let input_rank = desc.input.rank();
    let updates_rank = desc.updates.rank();
    let tuple = desc.indices.sizes[indices_rank - 1] as usize;
    let batch_sizes =
        &desc.indices.sizes[indices_rank - desc.indices_dimension_count as usize..indices_rank - 1];
    let first_indexed = input_rank - desc.input_dimension_count as usize;
    let slice_sizes = &desc.input.sizes[first_indexed + tuple..];
    let signed = desc.indices.data_type.is_signed();
    let mut writes = Vec::new();
    let mut status = Ok(());
    // Empty rows: no update element uses a tuple, and none is read.
    if slice_sizes.contains(&0) {
        return ScatterWrites { writes, status };
    }
    for_each_coordinate(batch_sizes, |b| {
        // The tuple's place in the indices: leading placeholders at 0, then b, then k.
        let mut at = vec![0u32; indices_rank - 1 - b.len()];
        at.extend_from_slice(b);
        at.push(0);
        let mut target = vec![0u32; input_rank];
        for k in 0..tuple {
            at[indices_rank - 1] = k as u32;
            let value = read_index(&desc.indices, indices, &at);
            let bound = desc.input.sizes[first_indexed + k];
            match normalise(value, bound, signed, desc.out_of_range) {
                Some(v) => target[first_indexed + k] = v,
                None => {
                    first_error(&mut status, at.clone(), value, bound);
                    return;
                }
            }
        }
        for_each_coordinate(slice_sizes, |t| {
            target[first_indexed + tuple..].copy_from_slice(t);
            // The updates hold [b, t] right-aligned: cropped leading dimensions are 1s.
            let update = gathered_coordinate(&[b, t].concat(), updates_rank);
            writes.push(ScatterWrite {
                output_offset: desc.output.byte_offset(&target),
                updates_offset: desc.updates.byte_offset(&update),
            });
        });
    });
    ScatterWrites { writes, status }
}

/// TensorScatter: update `c` goes to `c` with `c[axis]` replaced by the write position of
/// entry `c[0]`: `w + c[axis]` (linear, where `0 <= w <= L - S`, else the entry is skipped, or
/// `w` clamped into that range) or `(w + c[axis]) mod L` (circular; a floor modulo).
fn tensor_scatter_writes(desc: &TensorScatterDesc, write_indices: Option<&[u8]>) -> ScatterWrites {
    let axis = desc.axis as usize;
    let bound = desc.input.sizes[axis] as i128;
    let length = desc.updates.sizes[axis] as i128;
    let mut writes = Vec::new();
    let mut status = Ok(());
    for_each_coordinate(&desc.updates.sizes, |c| {
        let entry = c[0];
        let w = match (&desc.write_indices, write_indices) {
            (Some(t), Some(bytes)) => read_index(t, bytes, &[entry]),
            _ => 0,
        };
        let start = match desc.mode {
            TensorScatterMode::Circular => w.rem_euclid(bound),
            TensorScatterMode::Linear if (0..=bound - length).contains(&w) => w,
            TensorScatterMode::Linear if desc.out_of_range == OutOfRange::Clamp => {
                w.clamp(0, bound - length)
            }
            TensorScatterMode::Linear => {
                if status.is_ok() {
                    status = Err(Error::WriteIndexOutOfRange {
                        entry,
                        value: w,
                        length: length as u32,
                        bound: bound as u32,
                    });
                }
                return;
            }
        };
        let mut target = c.to_vec();
        target[axis] = ((start + c[axis] as i128) % bound) as u32;
        writes.push(ScatterWrite {
            output_offset: desc.output.byte_offset(&target),
            updates_offset: desc.updates.byte_offset(c),
        });
    });
    ScatterWrites { writes, status }
}

#[cfg(test)]
mod tests {
    use super::super::{from_le, le, run, run_with_status};
    use super::*;
    use crate::error::Error;
    use crate::ops::{OutOfRange, Reduction};
    use crate::tensor::{DataType, TensorDesc};

    // ---- scatters with reductions ----

    fn scatter_elements_1d(
        data_type: DataType,
        index_type: DataType,
        n: u32,
        k: u32,
    ) -> ScatterElementsDesc {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[n]),
            TensorDesc::new(index_type, &[k]),
            TensorDesc::new(data_type, &[k]),
            TensorDesc::new(data_type, &[n]),
            0,
        )
    }

    #[test]
    fn scatter_elements_add_sums_duplicate_targets_in_order() {
        let desc: OperatorDesc = scatter_elements_1d(DataType::Int32, DataType::Int32, 3, 5)
            .with_reduction(Reduction::Add)
            .into();
        let (input, indices, updates) = (
            le(&[10i32, 20, 30]),
            le(&[0i32, 2, 0, -3, 2]),
            le(&[1i32, 2, 3, 4, 5]),
        );
        let output = run(&desc, &[&input, &indices, &updates]).unwrap();
        // Element 0: 10 + 1 + 3 + 4 (-3 counts from the end); element 2: 30 + 2 + 5.
        assert_eq!(from_le::<i32>(&output), [18, 20, 37]);
        // The writes are unchanged: one per update, in the updates' order.
        let writes = scatter_writes(&desc, &[&input, &indices, &updates]).unwrap();
        let targets: Vec<u64> = writes.writes.iter().map(|w| w.output_offset).collect();
        assert_eq!(targets, [0, 8, 0, 0, 8]);
        assert_eq!(writes.status, Ok(()));
    }

    #[test]
    fn scatter_reductions_fold_in_row_major_order() {
        // f32: 1 + 2^24 rounds to 2^24 (a tie, to even), then - 2^24 gives 0; in the other
        // order the result would be 1.
        let desc: OperatorDesc = scatter_elements_1d(DataType::Float32, DataType::UInt32, 1, 2)
            .with_reduction(Reduction::Add)
            .into();
        let p24 = 16_777_216f32;
        let output = run(&desc, &[&le(&[1f32]), &le(&[0u32, 0]), &le(&[p24, -p24])]).unwrap();
        assert_eq!(from_le::<u32>(&output), [0]);
        // f16: 2048 + 1 is a tie, rounded to 2048 at every step: adding 1 four times leaves 2048.
        // (Tensors of fewer than 4 bytes are padded to 4.)
        let desc: OperatorDesc = scatter_elements_1d(DataType::Float16, DataType::Int64, 1, 4)
            .with_reduction(Reduction::Add)
            .into();
        let (input, updates) = (le(&[0x6800u16, 0]), le(&[0x3c00u16; 4]));
        let output = run(&desc, &[&input, &le(&[0i64; 4]), &updates]).unwrap();
        assert_eq!(from_le::<u16>(&output)[0], 0x6800);
        // Int8 Mul, wrapping through the fold: 3 * 5 * 7 * 11 = 1155 = 4 * 256 + 131: -125.
        let desc: OperatorDesc = scatter_elements_1d(DataType::Int8, DataType::Int32, 2, 3)
            .with_reduction(Reduction::Mul)
            .into();
        let (input, updates) = (le(&[3i8, 2, 0, 0]), le(&[5i8, 7, 11, 0]));
        let output = run(&desc, &[&input, &le(&[0i32, 0, 0]), &updates]).unwrap();
        assert_eq!(from_le::<i8>(&output)[..2], [-125, 2]);
        // No reduction: the last update wins.
        let desc: OperatorDesc =
            scatter_elements_1d(DataType::UInt16, DataType::Int32, 2, 3).into();
        let output = run(
            &desc,
            &[&le(&[9u16, 8]), &le(&[1i32, 1, 1]), &le(&[1u16, 2, 3, 0])],
        )
        .unwrap();
        assert_eq!(from_le::<u16>(&output), [9, 3]);
    }

    #[test]
    fn scatter_nd_min_and_max_fold_rows() {
        // Rows of a 3x2 Int64 matrix; rows 0 and 2 get two updates each.
        let make = |reduction| -> OperatorDesc {
            ScatterNdDesc::new(
                TensorDesc::new(DataType::Int64, &[3, 2]),
                TensorDesc::new(DataType::Int32, &[4, 1]),
                TensorDesc::new(DataType::Int64, &[4, 2]),
                TensorDesc::new(DataType::Int64, &[3, 2]),
                2,
                2,
            )
            .with_reduction(reduction)
            .into()
        };
        let input = le(&[0i64, 0, 5, 5, -10, 10]);
        let indices = le(&[0i32, 2, 0, -1]);
        let updates = le(&[-1i64, 1, 20, -20, -2, 2, 3, 30]);
        let inputs: [&[u8]; 3] = [&input, &indices, &updates];
        let min = run(&make(Reduction::Min), &inputs).unwrap();
        // Row 0: min(0, -1, -2), min(0, 1, 2); row 2: min(-10, 20, 3), min(10, -20, 30).
        assert_eq!(from_le::<i64>(&min), [-2, 0, 5, 5, -10, -20]);
        let max = run(&make(Reduction::Max), &inputs).unwrap();
        assert_eq!(from_le::<i64>(&max), [0, 2, 5, 5, 20, 30]);
    }

    #[test]
    fn scatter_min_keeps_the_current_zero_on_a_signed_zero_tie() {
        let desc: OperatorDesc = scatter_elements_1d(DataType::Float32, DataType::Int32, 2, 2)
            .with_reduction(Reduction::Min)
            .into();
        let output = run(
            &desc,
            &[&le(&[0f32, -0.0]), &le(&[0i32, 1]), &le(&[-0.0f32, 0.0])],
        )
        .unwrap();
        assert_eq!(from_le::<u32>(&output), [0x0000_0000, 0x8000_0000]);
    }

    #[test]
    fn scatter_elements_clamps_instead_of_skipping() {
        let make = |out_of_range| -> OperatorDesc {
            scatter_elements_1d(DataType::Int32, DataType::Int64, 5, 3)
                .with_out_of_range(out_of_range)
                .into()
        };
        let input = le(&[0i32; 5]);
        // -7 + 5 = -2 -> 0; u64::MAX read as Int64 is -1 -> 4; 9 -> 4.
        let indices = le(&[-7i64, -1, 9]);
        let updates = le(&[1i32, 2, 3]);
        let inputs: [&[u8]; 3] = [&input, &indices, &updates];
        let (output, status) = run_with_status(&make(OutOfRange::Clamp), &inputs).unwrap();
        assert_eq!(status, Ok(()));
        assert_eq!(from_le::<i32>(&output), [1, 0, 0, 0, 3]);
        // Report: -7 and 9 are skipped and -7 reported.
        let (output, status) = run_with_status(&make(OutOfRange::Report), &inputs).unwrap();
        assert_eq!(from_le::<i32>(&output), [0, 0, 0, 0, 2]);
        assert_eq!(
            status,
            Err(Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![0],
                value: -7,
                bound: 5,
            })
        );
        let writes = scatter_writes(&make(OutOfRange::Clamp), &inputs).unwrap();
        let targets: Vec<u64> = writes.writes.iter().map(|w| w.output_offset).collect();
        assert_eq!(targets, [0, 16, 16]);
    }

    #[test]
    fn scatter_nd_clamps_with_a_reduction() {
        let desc: OperatorDesc = ScatterNdDesc::new(
            TensorDesc::new(DataType::Int64, &[3, 2]),
            TensorDesc::new(DataType::UInt32, &[3, 1]),
            TensorDesc::new(DataType::Int64, &[3, 2]),
            TensorDesc::new(DataType::Int64, &[3, 2]),
            2,
            2,
        )
        .with_out_of_range(OutOfRange::Clamp)
        .with_reduction(Reduction::Add)
        .into();
        let input = le(&[1i64, 2, 3, 4, 5, 6]);
        // Rows 9 -> 2, u32::MAX -> 2, 0.
        let indices = le(&[9u32, u32::MAX, 0]);
        let updates = le(&[10i64, 20, 100, 200, -1, -2]);
        let output = run(&desc, &[&input, &indices, &updates]).unwrap();
        assert_eq!(from_le::<i64>(&output), [0, 0, 3, 4, 115, 226]);
    }
}
