//! Operator descriptors, their validation, and their lowering to kernel dispatches.
//!
//! Each operator group (slices, scatters, gathers) has a module: it defines the DirectML-shaped `*Desc`, checks every rule
//! before any GPU work, and lowers the descriptor to the kernel dispatches `context.rs` records.

pub mod gather;
mod index_map;
pub mod scatter;
mod scatter_any_update;
mod scatter_bins;
mod scatter_copies;
mod scatter_float_add;
mod scatter_lists;
mod scatter_lowering;
mod scatter_plans;
mod scatter_steps;
pub mod slice;
mod strided_copy;
pub mod tensor_scatter;
mod validate;

pub use gather::{GatherDesc, GatherElementsDesc, GatherNdDesc};
pub use scatter::{ScatterElementsDesc, ScatterNdDesc};
pub use slice::{Slice1Desc, SliceDesc};
pub use tensor_scatter::{TensorScatterDesc, TensorScatterMode, WRITE_INDEX_TYPES};
pub use validate::INDEX_TYPES;

pub use crate::options::{DuplicateMode, OutOfRange, Reduction};

use crate::error::Result;
use crate::kernels::Role;
use crate::lowering::{DeviceFacts, Lowered};
use crate::tensor::TensorDesc;

/// One DirectML operator with its tensors and parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    /// ONNX's `TensorScatter` (opset 24): a key/value cache's update.
    TensorScatter(TensorScatterDesc),
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
    TensorScatter(TensorScatterDesc),
}

/// What every operator provides; [`OperatorDesc::operator`] is the one place that
/// dispatches a descriptor to its module.
pub(crate) trait Operator {
    /// The input tensors, in the order `run` and `record` take their buffers, with their roles.
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)>;
    /// The role each input is bound as, in the order of [`Operator::inputs`] (a scatter's
    /// `input`, `indices`, `updates`; a slice's or gather's first ones of those).
    fn input_roles(&self) -> &'static [Role] {
        &[Role::Input, Role::Indices, Role::Updates]
    }
    fn output(&self) -> &TensorDesc;
    /// Checks every rule of the descriptor; no GPU involved.
    fn validate(&self) -> Result<()>;
    /// The dispatches that compute the output (the descriptor is valid), or why the device
    /// cannot run them.
    fn lower(&self, device: &DeviceFacts) -> Result<Lowered>;
    /// Whether the operator copies one contiguous run of bytes (a slice of consecutive
    /// elements, a scatter's `output = input` of tensors packed alike): `compile` then knows
    /// the device's `CopyMethod` before lowering.
    fn copies_contiguous_run(&self) -> bool {
        false
    }
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
            OperatorDesc::TensorScatter(d) => d,
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
    pub(crate) fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        self.operator().lower(device)
    }

    /// The role each input is bound as, in the order of [`OperatorDesc::inputs`].
    pub(crate) fn input_roles(&self) -> &'static [Role] {
        self.operator().input_roles()
    }

    pub(crate) fn copies_contiguous_run(&self) -> bool {
        self.operator().copies_contiguous_run()
    }
}
