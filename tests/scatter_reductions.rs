//! Scatter reductions (Add, Mul, Min, Max) on the GPU: random differential tests in both
//! duplicate modes, crowded targets, NaN and signed-zero rules, integer wrap-around, the
//! bins and slots, and out-of-range updates, bit for bit against the reference. Reductions
//! by rows (ScatterND rows, as index_add) are in tests/scatter_rows.rs, float rounding in
//! tests/scatter_float_rounding.rs.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, DOUBLE_SUMS, Expect, REDUCTIONS, Rng, SUMS, Values, check_against_reference,
    check_in_place, check_out_of_range, context, corrupt_one_index, pooled_bytes,
    random_reduction_case, reduction_one_update_each, reduction_onto, run_f32_reduction, tie_pools,
    write_indices,
};
use dml_wgsl::{
    DataType, DuplicateMode, INDEX_TYPES, OperatorDesc, Reduction, ScatterElementsDesc, TensorDesc,
};

/// Random reduction cases of every data type, reduction and index type (ScatterElements and
/// ScatterND, ranks 1 to 8, strided layouts, duplicate targets), checked as `expect` says.
fn reduction_differential(seed: u64, duplicates: DuplicateMode, values: Values, expect: Expect) {
    let mut rng = Rng::new(seed);
    for data_type in DataType::ALL {
        for (k, reduction) in REDUCTIONS.into_iter().enumerate() {
            for nd in [false, true] {
                let index_type = INDEX_TYPES[(k + nd as usize) % 4];
                let unique = rng.chance(25);
                let case = random_reduction_case(
                    &mut rng, nd, data_type, index_type, reduction, duplicates, values, unique,
                );
                common::check_on(context(), &case.desc, &case.slices(), expect)
                    .expect("compile and record");
            }
        }
    }
}

#[test]
fn in_order_reductions_equal_the_sequential_fold_bit_for_bit() {
    reduction_differential(70, DuplicateMode::InOrder, Values::Bits, Expect::Exact);
    reduction_differential(71, DuplicateMode::InOrder, Values::Numbers, Expect::Exact);
}

#[test]
fn any_order_reductions_lose_no_update() {
    // Integers, Min and Max exact; float Add and Mul in some order of the updates.
    reduction_differential(72, DuplicateMode::AnyUpdate, Values::Bits, Expect::ByMode);
    reduction_differential(
        73,
        DuplicateMode::AnyUpdate,
        Values::Numbers,
        Expect::ByMode,
    );
}

/// ScatterElements of 1-D `input` [4] with `count` updates, most of them aimed at element 1.
fn crowded_reduction(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    duplicates: DuplicateMode,
    values: Values,
    count: u32,
) -> Case {
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[4]),
            TensorDesc::new(DataType::Int64, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[4]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(duplicates),
    );
    let mut inputs = common::random_inputs(rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    write_indices(&indices, &mut inputs[1], |_| {
        if rng.chance(90) { 1 } else { -1 }
    });
    if data_type.is_float() {
        common::fill_scatter_floats(rng, &desc, &mut inputs, values, reduction);
    }
    Case { desc, inputs }
}

#[test]
fn hundreds_of_updates_on_one_element_fold_in_order_for_every_type() {
    let mut rng = Rng::new(74);
    for data_type in DataType::ALL {
        for reduction in REDUCTIONS {
            for values in [Values::Bits, Values::Numbers] {
                let case = crowded_reduction(
                    &mut rng,
                    data_type,
                    reduction,
                    DuplicateMode::InOrder,
                    values,
                    700,
                );
                check_against_reference(&case.desc, &case.inputs);
            }
        }
    }
}

#[test]
fn hundreds_of_updates_on_one_element_in_any_order_are_all_applied() {
    let mut rng = Rng::new(75);
    for data_type in DataType::ALL {
        for reduction in REDUCTIONS {
            let case = crowded_reduction(
                &mut rng,
                data_type,
                reduction,
                DuplicateMode::AnyUpdate,
                Values::OrderFree,
                700,
            );
            common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
                .expect("compile and record");
        }
    }
}

