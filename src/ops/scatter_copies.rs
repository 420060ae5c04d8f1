//! A scatter's `output = input` out of place: the copy's own steps, and whether a kernel of
//! the scatter may copy as it goes instead (as it folds rows' lists or sorted runs, or as it
//! screens the output; `ops/scatter_lowering.rs` chooses).

use super::index_map::IndexMap;
use super::scatter_lowering::Scatter;
use super::strided_copy::StridedCopy;
use crate::kernels::units_per_word;
use crate::lowering::{DeviceFacts, InPlace, Lowered, Placement};
use crate::tensor::TensorDesc;

/// A scatter with no updates: the copy `output = input` out of place, nothing in place (nor
/// where the output is empty). No index is read, so nothing is reported.
pub(super) fn copy_only(scatter: &Scatter, device: &DeviceFacts) -> Lowered {
    let steps = if scatter.output.is_empty() {
        Vec::new()
    } else {
        let copy = output_copy(scatter.input, scatter.output);
        let device = device.for_kernels(&copy.kernels(device), 0, 0);
        copy.steps(&device, Placement::OutOfPlace)
    };
    Lowered {
        steps,
        scratch_bytes: 0,
        links_bytes: 0,
        index_report: None,
        in_place: in_place(scatter),
        zero_indices_bytes: 0,
    }
}

/// Whether the scatter may run in place: input and output laid out alike.
pub(super) fn in_place(scatter: &Scatter) -> InPlace {
    let (input, output) = (scatter.input, scatter.output);
    if input.effective_strides() == output.effective_strides()
        && input.size_in_bytes() == output.size_in_bytes()
    {
        InPlace::SameLayout
    } else {
        InPlace::LayoutsDiffer
    }
}

/// Whether a reduction by rows (lists, or sorted runs) or by sorted updates may copy
/// `output = input` as it folds them (`fold_slice_list_copy`, `fold_slice_columns_copy`: a
/// column fold over every block, the sorted runs' only where the first fold starts from the
/// blocks or the rows are wide and the runs short, `scatter_plans::sorted_copy_pass`;
/// `fold_runs_copy`: a thread a unit): the input laid out as the output and without
/// gaps, so that each output unit's value is the input's unit at the same place; the blocks
/// tiling the output; each thread's cells whole words (units of 4 and 8 bytes by updates).
pub(super) fn copies_as_it_folds(scatter: &Scatter, map: &IndexMap, slice_units: u64) -> bool {
    let output = scatter.output;
    let element_bytes = map.element_bytes as u64;
    let packed = output.element_count().checked_mul(element_bytes) == Some(output.size_in_bytes());
    in_place(scatter) == InPlace::SameLayout
        && packed
        && output.element_count().is_multiple_of(slice_units)
        && slice_units.is_multiple_of(units_per_word(map.element_bytes) as u64)
}

/// Whether the screen of the output before Float32's atomics or the claims as placed
/// (`screen_output`, `screen_float_add`: 4-byte units) may copy `output = input` as it reads,
/// out of place: the input laid out as the output, without gaps, so that each output unit's
/// value is the input's unit at the same place (as [`copies_as_it_folds`] asks).
pub(super) fn screen_copies(scatter: &Scatter, map: &IndexMap) -> bool {
    map.element_bytes == 4 && copies_as_it_folds(scatter, map, 1)
}

/// `output = input`, as a strided copy.
pub(super) fn output_copy(input: &TensorDesc, output: &TensorDesc) -> StridedCopy {
    StridedCopy {
        element_bytes: input.data_type.size_in_bytes(),
        sizes: input.sizes.clone(),
        input_strides: input.signed_strides(),
        input_base: 0,
        output_strides: output.signed_strides(),
        output_base: 0,
    }
}
