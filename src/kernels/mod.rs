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
//! * [`registry`]: the kernels ([`Kernel`]), which files, bindings, sections and entry points
//!   each kernel has;
//! * [`entries`]: the entry points ([`Entry`], one table);
//! * [`files`]: every file in `shaders/` and what each requires;
//! * [`source`]: the generated prelude and the assembled module;
//! * [`sections`]: the parts of a shader file only some variants keep;
//! * [`in_order`]: the in-order reduction's sort and fold constants;
//! * [`params`]: the uniform parameter structs (`#[repr(C)]` Pod), mirrored by WGSL structs
//!   and checked against them through naga.

mod bindings;
mod entries;
mod files;
mod in_order;
pub(crate) mod params;
mod registry;
mod sections;
mod source;

pub(crate) use bindings::{ROLES, Role, Unit, Windowing};
pub(crate) use entries::Entry;
pub(crate) use in_order::{
    FOLD_STEPS, FoldSpans, HISTOGRAM_ITEMS, LIST_BOUND, LIST_ROUNDS, LONG_ROUNDS, LONG_RUN,
    RADIX_ROUNDS, RADIX_TILES, SCAN_ITEMS, SLICE_TILE, SPILL_ROUNDS, column_cells, copy_cells,
    folds_by_chain, units_per_word,
};
pub(crate) use registry::{
    BIN_CAPACITY, BIN_GROUP, CLEAR_WORDS, Kernel, REDUCE_GROUP, ReduceOrder, RowKernel,
    WIDE_PARTIAL_GROUPS, WIDE_SLOTS,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Reduction;
    use crate::tensor::DataType;

    /// The functions `kernel`'s `entry` reaches, as a driver gets them (naga keeps only what
    /// the entry point reaches once the pipeline constants are set).
    fn reached(kernel: Kernel, entry: Entry) -> Vec<String> {
        let module = naga::front::wgsl::parse_str(&kernel.source(256)).expect("parses");
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .expect("valid");
        let mut constants = naga::back::PipelineConstants::default();
        for name in ["RANK", "TUPLE_SIZE", "INDEX_FLAGS", "CLAMP_INDICES"] {
            constants.insert(name.to_string(), 1.0);
        }
        let stage = Some((naga::ShaderStage::Compute, entry.name()));
        let (module, _) =
            naga::back::pipeline_constants::process_overrides(&module, &info, stage, &constants)
                .expect("constants apply");
        module
            .functions
            .iter()
            .filter_map(|(_, f)| f.name.clone())
            .collect()
    }

    #[test]
    fn a_reductions_entry_reaches_only_its_own_kind_of_arithmetic() {
        use registry::ReduceOrder::{Any, InOrder};
        // (type, reduction, order, entry, a function it reaches, functions it must not).
        let cases = [
            (
                DataType::Float32,
                Reduction::Add,
                Any,
                Entry::ScatterReduce,
                "add_binary32",
                &[
                    "add_binary64",
                    "mul_binary32",
                    "float_less",
                    "widen_half",
                    "mul64",
                    // The exact sum is the hardware's on scaled operands, not the integer
                    // path's rounding.
                    "round_pack_narrow",
                ][..],
            ),
            // The span folded across a workgroup serves any order on the sort: 8-byte units
            // only.
            (
                DataType::Float32,
                Reduction::Add,
                InOrder,
                Entry::FoldLongRuns,
                "fold_chunk",
                &["fold_span_in_any_order"],
            ),
            (
                DataType::Float64,
                Reduction::Add,
                InOrder,
                Entry::FoldLongRuns,
                "fold_span_in_any_order",
                &["binary32_step"],
            ),
            (
                DataType::Float16,
                Reduction::Max,
                Any,
                Entry::ScatterReduce,
                "float_less",
                &[
                    "add_binary32",
                    "mul_binary32",
                    "add_binary64",
                    "combine_integers",
                ],
            ),
            (
                DataType::Int32,
                Reduction::Mul,
                Any,
                Entry::ScatterReduce,
                "combine_integers",
                &["combine_floats", "add_binary32", "is_nan"],
            ),
            (
                DataType::Float64,
                Reduction::Mul,
                InOrder,
                Entry::FoldRuns,
                "mul_binary64",
                &["binary32_step"],
            ),
        ];
        for (data_type, reduction, order, entry, present, absent) in cases {
            let kernel = Kernel::ScatterReduce {
                data_type,
                reduction,
                order,
                copies: false,
                hardware_float64: false,
            };
            let functions = reached(kernel, entry);
            let has = |name: &str| functions.iter().any(|f| f == name);
            assert!(has(present), "{kernel:?} does not reach {present}");
            for name in absent {
                assert!(!has(name), "{kernel:?} reaches {name}");
            }
        }
    }
}