#[test]
fn float_min_and_max_keep_the_current_zero_on_a_tie_and_propagate_nan() {
    for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
        // -0.0 is not smaller than +0.0: the current +0.0 stays; a NaN update replaces 1.0,
        // a NaN current value stays whatever comes; infinities compare as numbers.
        let nan = f32::from_bits(0x7fa0_0001); // a signalling NaN: kept as is, not quieted
        let min = run_f32_reduction(
            Reduction::Min,
            duplicates,
            &[0.0, 1.0, nan, 5.0],
            &[0, 1, 2, 3],
            &[-0.0, nan, -7.0, f32::NEG_INFINITY],
        );
        assert_eq!(
            min,
            [0x0000_0000, 0x7fa0_0001, 0x7fa0_0001, 0xff80_0000],
            "{duplicates:?}"
        );
        let max = run_f32_reduction(
            Reduction::Max,
            duplicates,
            &[-0.0, 1.0, 3.0],
            &[0, 1, 2],
            &[0.0, 1.5, -0.0],
        );
        assert_eq!(max, [0x8000_0000, 1.5f32.to_bits(), 3.0f32.to_bits()]);
    }
}

#[test]
fn float_add_and_mul_quiet_nans_and_give_the_default_nan_for_invalid_operations() {
    let signalling = f32::from_bits(0xff80_0001);
    // Element 0: inf + -inf (invalid). 1: a NaN update, quieted. 2: 0 * inf (invalid).
    let add = run_f32_reduction(
        Reduction::Add,
        DuplicateMode::InOrder,
        &[f32::INFINITY, 1.0, 2.0],
        &[0, 1],
        &[f32::NEG_INFINITY, signalling],
    );
    assert_eq!(add, [0x7fc0_0000, 0xffc0_0001, 2.0f32.to_bits()]);
    let mul = run_f32_reduction(
        Reduction::Mul,
        DuplicateMode::InOrder,
        &[0.0, signalling, 3.0],
        &[0, 1, 2],
        &[f32::INFINITY, 2.0, -0.5],
    );
    assert_eq!(mul, [0x7fc0_0000, 0xffc0_0001, (-1.5f32).to_bits()]);
}

#[test]
fn an_identity_update_still_quiets_a_signalling_nan_target_in_any_order() {
    // Element 0 takes the identity (-0.0 for Add, 1.0 for Mul), which leaves every number
    // alone but quiets a NaN; element 1 takes nothing and keeps its signalling NaN. In any
    // order a small output is combined in workgroup bins, where a bin still holding the
    // identity must not pass for one no update reached.
    let signalling = f32::from_bits(0x7fa0_0001);
    for (reduction, identity) in [(Reduction::Add, -0.0f32), (Reduction::Mul, 1.0)] {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let got = run_f32_reduction(
                reduction,
                duplicates,
                &[signalling, signalling, 2.0],
                &[0, 2],
                &[identity, 3.0],
            );
            let expected = match reduction {
                Reduction::Add => 5.0f32,
                _ => 6.0,
            };
            assert_eq!(
                got,
                [0x7fe0_0001, 0x7fa0_0001, expected.to_bits()],
                "{reduction:?} {duplicates:?}"
            );
        }
    }
}

#[test]
fn outputs_at_and_past_the_workgroup_bins_capacity_reduce_every_update() {
    // 2048 units take each workgroup's bins; 2049 the per-update atomics: both, every type
    // and reduction, with more updates than a workgroup takes.
    let mut rng = Rng::new(76);
    for data_type in DataType::ALL {
        for reduction in REDUCTIONS {
            for size in [2048, 2049] {
                let case = reduction_onto(&mut rng, data_type, reduction, size, 20_000);
                let label = format!("{data_type:?} {reduction:?} {size}");
                common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
            }
        }
    }
}

