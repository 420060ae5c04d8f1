//! What lowering produces: an operator's steps (dispatches with their grids),
//! where they run (in place or not), and the device facts lowering reads. Operators lower
//! to these (`ops/`); `context.rs` compiles them.

use crate::error::{Error, Result};
use crate::kernels::params::Parameters;
use crate::kernels::{Entry, Kernel, ROLES, Role};
use crate::status::IndexReport;
use crate::windows::WindowPlan;

/// Whether an operator's `input` may be bound to the output's own buffer range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InPlace {
    /// No input may share the output's buffer (slices and gathers read what they write).
    Forbidden,
    /// A scatter whose input and output layouts are equal: in place is allowed at the same
    /// offset, and the `output = input` copy is then skipped.
    SameLayout,
    /// A scatter whose layouts differ: in place would need them equal.
    LayoutsDiffer,
}

/// The 64-bit integer atomics a device offers in storage buffers (wgpu's
/// `SHADER_INT64_ATOMIC_MIN_MAX` and `SHADER_INT64_ATOMIC_ALL_OPS`, with `SHADER_INT64`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Int64Atomics {
    #[default]
    None,
    /// `atomicMin` and `atomicMax` whose result is unused.
    MinMax,
    /// Every atomic operation, `atomicAdd` included.
    All,
}

impl Int64Atomics {
    /// What `features` offer.
    pub fn of(features: wgpu::Features) -> Int64Atomics {
        use wgpu::Features as F;
        if !features.contains(F::SHADER_INT64) {
            Int64Atomics::None
        } else if features.contains(F::SHADER_INT64_ATOMIC_ALL_OPS) {
            Int64Atomics::All
        } else if features.contains(F::SHADER_INT64_ATOMIC_MIN_MAX) {
            Int64Atomics::MinMax
        } else {
            Int64Atomics::None
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
    /// Threads of a row kernel's workgroup (`scatter_copy_rows`, `scatter_rows_in_place`): up
    /// to 1024, as the device allows.
    pub row_threads: u32,
    /// `max_compute_workgroup_storage_size`: the workgroup memory a kernel may hold.
    pub max_workgroup_storage_bytes: u32,
    /// Workgroups a dispatch dimension.
    pub max_workgroups_per_dimension: u32,
    /// The device runs the `output = input` copy faster by kernel than by copy command
    /// (`Context::copy_method`): a scatter out of place may then copy inside its own kernel
    /// (`scatter_copy_rows`).
    pub copies_in_kernels: bool,
    /// The 64-bit integer atomics the device offers (and the context uses).
    pub int64_atomics: Int64Atomics,
    /// The device has f64 (`SHADER_F64` and `SHADER_INT64`) and the context uses it: Float64
    /// Add and Mul take its arithmetic where it gives IEEE's bits.
    pub hardware_float64: bool,
    /// The device has f32 atomics (`SHADER_FLOAT32_ATOMIC`) and the context uses them: Float32
    /// Add in any order may add by one `atomicAdd` an update (after a screen of the output's
    /// values).
    pub float32_atomics: bool,
    /// The device may end an invocation's loops after a number of iterations in all (Mesa's
    /// llvmpipe and lavapipe: 65535 a SIMD vector, `src/kernels/in_order.rs`'s `FOLD_STEPS`),
    /// or is not known to be a GPU that does not: the wide copies' first fold pass walks a
    /// part's share of `FOLD_STEPS` (`first_fold_steps` in `src/ops/scatter_plans.rs`).
    pub bounded_loops: bool,
    /// Only the entry points that handle one element at a time (where tensors are split
    /// into more windows than a dispatch binds, each element checks its windows). Lowering
    /// sets it where [`DeviceFacts::binds_partially`] says so.
    pub per_element: bool,
    /// The operator's tensors and the device's binding limits, to tell where a kernel binds
    /// only some windows of a tensor a dispatch (`None`: every tensor fits one binding).
    pub bindings: Option<BindingFacts>,
}

/// What decides how tensors are bound (`windows.rs`): each role's bytes and the limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BindingFacts {
    /// The caller's tensors and the status, per role ([`Role::index`]); lowering adds its
    /// scratch.
    pub bytes: [u64; ROLES],
    pub max_storage_buffer_binding_size: u64,
    pub min_storage_buffer_offset_alignment: u32,
    pub max_storage_buffers_per_shader_stage: u32,
}

impl DeviceFacts {
    /// Whether a dispatch of any of `kernels`, with the operator's scratch of `scratch`
    /// bytes (`Role::Winners` and `Role::Heads`) and `links` bytes, binds only some windows
    /// of a tensor: the entry points must then check each element's windows.
    pub fn binds_partially(&self, kernels: &[Kernel], scratch: u64, links: u64) -> bool {
        let Some(bindings) = &self.bindings else {
            return false;
        };
        let mut bytes = bindings.bytes;
        bytes[Role::Winners.index()] = scratch;
        bytes[Role::Heads.index()] = scratch;
        bytes[Role::Links.index()] = links;
        // A plan the device cannot make fails `compile` later, as it plans the same way.
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: bindings.max_storage_buffer_binding_size,
            min_storage_buffer_offset_alignment: bindings.min_storage_buffer_offset_alignment,
            ..wgpu::Limits::downlevel_defaults()
        };
        let Ok(plan) = WindowPlan::new(bytes, &limits) else {
            return false;
        };
        let storage_limit = bindings.max_storage_buffers_per_shader_stage;
        kernels.iter().any(|&kernel| {
            plan.kernel_passes(kernel, None, storage_limit)
                .is_ok_and(|(windowing, _)| windowing.partial)
        })
    }

