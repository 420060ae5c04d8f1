//! Scatter reductions of 8-byte elements with and without 64-bit atomics: in any order (and
//! integers in either mode) each update takes one 64-bit atomic where the adapter offers
//! them (WGSL's own for integer Add, Min and Max; a compare-exchange loop, after workgroup
//! slots, for Float64 and integer Mul), else the in-order sort serves. Both paths bit for bit
//! against the reference (Float64 Add and Mul in any order: in some order of the updates).
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{Expect, REDUCTIONS, Rng, Values, context, random_reduction_case};
use dml_wgsl::{Context, ContextOptions, DataType, DuplicateMode, INDEX_TYPES, Reduction};

const EIGHT_BYTE_TYPES: [DataType; 3] = [DataType::Int64, DataType::UInt64, DataType::Float64];

/// Whether `context`'s device offers the 64-bit atomics an 8-byte `reduction` of
/// `data_type` needs: integer Min and Max the least of them, every other one all.
fn has_int64_atomics(context: &Context, data_type: DataType, reduction: Reduction) -> bool {
    use wgpu::Features as F;
    let features = context.device().features();
    let integer_min_max =
        !data_type.is_float() && matches!(reduction, Reduction::Min | Reduction::Max);
    let operation = if integer_min_max {
        F::SHADER_INT64_ATOMIC_MIN_MAX | F::SHADER_INT64_ATOMIC_ALL_OPS
    } else {
        F::SHADER_INT64_ATOMIC_ALL_OPS
    };
    features.contains(F::SHADER_INT64) && features.intersects(operation)
}

#[test]
fn eight_byte_reductions_are_exact_with_and_without_64_bit_atomics() {
    // The default context takes 64-bit atomics where the adapter has them; the other never.
    let without = common::context_with(ContextOptions::default().with_int64_atomics(false));
    let mut rng = Rng::new(78);
    for (name, context) in [("default", context()), ("without", &without)] {
        for data_type in EIGHT_BYTE_TYPES {
            for (k, reduction) in REDUCTIONS.into_iter().enumerate() {
                for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
                    let label = format!("{name} {data_type:?} {reduction:?} {duplicates:?}");
                    for (nd, values) in [(false, Values::Bits), (true, Values::Numbers)] {
                        let index_type = INDEX_TYPES[(k + nd as usize) % 4];
                        let case = random_reduction_case(
                            &mut rng, nd, data_type, index_type, reduction, duplicates, values,
                            false,
                        );
                        common::check_on(context, &case.desc, &case.slices(), Expect::ByMode)
                            .unwrap_or_else(|e| panic!("{label}: {e}"));
                    }
                    // Half the updates on 40 targets (floats: values exact in any order), onto
                    // outputs with a workgroup slot a unit (folded as partials) and without.
                    for size in [1000, 3000] {
                        let mut case =
                            common::reduction_onto(&mut rng, data_type, reduction, size, 20_000);
                        common::set_scatter_options(&mut case.desc, reduction, duplicates);
                        common::check_on(context, &case.desc, &case.slices(), Expect::ByMode)
                            .unwrap_or_else(|e| panic!("{label} crowded onto {size}: {e}"));
                    }
                }
            }
        }
    }
}

#[test]
fn eight_byte_reductions_in_any_order_take_one_atomic_pass_where_the_adapter_has_them() {
    // Pipelines built for one reduction onto 3000 units: the copy, the atomic pass and the
    // report (3) with 64-bit atomics; the in-order sort's passes (more than 3) without. Onto
    // 1000 units Float64 and Mul fold the workgroups' partials in a pass of their own (4).
    let mut rng = Rng::new(79);
    for (data_type, reduction, size, passes) in [
        (DataType::Int64, Reduction::Min, 3000, 3),
        (DataType::UInt64, Reduction::Add, 3000, 3),
        (DataType::UInt64, Reduction::Add, 1000, 3),
        (DataType::Int64, Reduction::Mul, 3000, 3),
        (DataType::Int64, Reduction::Mul, 1000, 4),
        (DataType::Float64, Reduction::Add, 3000, 3),
        (DataType::Float64, Reduction::Add, 1000, 4),
        (DataType::Float64, Reduction::Max, 3000, 3),
    ] {
        let case = common::reduction_onto(&mut rng, data_type, reduction, size, 5000);
        for enabled in [true, false] {
            let fresh = common::context_with(
                ContextOptions::default()
                    .with_copy_method(dml_wgsl::CopyMethod::Kernel)
                    .with_int64_atomics(enabled),
            );
            let offered = has_int64_atomics(&fresh, data_type, reduction);
            fresh.compile(&case.desc).expect("compiles");
            let pipelines = fresh.compiled_pipeline_count();
            let label = format!("{data_type:?} {reduction:?} onto {size}, atomics {enabled}");
            if enabled && offered {
                assert_eq!(pipelines, passes, "{label}: {:?}", fresh.adapter_info());
            } else {
                if enabled {
                    eprintln!(
                        "{:?} lacks 64-bit atomics: the in-order path serves",
                        fresh.adapter_info().name
                    );
                }
                assert!(pipelines > passes, "{label}: {pipelines} pipelines");
            }
            common::check_on(&fresh, &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        }
    }
}

#[test]
fn a_float64_identity_update_still_quiets_a_signalling_nan_target_with_and_without_atomics() {
    // Element 0 takes the identity (-0.0 for Add, 1.0 for Mul), which leaves every number
    // alone but quiets a NaN; element 1 takes nothing and keeps its signalling NaN; element 2
    // takes 3.0. Onto 3 units the workgroups' partials carry whether a slot was taken, not a
    // value compared with the identity; onto 2000 the slots go straight into the output.
    let signalling = f64::from_bits(0x7ff4_0000_0000_0001);
    let quieted = 0x7ffc_0000_0000_0001u64;
    let without = common::context_with(ContextOptions::default().with_int64_atomics(false));
    for (name, context) in [("default", context()), ("without", &without)] {
        for size in [3usize, 2000] {
            for (reduction, identity, expected) in [
                (Reduction::Add, -0.0f64, 5.0f64),
                (Reduction::Mul, 1.0, 6.0),
            ] {
                let mut input = vec![2.0f64; size];
                input[..2].fill(signalling);
                let desc: dml_wgsl::OperatorDesc = dml_wgsl::ScatterElementsDesc::new(
                    dml_wgsl::TensorDesc::new(DataType::Float64, &[size as u32]),
                    dml_wgsl::TensorDesc::new(DataType::Int32, &[2]),
                    dml_wgsl::TensorDesc::new(DataType::Float64, &[2]),
                    dml_wgsl::TensorDesc::new(DataType::Float64, &[size as u32]),
                    0,
                )
                .with_reduction(reduction)
                .into();
                let indices = [0i32, 2];
                let updates = [identity, 3.0];
                let out: Vec<f64> = context
                    .run_typed_blocking(
                        &desc,
                        &[input[..].into(), indices[..].into(), updates[..].into()],
                    )
                    .unwrap();
                let bits: Vec<u64> = out.iter().map(|v| v.to_bits()).collect();
                let label = format!("{name} {reduction:?} onto {size}");
                assert_eq!(
                    bits[..3],
                    [quieted, signalling.to_bits(), expected.to_bits()],
                    "{label}"
                );
                assert!(bits[3..].iter().all(|&b| b == 2.0f64.to_bits()), "{label}");
            }
        }
    }
}