#[test]
fn threads_taking_many_updates_lose_none_in_bins_and_in_slots() {
    // Up to 2^17 updates a thread takes one; past them several, a grid-stride apart, the last
    // thread's stride past the end (131,073: two a thread; 300,001: three; 2,200,001: the
    // slots' most, 16, and 17 in bins; 8,400,001: the bins' most, 64, and the 64-bit slots'
    // onto a small output), into one target and 1000 (the bins, or a 64-bit slot a target;
    // by compare-exchange, a thread's run on one target combined first, and the bins left as
    // partials folded after) and 5000 (the workgroup slots, or 64-bit atomics: Float64 and
    // Int64 Mul in their own slots).
    let mut rng = Rng::new(77);
    for (data_type, reduction, count) in [
        (DataType::Int32, Reduction::Add, 131_073),
        (DataType::UInt8, Reduction::Add, 300_001),
        (DataType::Int16, Reduction::Max, 300_001),
        (DataType::Int8, Reduction::Min, 300_001),
        (DataType::Float32, Reduction::Min, 300_001),
        (DataType::Float16, Reduction::Add, 300_001),
        (DataType::Float32, Reduction::Add, 300_001),
        (DataType::UInt32, Reduction::Mul, 300_001),
        (DataType::BFloat16, Reduction::Mul, 300_001),
        (DataType::Int64, Reduction::Min, 300_001),
        (DataType::Float64, Reduction::Add, 300_001),
        (DataType::Int64, Reduction::Mul, 300_001),
        (DataType::Int32, Reduction::Add, 2_200_001),
        (DataType::Float32, Reduction::Max, 2_200_001),
        (DataType::Int32, Reduction::Add, 8_400_001),
        (DataType::Float32, Reduction::Add, 8_400_001),
        (DataType::Float64, Reduction::Add, 8_400_001),
    ] {
        for size in [1, 1000, 5000] {
            if count > 3_000_000 && size == 5000 {
                continue; // the slots' group is full at 2,200,001
            }
            if size == 1 && data_type == DataType::Float16 {
                // Float16 holds integers exactly only up to 2048: the sums of hundreds of
                // thousands of updates on one target pass it, and then the order is in the bits.
                continue;
            }
            let case = reduction_onto(&mut rng, data_type, reduction, size, count);
            let label = format!("{data_type:?} {reduction:?} {size} {count}");
            common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        }
    }
}

#[test]
fn integer_bins_in_two_ranges_leave_partials_that_fold_exactly() {
    // Onto 2049 to 4096 units the integers' own atomics (Add, Min, Max) bin two ranges of
    // 2048, a range a workgroup, and a pass folds the workgroups' partials, several units a
    // workgroup: 4096 units (the most), 300,001 updates (three a thread, hundreds of
    // workgroups' partials), signed and unsigned, 1 to 4 bytes, negative indices included.
    let mut rng = Rng::new(81);
    for (data_type, reduction) in [
        (DataType::Int32, Reduction::Add),
        (DataType::UInt32, Reduction::Max),
        (DataType::Int16, Reduction::Min),
        (DataType::Int8, Reduction::Max),
        (DataType::UInt8, Reduction::Add),
    ] {
        let case = reduction_onto(&mut rng, data_type, reduction, 4096, 300_001);
        common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("{data_type:?} {reduction:?}: {e}"));
    }
}

