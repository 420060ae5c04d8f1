//! CPU reference semantics of every operator, over raw little-endian bytes.
//!
//! Written from the operator definitions, element by element, with none of the GPU path's
//! lowering (no dimension merging, no widening): the tests hold the GPU to these results
//! bit for bit. Useful to users too, as an executable statement of the semantics.
//!
//! * Indices: with [`OutOfRange::Report`] an index outside its dimension is skipped (a
//!   scatter's update) or reads zero (a gather's element) and is reported; with
//!   [`OutOfRange::Clamp`] it is clamped into the dimension (see [`clamp_index`]).
//! * Scatters: `output = input`, then the updates apply in the updates' row-major order
//!   (what [`DuplicateMode::InOrder`] promises on the GPU): with [`Reduction::None`] each
//!   replaces its target, so the last one aimed at an element wins; with a reduction each is
//!   folded in, `output[t] = output[t] op update` (see [`reduce_element`]), so an element
//!   ends as `((input op u0) op u1) ..`.
//! * Sizes of 0: an index is read only where an element uses it (an element of a gather's
//!   output, of a scatter's updates), so empty outputs and updates read no index; an index
//!   into an empty dimension is out of range.
//!
//! [`DuplicateMode::InOrder`]: crate::DuplicateMode::InOrder
//! * Float16 and BFloat16 arithmetic and conversions are written out here by hand
//!   ([`f16_to_f32`], [`f32_to_f16`], [`bf16_to_f32`], [`f32_to_bf16`]), not taken from a
//!   library, and NaN bits are defined explicitly, never left to the hardware.
//!
//! The files: this one the entry points ([`run`], [`run_with_status`]), the slices and the
//! coordinate walk; `index.rs` reading, normalising and clamping indices; `gather.rs` and
//! `scatter.rs` the gathers and the scatters' writes; `arithmetic.rs` the scatter
//! reductions' arithmetic, software float included (the CPU twin of
//! `shaders/arithmetic.wgsl`); `narrow_floats.rs` the 16-bit formats' conversions to and from
//! f32.

mod arithmetic;
mod gather;
mod index;
mod narrow_floats;
mod scatter;

pub use arithmetic::{reduce_element, reduce_into};
pub use index::clamp_index;
pub use narrow_floats::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
pub use scatter::{ScatterWrite, ScatterWrites, scatter_writes};

use crate::error::{Error, Result};
#[cfg(doc)] // for the docs' links
use crate::ops::OutOfRange;
use crate::ops::Reduction;
use crate::ops::{OperatorDesc, Slice1Desc, SliceDesc};
use crate::tensor::TensorDesc;
use gather::{gather, gather_elements, gather_nd};

/// Runs `desc` on the CPU. Same contract as [`crate::Context::run`]: with
/// [`OutOfRange::Report`] an out-of-range index gives `Err(Error::IndexOutOfRange)` naming
/// the first one in the indices' row-major order; with [`OutOfRange::Clamp`] it is clamped
/// and nothing is reported.
///
/// Scatters apply their updates in the updates' row-major order, exactly what
/// [`DuplicateMode::InOrder`] guarantees: with no [`Reduction`] the last update aimed at an
/// element wins (one of the outcomes [`DuplicateMode::AnyUpdate`] allows); with one, the
/// element is the sequential fold `((input op u0) op u1) ..` of [`reduce_element`].
///
/// [`DuplicateMode::InOrder`]: crate::DuplicateMode::InOrder
/// [`DuplicateMode::AnyUpdate`]: crate::DuplicateMode::AnyUpdate
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
        OperatorDesc::ScatterElements(_)
        | OperatorDesc::ScatterNd(_)
        | OperatorDesc::TensorScatter(_) => {
            let (input, output, reduction) = match desc {
                OperatorDesc::ScatterElements(d) => (&d.input, &d.output, d.reduction),
                OperatorDesc::ScatterNd(d) => (&d.input, &d.output, d.reduction),
                OperatorDesc::TensorScatter(d) => (&d.input, &d.output, Reduction::None),
                _ => unreachable!(),
            };
            let writes = scatter_writes(desc, inputs)?;
            // The updates: TensorScatter takes them second.
            let updates = match desc {
                OperatorDesc::TensorScatter(_) => inputs[1],
                _ => inputs[2],
            };
            let mut bytes = zeroed(output);
            for_each_coordinate(&input.sizes, |c| {
                copy_element(input, inputs[0], c, output, &mut bytes, c);
            });
            let data_type = input.data_type;
            let width = data_type.size_in_bytes() as usize;
            for w in &writes.writes {
                let (to, from) = (w.output_offset as usize, w.updates_offset as usize);
                let update = &updates[from..from + width];
                reduce_into(data_type, reduction, &mut bytes[to..to + width], update);
            }
            (bytes, writes.status)
        }
        OperatorDesc::Gather(d) => gather(d, inputs[0], inputs[1]),
        OperatorDesc::GatherElements(d) => gather_elements(d, inputs[0], inputs[1]),
        OperatorDesc::GatherNd(d) => gather_nd(d, inputs[0], inputs[1]),
    })
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

/// Calls `f` with every coordinate of `sizes`, in row-major order (once, with none, for no
/// sizes; never where a size is 0). Public for the tests' generators only.
#[doc(hidden)]
pub fn for_each_coordinate(sizes: &[u32], mut f: impl FnMut(&[u32])) {
    if sizes.contains(&0) {
        return;
    }
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

#[cfg(test)]
fn le<T: bytemuck::NoUninit>(values: &[T]) -> Vec<u8> {
    bytemuck::cast_slice(values).to_vec()
}

#[cfg(test)]
fn from_le<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    bytemuck::pod_collect_to_vec(bytes)
}