    /// These facts with `per_element` set where `kernels` bind partially (see
    /// [`DeviceFacts::binds_partially`]).
    pub fn for_kernels(&self, kernels: &[Kernel], scratch: u64, links: u64) -> DeviceFacts {
        DeviceFacts {
            per_element: self.per_element || self.binds_partially(kernels, scratch, links),
            ..*self
        }
    }
}

/// One GPU command of a lowered operator: a compute dispatch, binding 0 holding `params`,
/// the kernel's other bindings its buffers by role. (Nothing is recorded outside the compute
/// pass but copies by command: the status words are zeroed by the operator's last pass, the
/// scratch by a dispatch, `Entry::ClearHeads` or `Entry::ClearWinners`.)
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub kernel: Kernel,
    pub entry: Entry,
    pub params: Parameters,
    pub grid: Grid,
    /// Whether the step runs in place (the output bound to the input's own range), out of
    /// place, or both.
    pub placement: Placement,
}

impl Step {
    /// The step as it runs: where `copies`, out of place its kernel's copying variant (which
    /// copies `output = input` as it reads the output's units: `Kernel::copying`) and in
    /// place the step itself; else the step alone.
    pub fn copying_out_of_place(self, copies: bool) -> Vec<Step> {
        if !copies {
            return vec![self];
        }
        let copying = Step {
            kernel: self.kernel.copying(),
            placement: Placement::OutOfPlace,
            ..self.clone()
        };
        vec![
            copying,
            Step {
                placement: Placement::InPlace,
                ..self
            },
        ]
    }
}

/// When a dispatch runs: a scatter's `output = input` copy (or a kernel that copies as it
/// scatters) only out of place; the plain scatter that such a kernel replaces only in
/// place, and likewise the plain scatter that an in-place kernel replaces (a workgroup a
/// row) only out of place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    Always,
    OutOfPlace,
    InPlace,
}

impl Placement {
    pub fn runs(self, in_place: bool) -> bool {
        match self {
            Placement::Always => true,
            Placement::OutOfPlace => !in_place,
            Placement::InPlace => in_place,
        }
    }
}

/// A lowered operator: its steps and what `context.rs` needs around them.
#[derive(Clone, Debug)]
pub(crate) struct Lowered {
    pub steps: Vec<Step>,
    /// Bytes of scratch the steps use (`Role::Winners` or `Role::Heads`).
    pub scratch_bytes: u64,
    /// Bytes of an in-order reduction's links (`Role::Links`).
    pub links_bytes: u64,
    /// How to turn the status words into `Error::IndexOutOfRange`, for operators with indices.
    pub index_report: Option<IndexReport>,
    /// Whether input 0 may be bound to the output's own range.
    pub in_place: InPlace,
    /// Bytes of zeros the operator binds as its indices where the caller gives none
    /// (TensorScatter without write indices); 0: none.
    pub zero_indices_bytes: u64,
}