#[test]
fn integer_reductions_wrap_around_and_compare_by_signedness() {
    // Int8 127 + 1 wraps to -128; UInt8 200 * 2 wraps to 144; Int64 Min is signed,
    // UInt64 Min unsigned.
    let run = |data_type: DataType, reduction, input: Vec<u8>, updates: Vec<u8>| -> Vec<u8> {
        let width = data_type.size_in_bytes() as usize;
        let n = (input.len() / width) as u32;
        let desc: OperatorDesc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[n]),
            TensorDesc::new(DataType::Int32, &[n]),
            TensorDesc::new(data_type, &[n]),
            TensorDesc::new(data_type, &[n]),
            0,
        )
        .with_reduction(reduction)
        .into();
        let indices: Vec<u8> = (0..n as i32).flat_map(|i| i.to_le_bytes()).collect();
        // Narrow tensors' total sizes round up to 4 bytes.
        let padded = |v: &[u8]| [v, &[0x5a; 3]].concat();
        let mut out = context()
            .run_blocking(&desc, &[&padded(&input), &indices, &padded(&updates)])
            .unwrap();
        out.truncate(input.len());
        out
    };
    assert_eq!(
        run(DataType::Int8, Reduction::Add, vec![127], vec![1]),
        [0x80]
    );
    assert_eq!(
        run(DataType::UInt8, Reduction::Mul, vec![200], vec![2]),
        [144]
    );
    let minus_one = (-1i64).to_le_bytes().to_vec();
    let one = 1i64.to_le_bytes().to_vec();
    assert_eq!(
        run(
            DataType::Int64,
            Reduction::Min,
            one.clone(),
            minus_one.clone()
        ),
        minus_one
    );
    assert_eq!(
        run(DataType::UInt64, Reduction::Min, one.clone(), minus_one),
        one
    );
    // 2^32 + 3 times 2^32 + 5 wraps to 8 * 2^32 + 15.
    let a = ((1u64 << 32) + 3).to_le_bytes().to_vec();
    let b = ((1u64 << 32) + 5).to_le_bytes().to_vec();
    assert_eq!(
        run(DataType::UInt64, Reduction::Mul, a, b),
        ((8u64 << 32) + 15).to_le_bytes()
    );
}

#[test]
fn reductions_skip_and_report_out_of_range_updates() {
    let mut rng = Rng::new(76);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Int32,
        DataType::Float64,
        DataType::BFloat16,
    ] {
        for (k, reduction) in REDUCTIONS.into_iter().enumerate() {
            let mut case = random_reduction_case(
                &mut rng,
                k % 2 == 1,
                data_type,
                INDEX_TYPES[k],
                reduction,
                DuplicateMode::InOrder,
                Values::Numbers,
                false,
            );
            corrupt_one_index(&mut rng, &mut case);
            check_out_of_range(&case.desc, &case.inputs);
        }
    }
}

#[test]
fn bins_on_a_device_of_four_storage_buffers_combine_into_the_output() {
    // The bins' partials bind a fifth storage buffer (the heads); a downlevel device's 4 a
    // stage take the bins' exchanges into the output instead, as the same results.
    let downlevel = common::limited_context(|l| l.max_storage_buffers_per_shader_stage = 4);
    let mut rng = Rng::new(80);
    for (data_type, reduction, size) in [
        (DataType::Float32, Reduction::Add, 1),
        (DataType::Float32, Reduction::Add, 1000),
        (DataType::Float16, Reduction::Max, 5000),
        (DataType::UInt32, Reduction::Mul, 300),
    ] {
        let case = reduction_onto(&mut rng, data_type, reduction, size, 100_001);
        let label = format!("{data_type:?} {reduction:?} onto {size}");
        common::check_on(&downlevel, &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}

#[test]
fn ranged_bins_report_an_out_of_range_update_and_skip_it() {
    // Compare-exchange reductions onto outputs past one workgroup's bins (2048 units, up to
    // eight times that; 8-byte units: 1024 slots, with 64-bit atomics) bin a range at a time,
    // each range's workgroups locating every update: the bad index is still reported (by the
    // first range) and skipped by all. (Float32 Add past two ranges takes the f32 atomics
    // where the device has them: Mul onto 5000 units stays in the bins' ranges everywhere.)
    let mut rng = Rng::new(79);
    for (data_type, reduction, size) in [
        (DataType::Float32, Reduction::Add, 4096),
        (DataType::Float32, Reduction::Mul, 5000),
        (DataType::Float16, Reduction::Max, 2049),
        (DataType::UInt32, Reduction::Mul, 16384),
        (DataType::Float64, Reduction::Add, 5000),
        (DataType::Int64, Reduction::Mul, 8192),
    ] {
        let mut case = reduction_onto(&mut rng, data_type, reduction, size, 50_001);
        corrupt_one_index(&mut rng, &mut case);
        check_out_of_range(&case.desc, &case.inputs);
    }
}

#[test]
fn float_add_and_mul_round_like_the_reference_on_thousands_of_random_pairs() {
    // Each element meets one update: every float type's arithmetic (subnormals, ties,
    // overflow, NaN and infinity from random bits) bit for bit, in both modes.
    let mut rng = Rng::new(78);
    for data_type in [
        DataType::Float16,
        DataType::BFloat16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for reduction in [Reduction::Add, Reduction::Mul] {
            for values in [Values::Bits, Values::Numbers] {
                for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
                    let n = 4096;
                    let desc = reduction_one_update_each(data_type, n, reduction, duplicates);
                    let mut inputs = common::random_inputs(&mut rng, &desc);
                    let mut targets: Vec<u32> = (0..n).collect();
                    rng.shuffle(&mut targets);
                    inputs[1] = targets.iter().flat_map(|t| t.to_le_bytes()).collect();
                    common::fill_scatter_floats(&mut rng, &desc, &mut inputs, values, reduction);
                    check_against_reference(&desc, &inputs);
                }
            }
        }
    }
}

/// ScatterElements of 1-D `input` [targets] with `count` updates at random targets, the
/// input's and the updates' elements drawn from `pool` (bit patterns of `data_type`).
fn pooled_reduction(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    (targets, count): (u32, u32),
    pool: &[u64],
) -> (OperatorDesc, Vec<Vec<u8>>) {
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[targets]),
            TensorDesc::new(DataType::Int32, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[targets]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder),
    );
    let input = pooled_bytes(rng, data_type, pool, targets);
    let updates = pooled_bytes(rng, data_type, pool, count);
    let indices: Vec<u8> = (0..count)
        .flat_map(|_| (rng.range(0, targets as u64 - 1) as i32).to_le_bytes())
        .collect();
    (desc, vec![input, indices, updates])
}

