//! # dml-wgsl
//!
//! DirectML's tensor data-movement operators (Slice, Slice1, ScatterElements, ScatterND,
//! Gather, GatherElements, GatherND), and ONNX's TensorScatter, as WGSL compute shaders
//! dispatched through [`wgpu`]: on
//! Vulkan, Metal, DX12, GL and the browser's WebGPU, with DirectML's semantics and every
//! corner DirectML leaves undefined made safe and defined: out-of-range indices never touch
//! memory outside the tensors and are reported ([`Error::IndexOutOfRange`]), duplicate
//! scatter targets never tear ([`DuplicateMode`]).
//!
//! Describe an operator with DirectML-shaped descriptors ([`TensorDesc`], [`OperatorDesc`];
//! each operator's desc has a `new` taking DirectML's members in order, and options beyond
//! DirectML with defaults that its `with_*` methods change; the descs are `#[non_exhaustive]`,
//! so they are built this way, never as struct literals),
//! then either [`Context::run`] it on bytes, or [`Context::compile`] it once and
//! [`CompiledOperator::record`] it into your own command encoder on your own buffers.
//!
//! ```
//! use dml_wgsl::{Context, DataType, OperatorDesc, SliceDesc, TensorDesc};
//!
//! let context = Context::new_blocking()?;
//! let input: Vec<f32> = (1..=16).map(|v| v as f32).collect();
//! let desc: OperatorDesc = SliceDesc::new(
//!     TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]), // input
//!     TensorDesc::new(DataType::Float32, &[1, 1, 3, 2]), // output
//!     &[0, 0, 1, 2],                                     // offsets
//!     &[1, 1, 3, 2],                                     // sizes
//!     &[1, 1, 1, 1],                                     // strides
//! )
//! .into();
//! let output = context.run_blocking(&desc, &[bytemuck::cast_slice(&input)])?;
//! assert_eq!(bytemuck::cast_slice::<u8, f32>(&output), &[7., 8., 11., 12., 15., 16.]);
//! # Ok::<(), dml_wgsl::Error>(())
//! ```
//!
//! Every descriptor is validated before any GPU work, and each broken rule is its own
//! [`Error`] variant naming the field, the value and the rule; the library never lets wgpu's
//! default error handler fire. [`mod@reference`] holds the CPU semantics the GPU is tested against.
//! With Rust element types instead of bytes, [`Context::run_typed`] takes and returns typed
//! slices ([`Element`], [`Elements`]).
//!
//! ## Semantics
//!
//! Each operator's desc states its shapes, index ranges and rules, with a runnable example:
//! [`SliceDesc`], [`Slice1Desc`], [`ScatterElementsDesc`], [`ScatterNdDesc`], [`GatherDesc`],
//! [`GatherElementsDesc`], [`GatherNdDesc`]; [`TensorDesc`] the layout rules. Where DirectML
//! leaves behaviour undefined, this crate defines it:
//!
//! * **Out-of-range indices** never touch memory outside the tensors: a scatter skips the
//!   update, a gather writes zero, and [`Error::IndexOutOfRange`] names the first one in the
//!   indices' row-major order (from [`Context::run`], or
//!   [`CompiledOperator::check_status`] after `record`). Signed indices in `[-n, 0)` count
//!   from the end; 64-bit indices are compared whole.
//! * **Duplicate scatter targets** never tear: see [`DuplicateMode`] (`InOrder` applies
//!   updates in the updates' row-major order, bit for bit).
//! * **Scatter reductions** ([`Reduction`]: Add, Mul, Min, Max) on every data type,
//!   IEEE-exact on every adapter (integer arithmetic in the shaders), with a defined NaN
//!   behaviour, in any order or exactly in order.
//! * **Out-of-range policy** ([`OutOfRange`]): report (the default) or clamp, as WebNN and
//!   DirectML's drivers do.
//! * **Right-aligned sizes**: a gather's output and ScatterND's updates hold their
//!   meaningful sizes right-aligned, adding or cropping leading 1s.
//! * **Sizes of 0** (as ONNX allows), in any dimension of any tensor: an empty tensor spans
//!   no bytes and its binding is ignored (see [`TensorDesc`] and
//!   [`CompiledOperator::record`]); an empty output records nothing, a scatter with no
//!   updates is the copy `output = input`, and indices into an empty dimension are out of
//!   range.
//! * **Errors, not panics**: every rule is checked before GPU work, each its own [`Error`]
//!   variant naming the field, the value and the rule; sizes whose products overflow are
//!   errors too.
//! * **Tensors past the binding window**: a tensor larger than the device's
//!   `max_storage_buffer_binding_size` is bound, from the one `BufferBinding` the caller
//!   gives, as windows of its buffer (powers of two of bytes at aligned offsets): all at
//!   once where `max_storage_buffers_per_shader_stage` allows, else a slab at a time over
//!   several dispatches. Results and out-of-range reports are the same bytes;
//!   [`Error::TensorTooLarge`] comes only past `max_buffer_size`.
//!
//! The README's "Semantics" section (in the repository and on crates.io) gathers these with
//! the tensor rules in one place.

