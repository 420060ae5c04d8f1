//! Operator descriptors, their validation, and their lowering to kernel dispatches.
//!
//! Each operator group (slices, scatters, gathers) has a module: it defines the DirectML-shaped `*Desc`, checks every rule
//! before any GPU work, and lowers the descriptor to the kernel dispatches `context.rs` records.

pub mod gather;
mod index_map;
pub mod scatter;
pub mod slice;
mod strided_copy;
mod validate;

pub use gather::{GatherDesc, GatherElementsDesc, GatherNdDesc};
pub use scatter::{DuplicateMode, Reduction, ScatterElementsDesc, ScatterNdDesc};
pub use slice::{Slice1Desc, SliceDesc};
pub use validate::INDEX_TYPES;

pub(crate) use crate::status::IndexReport;
pub(crate) use strided_copy::StridedCopy;

use crate::dispatch::Grid;
use crate::error::Result;
use crate::kernels::{Entry, Kernel, Role};
use crate::params::Parameters;
use crate::tensor::TensorDesc;

/// One DirectML operator with its tensors and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperatorDesc {
    /// `DML_SLICE_OPERATOR_DESC`.
    Slice(SliceDesc),
    /// `DML_SLICE1_OPERATOR_DESC`.
    Slice1(Slice1Desc),
    /// `DML_SCATTER_OPERATOR_DESC` (scatter elements).
    ScatterElements(ScatterElementsDesc),
    /// `DML_SCATTER_ND_OPERATOR_DESC`.
    ScatterNd(ScatterNdDesc),
    /// `DML_GATHER_OPERATOR_DESC`.
    Gather(GatherDesc),
    /// `DML_GATHER_ELEMENTS_OPERATOR_DESC`.
    GatherElements(GatherElementsDesc),
    /// `DML_GATHER_ND1_OPERATOR_DESC` (`DML_GATHER_ND` with no batch dimensions).
    GatherNd(GatherNdDesc),
}

/// `OperatorDesc::from(desc)` and `desc.into()` for every operator's desc.
macro_rules! operator_from {
    ($($variant:ident($desc:ty),)*) => {
        $(impl From<$desc> for OperatorDesc {
            fn from(desc: $desc) -> OperatorDesc {
                OperatorDesc::$variant(desc)
            }
        })*
    };
}

operator_from! {
    Slice(SliceDesc),
    Slice1(Slice1Desc),
    ScatterElements(ScatterElementsDesc),
    ScatterNd(ScatterNdDesc),
    Gather(GatherDesc),
    GatherElements(GatherElementsDesc),
    GatherNd(GatherNdDesc),
}

/// What every operator provides; [`OperatorDesc::operator`] is the one place that
/// dispatches a descriptor to its module.
pub(crate) trait Operator {
    /// The input tensors, in the order `run` and `record` take their buffers, with their roles.
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)>;
    fn output(&self) -> &TensorDesc;
    /// Checks every rule of the descriptor; no GPU involved.
    fn validate(&self) -> Result<()>;
    /// The dispatches that compute the output (the descriptor is valid).
    fn lower(&self, device: &DeviceFacts) -> Lowered;
}

impl OperatorDesc {
    fn operator(&self) -> &dyn Operator {
        match self {
            OperatorDesc::Slice(d) => d,
            OperatorDesc::Slice1(d) => d,
            OperatorDesc::ScatterElements(d) => d,
            OperatorDesc::ScatterNd(d) => d,
            OperatorDesc::Gather(d) => d,
            OperatorDesc::GatherElements(d) => d,
            OperatorDesc::GatherNd(d) => d,
        }
    }

    /// The input tensors, in the order `run` and `record` take their buffers, with their roles.
    pub fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        self.operator().inputs()
    }

    /// The output tensor.
    pub fn output(&self) -> &TensorDesc {
        self.operator().output()
    }

    /// Checks every rule of the descriptor; no GPU involved.
    pub fn validate(&self) -> Result<()> {
        self.operator().validate()
    }

    /// Lowers a valid descriptor (see [`OperatorDesc::validate`]) to the dispatches that
    /// compute the output.
    pub(crate) fn lower(&self, device: &DeviceFacts) -> Lowered {
        self.operator().lower(device)
    }
}

/// What an index outside its dimension does, in every operator with indices (Gather,
/// GatherElements, GatherND, ScatterElements, ScatterND). DirectML leaves it undefined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OutOfRange {
    /// The element is left alone (a scatter skips the update, a gather writes zero), and
    /// [`crate::Context::run`] (or [`crate::CompiledOperator::check_status`]) reports the first
    /// one in the indices' row-major order as [`crate::Error::IndexOutOfRange`].
    #[default]
    Report,
    /// The index is clamped into `[0, n)` (`n` the size of the dimension it indexes) after a
    /// signed negative index is counted from the end: `v < 0` becomes `max(v + n, 0)`, and
    /// `v >= n` becomes `n - 1`, comparing 64-bit indices whole. Nothing is reported. This is
    /// what WebNN implementations and DirectML's drivers do, so graphs ported from them get
    /// the same outputs.
    Clamp,
}

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

/// What lowering needs to know of the device.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeviceFacts {
    /// Binding offsets are multiples of this (capped at 16), so wider units stay aligned.
    pub unit_alignment: u32,
    /// Threads a workgroup.
    pub workgroup_size: u32,
    /// Threads of a `scatter_copy_rows` workgroup: up to 1024, as the device allows.
    pub row_threads: u32,
    /// `max_compute_workgroup_storage_size`: the workgroup memory a kernel may hold.
    pub max_workgroup_storage_bytes: u32,
    /// Workgroups a dispatch dimension.
    pub max_workgroups_per_dimension: u32,
    /// The device runs the `output = input` copy faster by kernel than by copy command
    /// (`Context::copy_method`): a scatter may then copy inside its own kernel
    /// (`scatter_copy_rows`).
    pub copies_in_kernels: bool,
    /// Only the entry points that handle one element at a time (where tensors are split
    /// into more windows than a dispatch binds, each element checks its windows).
    pub per_element: bool,
}

/// One GPU command of a lowered operator.
// Steps are made once per `compile`, a few an operator: their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// A compute dispatch: binding 0 holds `params`, the kernel's other bindings its buffers
    /// by role.
    Dispatch {
        kernel: Kernel,
        entry: Entry,
        params: Parameters,
        grid: Grid,
        /// Whether the step runs in place (the output bound to the input's own range), out
        /// of place, or both.
        placement: Placement,
    },
    /// Zeroes one of the operator's own buffers (`Role::Status`, `Role::Winners`, `Role::Heads`) before
    /// the dispatches.
    Clear(Role),
}

/// When a dispatch runs: a scatter's `output = input` copy (or a kernel that copies as it
/// scatters) only out of place, and the plain scatter that such a kernel replaces only in
/// place.
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
    /// Why the device cannot run the operator as lowered (`compile` returns it).
    pub refusal: Option<crate::error::Error>,
    /// Whether input 0 may be bound to the output's own range.
    pub in_place: InPlace,
}

impl Lowered {
    pub(crate) fn steps(steps: Vec<Step>) -> Lowered {
        Lowered {
            steps,
            scratch_bytes: 0,
            links_bytes: 0,
            index_report: None,
            refusal: None,
            in_place: InPlace::Forbidden,
        }
    }
}
