//! Scatter reductions of 8-byte elements with and without 64-bit atomics: in any order (and
//! integers in either mode) each update takes one 64-bit atomic where the adapter offers
//! them (WGSL's own for integer Add, Min and Max; a compare-exchange loop, after workgroup
//! slots, for Float64 and integer Mul), else the in-order sort serves. Both paths bit for bit
//! against the reference (Float64 Add and Mul in any order: in some order of the updates).
//! Float64 Add and Mul with and without the adapter's f64 (`SHADER_F64`), on values at the
//! edges where its arithmetic hands over to the integer path.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{Case, Expect, REDUCTIONS, Rng, Values, context, random_reduction_case};
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
                    // outputs with a workgroup slot a unit (folded as partials; past 1024 units
                    // a range of them a workgroup) and without.
                    for size in [1000, 3000, 9000] {
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
    // Pipelines built for one reduction: the copy, the atomic pass and the report (3) with
    // 64-bit atomics; the in-order sort's passes (more than 3) without. Onto at most 8192
    // units (a workgroup slot a unit, a range of 1024 a workgroup) Float64 and Mul fold the
    // workgroups' partials in a pass of their own (4); onto more, slots shared by units (3).
    let mut rng = Rng::new(79);
    for (data_type, reduction, size, passes) in [
        (DataType::Int64, Reduction::Min, 3000, 3),
        (DataType::UInt64, Reduction::Add, 3000, 3),
        (DataType::UInt64, Reduction::Add, 1000, 3),
        (DataType::Int64, Reduction::Mul, 3000, 4),
        (DataType::Int64, Reduction::Mul, 1000, 4),
        (DataType::Float64, Reduction::Add, 3000, 4),
        (DataType::Float64, Reduction::Add, 1000, 4),
        (DataType::Float64, Reduction::Add, 9000, 3),
        (DataType::Float64, Reduction::Max, 3000, 4),
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
fn float64_exchanges_past_the_slots_ranges_take_a_few_updates_a_thread_a_grid_stride_apart() {
    // Past 8192 units the compare-exchange pass takes up to 4 updates a thread, 2 where the
    // updates crowd their targets (128 a target and more), a grid's threads apart
    // (src/ops/scatter_bins.rs): 300,000 updates onto 9000 units (3 a thread, half of them on
    // 40 targets) and 1.1 million spread over 8193 (2 a thread).
    let mut rng = Rng::new(81);
    for reduction in [Reduction::Add, Reduction::Max] {
        if !has_int64_atomics(context(), DataType::Float64, reduction) {
            eprintln!(
                "{:?} lacks 64-bit atomics: the in-order sort serves Float64 {reduction:?}",
                context().adapter_info().name
            );
        }
        let cases = [
            common::reduction_onto(&mut rng, DataType::Float64, reduction, 9000, 300_000),
            common::reduction_spread_onto(&mut rng, DataType::Float64, reduction, 8193, 1_100_000),
        ];
        for case in cases {
            common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{reduction:?} {:?}: {e}", case.desc));
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

/// A binary64 value from where the adapter's f64 and the integer path meet: numbers of
/// moderate size (the adapter's arithmetic), numbers at the bottom of the normal range (sums
/// and products land near or among the subnormals), subnormals, numbers near the top (sums
/// and products overflow), zeros, infinities and NaNs; either sign.
fn float64_at_the_edges(rng: &mut Rng) -> f64 {
    let fraction = 1.0 + (rng.next_u64() >> 12) as f64 / (1u64 << 52) as f64;
    let magnitude = match rng.range(0, 19) {
        0..=9 => fraction * 2f64.powi(rng.range(0, 7) as i32 - 4),
        10 | 11 => fraction * 2f64.powi(rng.range(0, 2) as i32 - 1022),
        12 | 13 => f64::from_bits(rng.range(1, (1 << 52) - 1)),
        14 | 15 => fraction * 2f64.powi(rng.range(0, 2) as i32 + 1020),
        16 => 0.0,
        17 => f64::INFINITY,
        // Quiet and signalling.
        _ => f64::from_bits(0x7ff0_0000_0000_0000 | rng.range(1, (1 << 52) - 1)),
    };
    if rng.chance(50) {
        -magnitude
    } else {
        magnitude
    }
}

/// `case`'s input and updates (inputs 0 and 2) redrawn by [`float64_at_the_edges`].
fn fill_at_the_edges(rng: &mut Rng, case: &mut Case) {
    for k in [0, 2] {
        for value in case.inputs[k].chunks_exact_mut(8) {
            value.copy_from_slice(&float64_at_the_edges(rng).to_le_bytes());
        }
    }
}

#[test]
fn float64_add_and_mul_are_the_same_bits_with_and_without_the_adapters_f64() {
    use wgpu::Features as F;
    // The default context takes the adapter's f64 where it has it, with its 64-bit atomics
    // (any order by compare-exchange); `sorted` takes f64 in the in-order sort alone;
    // `software` never takes f64.
    let sorted = common::context_with(ContextOptions::default().with_int64_atomics(false));
    let software = common::context_with(ContextOptions::default().with_hardware_float64(false));
    if !context()
        .device()
        .features()
        .contains(F::SHADER_F64 | F::SHADER_INT64)
    {
        eprintln!(
            "{:?} lacks f64: every context takes the integer path",
            context().adapter_info().name
        );
    }
    let mut rng = Rng::new(80);
    for (name, context) in [
        ("default", context()),
        ("sorted", &sorted),
        ("software", &software),
    ] {
        for reduction in [Reduction::Add, Reduction::Mul] {
            for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
                for round in 0..6 {
                    let nd = round % 2 == 1;
                    let label = format!("{name} {reduction:?} {duplicates:?} round {round}");
                    // In order every target's fold is the updates' order, so any values give
                    // one answer; in any order each target takes at most one update.
                    let unique = duplicates == DuplicateMode::AnyUpdate;
                    let mut case = random_reduction_case(
                        &mut rng,
                        nd,
                        DataType::Float64,
                        INDEX_TYPES[round % 4],
                        reduction,
                        duplicates,
                        Values::Bits,
                        unique,
                    );
                    fill_at_the_edges(&mut rng, &mut case);
                    common::check_on(context, &case.desc, &case.slices(), Expect::ByMode)
                        .unwrap_or_else(|e| panic!("{label}: {e}"));
                }
            }
        }
    }
}

#[test]
fn long_runs_fold_in_any_order_across_a_workgroup_without_64_bit_atomics() {
    // Without 64-bit atomics, 8-byte reductions in the default mode (and integers in either)
    // take the sort, whose long runs (97 % of the updates on one target) fold on every thread
    // of a workgroup, then in a tree: runs of fewer updates than a workgroup has threads, of
    // a few workgroups' worth, and of more than one fold pass takes (262,144 at 256 threads).
    // Float Add and Mul take values exact in any grouping.
    let without = common::context_with(ContextOptions::default().with_int64_atomics(false));
    let mut rng = Rng::new(82);
    for (data_type, reduction, duplicates) in [
        (DataType::Float64, Reduction::Add, DuplicateMode::AnyUpdate),
        (DataType::Float64, Reduction::Mul, DuplicateMode::AnyUpdate),
        (DataType::Float64, Reduction::Max, DuplicateMode::AnyUpdate),
        (DataType::Int64, Reduction::Add, DuplicateMode::InOrder),
        (DataType::UInt64, Reduction::Mul, DuplicateMode::AnyUpdate),
        (DataType::Int64, Reduction::Min, DuplicateMode::AnyUpdate),
    ] {
        for count in [150, 3000, 600_001] {
            let case =
                common::one_target_case(&mut rng, data_type, (reduction, duplicates), count, None);
            let label = format!("{data_type:?} {reduction:?} {duplicates:?} {count}");
            common::check_on(&without, &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        }
    }
}