// The doc tests use the blocking (native-only) API: for wasm32 they compile to nothing.
#![doc(test(attr(
    cfg_attr(target_arch = "wasm32", no_main),
    cfg(not(target_arch = "wasm32"))
)))]

mod compiled;
mod context;
mod context_options;
mod copy_method;
mod error;
mod kernels;
mod lowering;
pub mod ops;
mod options;
mod pipeline;
mod readback;
pub mod reference;
mod shared;
mod status;
mod tensor;
mod typed;
mod windows;

pub use compiled::CompiledOperator;
pub use context::{Context, CopyMethod};
pub use context_options::ContextOptions;
pub use error::{Error, Result};
pub use ops::{
    DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, INDEX_TYPES, OperatorDesc,
    OutOfRange, Reduction, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc,
    TensorScatterDesc, TensorScatterMode, WRITE_INDEX_TYPES,
};
pub use tensor::{DataType, MAX_ELEMENTS, MAX_RANK, TensorDesc};
pub use typed::{Element, Elements};

/// One shader variant the library can dispatch (a test hook: see [`shader_variants`]).
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct ShaderVariant {
    pub label: String,
    /// The complete WGSL module.
    pub source: String,
    /// The entry points the library uses.
    pub entry_points: Vec<&'static str>,
    /// Whether it needs 64-bit integer atomics (`SHADER_INT64` and
    /// `SHADER_INT64_ATOMIC_MIN_MAX`, or `_ALL_OPS` for Add): built only where a device has them.
    pub needs_int64_atomics: bool,
    /// Whether it needs f64 (`SHADER_F64`, with `SHADER_INT64`): built only where a device
    /// has them.
    pub needs_float64: bool,
    /// It adds by f32 atomics (wgpu's `SHADER_FLOAT32_ATOMIC`).
    pub needs_float32_atomics: bool,
    /// It stores 2-byte elements through f16 views (wgpu's `SHADER_F16`; the library uses
    /// it on Vulkan only, the tests translate it for Metal and DX12 too).
    pub needs_float16: bool,
}

/// Every shader variant the library can dispatch, for offline validation and translation
/// (the tests run each through naga): each kernel with its tensors bound whole, split into
/// windows all bound at once, and split into windows bound a few at a time. A test hook
/// (`tests/shaders.rs`), not part of the API.
#[doc(hidden)]
pub fn shader_variants() -> Vec<ShaderVariant> {
    let whole = kernels::Windowing::default();
    let split = |bound, partial| kernels::Windowing {
        window_shift: 12,
        bound: [bound; kernels::ROLES],
        partial,
        half_stores: false,
    };
    let halves = kernels::Windowing {
        half_stores: true,
        ..whole
    };
    let mut variants = Vec::new();
    for windowing in [
        whole,
        split(3, false),
        split(1, true),
        split(2, true),
        halves,
    ] {
        for k in kernels::Kernel::all() {
            // 16-bit stores change only the kernels that write 2-byte elements.
            if windowing.half_stores && !k.writes_halves(&windowing) {
                continue;
            }
            variants.push(ShaderVariant {
                label: k.windowed_label(&windowing),
                source: k.windowed_source(256, &windowing),
                entry_points: k.entries().iter().map(|e| e.name()).collect(),
                needs_int64_atomics: k.reduces_by_wide_atomics(),
                needs_float64: k.uses_hardware_float64(),
                needs_float32_atomics: k.uses_float32_atomics(),
                needs_float16: k.writes_halves(&windowing),
            });
        }
    }
    variants
}

/// The README's code runs as a doc test.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
