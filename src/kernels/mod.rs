//! The closed shader registry: every kernel the library can dispatch, its WGSL source,
//! entry points, bindings and specialisation.
//!
//! A kernel is one shader family specialised for an element *unit*: the kernels move bits,
//! so the 11 data types map onto five units (1, 2, 4, 8 and 16 bytes, the last for runs of
//! narrower elements moved 16 bytes at a time). The unit decides the WGSL
//! storage type and how elements are loaded and stored. A kernel's module is a prelude the
//! registry generates (constants, and the bindings with their accessors, instantiated from
//! templates in `shaders/bindings/`), then the shader files holding its entry points and the
//! files they declare they require, with the sections the variant does not keep removed.
//! Every WGSL function is written in `shaders/`.
//!
//! * [`bindings`]: units, how a kernel uses a binding ([`bindings::Access`]), what it holds ([`Role`]),
//!   and tensors bound as windows ([`Windowing`]);
//! * [`registry`]: the kernels ([`Kernel`]), the entry points ([`Entry`], one table), which
//!   files, bindings and sections each kernel has;
//! * [`files`]: every file in `shaders/` and what each requires;
//! * [`source`]: the generated prelude and the assembled module;
//! * [`sections`]: the parts of a shader file only some variants keep;
//! * [`in_order`]: the in-order reduction's sort and fold constants;
//! * [`params`]: the uniform parameter structs (`#[repr(C)]` Pod), mirrored by WGSL structs
//!   and checked against them through naga.

mod bindings;
mod files;
mod in_order;
pub(crate) mod params;
mod registry;
mod sections;
mod source;

pub(crate) use bindings::{ROLES, Role, Unit, Windowing};
pub(crate) use in_order::{
    FOLD_STEPS, FoldSpans, LONG_RUN, RADIX_ROUNDS, RADIX_TILES, SCAN_ITEMS, SLICE_TILE,
};
pub(crate) use registry::{Entry, Kernel, REDUCE_GROUP, ReduceOrder};