#[test]
fn in_order_float_min_and_max_keep_the_first_of_tied_zeros_and_nans() {
    // Narrower than 8 bytes, the ties are claimed by position around the any-order pass:
    // where the updates are at least the output's units, as the pass places them (the
    // inputs' claims first, the write over the output's units), else by passes over the
    // updates; into the workgroup bins (a small output, or a few ranges of one) and past
    // them; out of place and in place. Float64 sorts its runs.
    let mut rng = Rng::new(76);
    for data_type in [
        DataType::Float16,
        DataType::BFloat16,
        DataType::Float32,
        DataType::Float64,
    ] {
        let shapes: &[(u32, u32)] = match data_type {
            DataType::Float64 => &[(8, 600), (37, 3000), (1, 200)],
            _ => &[
                (8, 600),
                (37, 3000),
                (1, 200),
                (600, 600),
                (601, 600),
                (3000, 2500),
                (2100, 5000),
                (20000, 9000),
                (20000, 30000),
            ],
        };
        for reduction in [Reduction::Min, Reduction::Max] {
            for &(targets, count) in shapes {
                for pool in tie_pools(data_type) {
                    let (desc, inputs) =
                        pooled_reduction(&mut rng, data_type, reduction, (targets, count), &pool);
                    check_against_reference(&desc, &inputs);
                    check_in_place(&desc, &inputs);
                }
            }
        }
    }
}