impl Lowered {
    pub(crate) fn steps(steps: Vec<Step>) -> Lowered {
        Lowered {
            steps,
            scratch_bytes: 0,
            links_bytes: 0,
            index_report: None,
            in_place: InPlace::Forbidden,
            zero_indices_bytes: 0,
        }
    }
}

/// How a dispatch covers its work, decided by lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grid {
    /// This many threads, one after the other: folded into 2-D and 3-D past the dispatch
    /// limit (see [`workgroup_count`]).
    Flat(u64),
    /// These workgroup counts exactly (the planes of a strided copy).
    Planes([u32; 3]),
}

impl Grid {
    /// The workgroup counts to dispatch.
    pub fn workgroups(self, workgroup_size: u32, max_per_dimension: u32) -> Result<[u32; 3]> {
        match self {
            Grid::Flat(invocations) => {
                workgroup_count(invocations, workgroup_size, max_per_dimension)
            }
            Grid::Planes(groups) => Ok(groups),
        }
    }
}

/// The workgroup grid for `invocations` threads in groups of `workgroup_size`, folded into
/// 2-D and then 3-D once a dimension would pass `max_per_dimension` (65535 on most adapters).
/// The shaders flatten the grid back (`invocation_index` in `shaders/common.wgsl`) and
/// guard every thread past `invocations`.
pub(crate) fn workgroup_count(
    invocations: u64,
    workgroup_size: u32,
    max_per_dimension: u32,
) -> Result<[u32; 3]> {
    // Keeps the flat index and its guard inside u32 (see invocation_index).
    let max_invocations = u32::MAX as u64 - workgroup_size as u64;
    if invocations > max_invocations {
        return Err(Error::LimitExceeded {
            what: "one dispatch",
            needed: invocations,
            limit_name: "invocations a dispatch (u32 index space)",
            limit: max_invocations,
        });
    }
    let groups = invocations.div_ceil(workgroup_size as u64).max(1);
    let max = max_per_dimension.max(1) as u64;
    // As few rows and layers as needed, each as short as possible: idle groups past the
    // end stay under one row (and one layer).
    let z = groups.div_ceil(max * max);
    let y = groups.div_ceil(z).div_ceil(max);
    let x = groups.div_ceil(z * y);
    if z > max {
        return Err(Error::LimitExceeded {
            what: "one dispatch",
            needed: groups,
            limit_name: "max_compute_workgroups_per_dimension cubed",
            limit: max * max * max,
        });
    }
    Ok([x as u32, y as u32, z as u32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_stay_one_dimensional() {
        assert_eq!(workgroup_count(1, 256, 65535).unwrap(), [1, 1, 1]);
        assert_eq!(workgroup_count(257, 256, 65535).unwrap(), [2, 1, 1]);
    }

    #[test]
    fn large_counts_fold_and_cover_every_invocation() {
        for &(n, max) in &[
            (65536u64 * 256, 65535u32),
            (1 << 31, 65535),
            (1000, 3),
            (10_000, 4),
        ] {
            let [x, y, z] = workgroup_count(n, 256, max).unwrap();
            assert!(x <= max && y <= max && z <= max, "{n} {max}: {x} {y} {z}");
            let total = x as u64 * y as u64 * z as u64;
            assert!(total * 256 >= n);
            // Idle groups stay fewer than one row of the fold.
            assert!(
                total - n.div_ceil(256) < (x as u64 * y as u64).max(1),
                "{n} {max}: {x} {y} {z}"
            );
        }
    }

    #[test]
    fn folding_wastes_less_than_one_row() {
        assert_eq!(
            workgroup_count(65536 * 256, 256, 65535).unwrap(),
            [32768, 2, 1]
        );
    }

    #[test]
    fn counts_past_the_index_space_are_refused() {
        assert!(matches!(
            workgroup_count(u32::MAX as u64, 256, 65535),
            Err(Error::LimitExceeded { .. })
        ));
    }
}
