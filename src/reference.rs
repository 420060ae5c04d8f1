//! CPU reference semantics of every operator, over raw little-endian bytes.
//!
//! Written from the operator definitions, element by element, with none of the GPU path's
//! lowering (no dimension merging, no widening): the tests hold the GPU to these results
//! bit for bit. Useful to users too, as an executable statement of the semantics.

use crate::error::{Error, Result};
use crate::ops::{OperatorDesc, Slice1Desc, SliceDesc};
use crate::tensor::TensorDesc;

/// Runs `desc` on the CPU. Same contract as [`crate::Context::run`].
pub fn run(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<Vec<u8>> {
    desc.validate()?;
    let tensors = desc.inputs();
    if inputs.len() != tensors.len() {
        return Err(Error::InputCount {
            expected: tensors.len(),
            actual: inputs.len(),
        });
    }
    for ((tensor, t), data) in tensors.iter().zip(inputs) {
        if (data.len() as u64) < t.size_in_bytes() {
            return Err(Error::InputTooSmall {
                tensor,
                given: data.len() as u64,
                required: t.size_in_bytes(),
            });
        }
    }
    Ok(match desc {
        OperatorDesc::Slice(d) => slice(d, inputs[0]),
        OperatorDesc::Slice1(d) => slice1(d, inputs[0]),
    })
}

/// `output[c] = input[offsets + strides * c]` (the descriptor must be valid).
pub fn slice(desc: &SliceDesc, input: &[u8]) -> Vec<u8> {
    let mut output = zeroed(&desc.output);
    for_each_coordinate(&desc.output.sizes, |c| {
        let source: Vec<u32> = (0..c.len())
            .map(|d| desc.offsets[d] + desc.strides[d] * c[d])
            .collect();
        copy_element(&desc.input, input, &source, &desc.output, &mut output, c);
    });
    output
}

/// The window walk of `DML_SLICE1` (the descriptor must be valid): along dimension `d`, output
/// element `c` reads `offset + c * stride` for a positive stride, and
/// `offset + window_size - 1 - c * |stride|` for a negative one.
pub fn slice1(desc: &Slice1Desc, input: &[u8]) -> Vec<u8> {
    let mut output = zeroed(&desc.output);
    for_each_coordinate(&desc.output.sizes, |c| {
        let source: Vec<u32> = (0..c.len())
            .map(|d| {
                let offset = desc.input_window_offsets[d];
                let step = desc.input_window_strides[d].unsigned_abs() * c[d];
                if desc.input_window_strides[d] > 0 {
                    offset + step
                } else {
                    offset + desc.input_window_sizes[d] - 1 - step
                }
            })
            .collect();
        copy_element(&desc.input, input, &source, &desc.output, &mut output, c);
    });
    output
}

fn zeroed(t: &TensorDesc) -> Vec<u8> {
    vec![0; t.size_in_bytes() as usize]
}

/// Calls `f` with every coordinate of `sizes`, in row-major order.
pub(crate) fn for_each_coordinate(sizes: &[u32], mut f: impl FnMut(&[u32])) {
    let mut c = vec![0u32; sizes.len()];
    loop {
        f(&c);
        let mut d = sizes.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            c[d] += 1;
            if c[d] < sizes[d] {
                break;
            }
            c[d] = 0;
        }
    }
}

fn copy_element(
    from: &TensorDesc,
    from_bytes: &[u8],
    from_coordinate: &[u32],
    to: &TensorDesc,
    to_bytes: &mut [u8],
    to_coordinate: &[u32],
) {
    let width = from.data_type.size_in_bytes() as usize;
    let source = from.byte_offset(from_coordinate) as usize;
    let target = to.byte_offset(to_coordinate) as usize;
    to_bytes[target..target + width].copy_from_slice(&from_bytes[source..source + width]);
}