#[test]
fn float32_min_and_max_by_sign_atomics_keep_nans_and_zeros_as_the_loop_does() {
    // Past the bins, Float32 Min and Max take their side of the sign (Max: positive, Min:
    // negative) by atomicMax: outputs with and without a NaN of that side's sign (which the
    // atomics would replace: the screen sends every update to the loop), updates with such
    // NaNs (left to a pass after the atomics) and with the NaNs that stay, zeros of both
    // signs, the other side and the infinities; both modes, out of place and in place.
    let mut rng = Rng::new(91);
    let numbers = [
        0x3f80_0000u64,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x0000_0001,
        0x8000_0001,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0000,
        0x8000_0000,
    ];
    for reduction in [Reduction::Min, Reduction::Max] {
        // The NaN the side's atomics would replace, and one they leave.
        let (replaceable, kept) = match reduction {
            Reduction::Max => (0xffc0_0002u32, 0x7fc0_0001u32),
            _ => (0x7fc0_0003, 0xffc0_0004),
        };
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            for (input_nans, update_nans) in [(false, false), (false, true), (true, true)] {
                let (targets, count) = (20_000u32, 60_000u32);
                let (desc, mut inputs) = pooled_reduction(
                    &mut rng,
                    DataType::Float32,
                    reduction,
                    (targets, count),
                    &numbers,
                );
                let OperatorDesc::ScatterElements(d) = desc else {
                    unreachable!()
                };
                let desc: OperatorDesc = d.with_duplicates(duplicates).into();
                let mut plant = |tensor: usize, units: u32, nan: u32| {
                    let at = rng.range(0, units as u64 - 1) as usize * 4;
                    inputs[tensor][at..at + 4].copy_from_slice(&nan.to_le_bytes());
                };
                if input_nans {
                    for _ in 0..20 {
                        plant(0, targets, replaceable);
                    }
                }
                if update_nans {
                    for _ in 0..20 {
                        plant(2, count, replaceable);
                        plant(2, count, kept);
                    }
                }
                let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                let expect = match duplicates {
                    DuplicateMode::InOrder => Expect::Exact,
                    _ => Expect::ByMode,
                };
                common::check_on(context(), &desc, &slices, expect)
                    .unwrap_or_else(|e| panic!("{e} for {desc:?}"));
                if duplicates == DuplicateMode::InOrder {
                    check_in_place(&desc, &inputs);
                }
            }
        }
    }
}

