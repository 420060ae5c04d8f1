//! Float32 Add by the device's f32 atomics (`shaders/scatter_float_add.wgsl`): the steps of
//! its screen and its atomics, which the lowering puts before the compare-exchange pass.

use super::index_map::IndexMap;
use super::scatter_bins::spread;
use crate::kernels::params::Parameters;
use crate::kernels::{CLEAR_WORDS, Entry, Kernel, ReduceOrder};
use crate::lowering::{Grid, Placement, Step};
use crate::options::Reduction;
use crate::tensor::DataType;

/// The kernel of the Float32 Add by f32 atomics: its screen and its atomics.
pub(super) const FLOAT_ADD_KERNEL: Kernel = Kernel::ScatterReduce {
    data_type: DataType::Float32,
    reduction: Reduction::Add,
    order: ReduceOrder::FloatAtomics,
    copies: false,
    hardware_float64: false,
};

/// Updates a thread of `scatter_add_float_atomics` takes at most (within REDUCE_GROUP, the
/// kernel's bound). 4 Mi Float32 updates on an H100 (bench/results/2026-11-28-h100-float-
/// atomics/run2): 4 a thread took 3 to 6 % less time than 16 onto 16,385 and 4 Mi targets,
/// within 1 % of it onto 65,536 to 1 Mi; 1 a thread was 4 to 9 % slower than 4 onto 131,072
/// and 1 Mi targets, within 2 % elsewhere.
const FLOAT_ADD_GROUP: u32 = 4;

/// Float32 Add by the device's f32 atomics: the screen of the output's values (CLEAR_WORDS
/// units a thread, their loads in flight together), then one `atomicAdd` an update whose
/// value is safe for them (up to FLOAT_ADD_GROUP a thread), none where the screen refused the
/// output; the compare-exchange pass after them reduces what they left
/// (`shaders/scatter_float_add.wgsl`).
/// `screen_copies`: out of place, the screen copies `output = input` as it reads (the
/// lowering then has no copy of its own).
pub(super) fn float_atomics_steps(
    steps: &mut Vec<Step>,
    map: &IndexMap,
    output_units: u64,
    screen_copies: bool,
) {
    let kernel = FLOAT_ADD_KERNEL;
    let mut params = map.params(1);
    // The output's units fit u32 (checked by `choose`).
    params.bins.units = output_units as u32;
    let screen = Step {
        kernel,
        entry: Entry::ScreenFloatAdd,
        params: Parameters::Index(params),
        grid: Grid::Flat(output_units.div_ceil(CLEAR_WORDS as u64)),
        placement: Placement::Always,
    };
    steps.extend(screen.copying_out_of_place(screen_copies));
    let mut params = map.params(1);
    let (per_thread, threads) = spread(map.invocations(), FLOAT_ADD_GROUP);
    params.bins.per_thread = per_thread;
    params.bins.threads = threads as u32;
    steps.push(Step {
        kernel,
        entry: Entry::ScatterAddFloatAtomics,
        params: Parameters::Index(params),
        grid: Grid::Flat(threads),
        placement: Placement::Always,
    });
}
