//! CPU reference semantics of every operator, over raw little-endian bytes.
//!
//! Written from the operator definitions, element by element, with none of the GPU path's
//! lowering (no dimension merging, no widening): the tests hold the GPU to these results
//! bit for bit. Useful to users too, as an executable statement of the semantics.

use crate::error::{Error, Result};
use crate::ops::{
    GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc, ScatterElementsDesc, ScatterNdDesc,
    Slice1Desc, SliceDesc,
};
use crate::tensor::TensorDesc;

/// Runs `desc` on the CPU. Same contract as [`crate::Context::run`]: an out-of-range index
/// gives `Err(Error::IndexOutOfRange)` naming the first one in the indices' row-major order.
/// Scatters apply their updates in row-major order, so the last duplicate wins: one of the
/// outcomes [`crate::DuplicateMode::AnyUpdate`] allows, and the one `LastWins` guarantees.
pub fn run(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<Vec<u8>> {
    let (output, status) = run_with_status(desc, inputs)?;
    status.map(|()| output)
}

/// Like [`run`], but returns the output even when an index was out of range (those updates
/// skipped, a gather's elements zero), beside the status.
pub fn run_with_status(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<(Vec<u8>, Result<()>)> {
    check_inputs(desc, inputs)?;
    Ok(match desc {
        OperatorDesc::Slice(d) => (slice(d, inputs[0]), Ok(())),
        OperatorDesc::Slice1(d) => (slice1(d, inputs[0]), Ok(())),
        OperatorDesc::ScatterElements(_) | OperatorDesc::ScatterNd(_) => {
            let (input, output) = match desc {
                OperatorDesc::ScatterElements(d) => (&d.input, &d.output),
                OperatorDesc::ScatterNd(d) => (&d.input, &d.output),
                _ => unreachable!(),
            };
            let writes = scatter_writes(desc, inputs)?;
            let mut bytes = zeroed(output);
            for_each_coordinate(&input.sizes, |c| {
                copy_element(input, inputs[0], c, output, &mut bytes, c);
            });
            let width = input.data_type.size_in_bytes() as usize;
            for w in &writes.writes {
                let (to, from) = (w.output_offset as usize, w.updates_offset as usize);
                bytes[to..to + width].copy_from_slice(&inputs[2][from..from + width]);
            }
            (bytes, writes.status)
        }
        OperatorDesc::Gather(d) => gather(d, inputs[0], inputs[1]),
        OperatorDesc::GatherElements(d) => gather_elements(d, inputs[0], inputs[1]),
        OperatorDesc::GatherNd(d) => gather_nd(d, inputs[0], inputs[1]),
    })
}

/// Between a tensor and the `count` meaningful dimensions it holds right-aligned (a gather's
/// output, ScatterND's updates): the coordinate `o` with leading zeros added, or cropped
/// (cropped dimensions are 1s, so their coordinate is 0), to `count` dimensions.
fn gathered_coordinate(o: &[u32], count: usize) -> Vec<u32> {
    if count >= o.len() {
        let mut g = vec![0u32; count - o.len()];
        g.extend_from_slice(o);
        g
    } else {
        o[o.len() - count..].to_vec()
    }
}

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
fn gather(desc: &GatherDesc, input: &[u8], indices: &[u8]) -> (Vec<u8>, Result<()>) {
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
        let n = normalise(value, bound, signed).ok_or((at, value, bound))?;
        Ok([&g[..axis], &[n], &g[axis + index_dimensions..]].concat())
    })
}

/// `DML_GATHER_ELEMENTS`: `output[c] = input[c with c[axis] = indices[c]]`.
fn gather_elements(
    desc: &GatherElementsDesc,
    input: &[u8],
    indices: &[u8],
) -> (Vec<u8>, Result<()>) {
    let axis = desc.axis as usize;
    let bound = desc.input.sizes[axis];
    let signed = desc.indices.data_type.is_signed();
    gather_with(&desc.input, input, &desc.output, |c| {
        let value = read_index(&desc.indices, indices, c);
        let n = normalise(value, bound, signed).ok_or((c.to_vec(), value, bound))?;
        let mut from = c.to_vec();
        from[axis] = n;
        Ok(from)
    })
}

/// `DML_GATHER_ND1`: `output[batch, b, t] = input[batch, indices[batch, b, :], t]`.
fn gather_nd(desc: &GatherNdDesc, input: &[u8], indices: &[u8]) -> (Vec<u8>, Result<()>) {
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
            from.push(normalise(value, bound, signed).ok_or((at.clone(), value, bound))?);
        }
        from.extend_from_slice(&g[leading..]);
        Ok(from)
    })
}

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

/// The writes of a ScatterElements or ScatterND descriptor (validated here).
pub fn scatter_writes(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<ScatterWrites> {
    check_inputs(desc, inputs)?;
    Ok(match desc {
        OperatorDesc::ScatterElements(d) => scatter_elements_writes(d, inputs[1]),
        OperatorDesc::ScatterNd(d) => scatter_nd_writes(d, inputs[1]),
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
        match normalise(value, bound, desc.indices.data_type.is_signed()) {
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
            match normalise(value, bound, signed) {
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

/// Reads the index element at `c` as a wide integer (signed types sign-extended).
fn read_index(t: &TensorDesc, bytes: &[u8], c: &[u32]) -> i128 {
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
/// signed types `[-bound, 0)` counted from the end; `None` otherwise.
fn normalise(value: i128, bound: u32, signed: bool) -> Option<u32> {
    let bound = bound as i128;
    if (0..bound).contains(&value) {
        Some(value as u32)
    } else if signed && (-bound..0).contains(&value) {
        Some((value + bound) as u32)
    } else {
        None
    }
}

fn first_error(status: &mut Result<()>, position: Vec<u32>, value: i128, bound: u32) {
    if status.is_ok() {
        *status = Err(Error::IndexOutOfRange {
            tensor: "indices",
            position,
            value,
            bound,
        });
    }
}

fn check_inputs(desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<()> {
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
    Ok(())
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

/// Calls `f` with every coordinate of `sizes`, in row-major order (once, with none, for no sizes).
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