#[test]
fn long_in_order_float_runs_fold_exactly_across_the_edges_of_the_normal_range() {
    // Thousands of updates on a few targets (runs folded by a workgroup, in chunks): partial
    // results that pass near the least normal number (2^-126, 2^-1022), into subnormals and
    // zero, to infinity and to NaN, where the chain of hardware steps must give way to the
    // exact one.
    let tiny = [
        0x0080_0000u64,
        0x8080_0000,
        0x0100_0001,
        0x8100_0001,
        0x00ff_ffff,
        0x8000_0003,
        0x3f80_0000,
        0xbf80_0000,
        0x0180_0000,
        0x8180_0000,
    ];
    let huge = [
        0x7f00_0000u64,
        0x7f7f_ffff,
        0xff00_0000,
        0x3f80_0000,
        0x4000_0000,
        0x3f00_0000,
    ];
    let mul = [
        0x3f00_0000u64,
        0x4000_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0x0080_0000,
        0x7f00_0000,
        0x3fc0_0000,
        0x3f40_0000,
    ];
    let half = [
        0x0400u64, 0x8400, 0x0001, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x3800, 0x4000,
    ];
    // Normal numbers only (the loaders' check passes), whose sums cross 2^-125: the chain's
    // own check of its smallest partial result gives way.
    let small = [
        0x0080_0000u64,
        0x8080_0000,
        0x00c0_0000,
        0x80c0_0000,
        0x0100_0001,
        0x8100_0001,
        0x0180_0000,
        0x8180_0000,
    ];
    // Float64's chain is the device's f64, where the context has it.
    let double_tiny = [
        0x0010_0000_0000_0000u64,
        0x8010_0000_0000_0000,
        0x0020_0000_0000_0001,
        0x8020_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x8000_0000_0000_0003,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x0030_0000_0000_0000,
        0x8030_0000_0000_0000,
    ];
    let double_huge = [
        0x7fe0_0000_0000_0000u64,
        0x7fef_ffff_ffff_ffff,
        0xffe0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0x4000_0000_0000_0000,
        0x3fe0_0000_0000_0000,
    ];
    let double_small = [
        0x0010_0000_0000_0000u64,
        0x8010_0000_0000_0000,
        0x0018_0000_0000_0000,
        0x8018_0000_0000_0000,
        0x0020_0000_0000_0001,
        0x8020_0000_0000_0001,
        0x0030_0000_0000_0000,
        0x8030_0000_0000_0000,
    ];
    let double_products = [
        0x4000_0000_0000_0000u64,
        0x3fe0_0000_0000_0000,
        0x3ff4_0000_0000_0000,
        0x3fe9_9999_9999_999a,
        0x3ff0_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
        0xbff0_0000_0000_0000,
    ];
    let double_mul = [
        0x3fe0_0000_0000_0000u64,
        0x4000_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fe0_0000_0000_0000,
        0x3ff8_0000_0000_0000,
        0x3fe8_0000_0000_0000,
    ];
    let brain = [
        0x0080u64, 0x8080, 0x0001, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x3f00, 0x4000, 0x3f81,
    ];
    let mut rng = Rng::new(77);
    for (data_type, reduction, pool) in [
        (DataType::Float32, Reduction::Add, &tiny[..]),
        (DataType::Float32, Reduction::Add, &huge[..]),
        (DataType::Float32, Reduction::Add, &small[..]),
        (DataType::Float32, Reduction::Mul, &mul[..]),
        (DataType::Float64, Reduction::Add, &double_tiny[..]),
        (DataType::Float64, Reduction::Add, &double_small[..]),
        (DataType::Float64, Reduction::Add, &double_huge[..]),
        (DataType::Float64, Reduction::Mul, &double_mul[..]),
        (DataType::Float64, Reduction::Add, &DOUBLE_SUMS[..]),
        (DataType::Float64, Reduction::Mul, &double_products[..]),
        (DataType::Float16, Reduction::Add, &half[..]),
        (DataType::Float16, Reduction::Mul, &half[..]),
        (DataType::BFloat16, Reduction::Add, &brain[..]),
        (DataType::BFloat16, Reduction::Mul, &brain[..]),
    ] {
        for (targets, count) in [(1, 5000), (3, 4000)] {
            let (desc, inputs) =
                pooled_reduction(&mut rng, data_type, reduction, (targets, count), pool);
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn long_in_order_float_sums_from_zeros_of_either_sign_chain_from_the_first_update() {
    // An output of zeros (+0 and -0) under long runs of ordinary numbers: 0 + x is x, so the
    // chain of hardware steps starts from each chunk's first update (Float32, and Float64
    // where the context has f64); a sum that cancels to zero starts the next chunk from it.
    // Each a value then its negation: every even partial sum is +0.
    let cancelling = [0x3fc0_0000u64, 0xbfc0_0000];
    let double_cancelling = [0x3ff8_0000_0000_0000u64, 0xbff8_0000_0000_0000];
    let mut rng = Rng::new(78);
    for (data_type, pool, zeros) in [
        (DataType::Float32, &SUMS[..], &[0u64, 0x8000_0000][..]),
        (DataType::Float64, &DOUBLE_SUMS[..], &[0u64, 1 << 63][..]),
    ] {
        for (targets, count) in [(1, 5000), (3, 4000)] {
            let (desc, mut inputs) =
                pooled_reduction(&mut rng, data_type, Reduction::Add, (targets, count), pool);
            inputs[0] = pooled_bytes(&mut rng, data_type, zeros, targets);
            check_against_reference(&desc, &inputs);
        }
    }
    for (data_type, pair) in [
        (DataType::Float32, &cancelling[..]),
        (DataType::Float64, &double_cancelling[..]),
    ] {
        // One target: the updates alternate, so every chunk (an even count) starts from +0;
        // each chain then meets a zero partial sum and gives way to the exact steps.
        let (desc, mut inputs) =
            pooled_reduction(&mut rng, data_type, Reduction::Add, (1, 3001), pair);
        let width = data_type.size_in_bytes() as usize;
        inputs[0] = vec![0; width.next_multiple_of(4)];
        let alternating: Vec<u8> = (0..3001)
            .flat_map(|k| pair[k % 2].to_le_bytes()[..width].to_vec())
            .collect();
        inputs[2] = alternating;
        check_against_reference(&desc, &inputs);
    }
}
