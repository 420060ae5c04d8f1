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
        use registry::ReduceOrder;
        let reduce = |data_type, reduction| {
            let kernel = Kernel::ScatterReduce {
                data_type,
                reduction,
                order: ReduceOrder::Any,
            };
            reached(kernel, Entry::ScatterReduce)
        };
        let has = |functions: &[String], name: &str| functions.iter().any(|f| f == name);
        let f32_add = reduce(DataType::Float32, Reduction::Add);
        assert!(has(&f32_add, "add_binary32"));
        for absent in [
            "add_binary64",
            "mul_binary32",
            "float_less",
            "widen_half",
            "mul64",
        ] {
            assert!(!has(&f32_add, absent), "Float32 Add reaches {absent}");
        }
        let f16_max = reduce(DataType::Float16, Reduction::Max);
        assert!(has(&f16_max, "float_less"));
        for absent in [
            "add_binary32",
            "mul_binary32",
            "add_binary64",
            "combine_integers",
        ] {
            assert!(!has(&f16_max, absent), "Float16 Max reaches {absent}");
        }
        let i32_mul = reduce(DataType::Int32, Reduction::Mul);
        assert!(has(&i32_mul, "combine_integers"));
        for absent in ["combine_floats", "add_binary32", "is_nan"] {
            assert!(!has(&i32_mul, absent), "Int32 Mul reaches {absent}");
        }
        let f64_mul = reached(
            Kernel::ScatterReduce {
                data_type: DataType::Float64,
                reduction: Reduction::Mul,
                order: ReduceOrder::InOrder,
            },
            Entry::FoldRuns,
        );
        assert!(has(&f64_mul, "mul_binary64"));
        assert!(!has(&f64_mul, "binary32_step"));
    }
}
