//! Scatter reductions (Add, Mul, Min, Max) on the GPU: random differential tests in both
//! duplicate modes, crowded targets, float rounding at the edges of the normal range, NaN
//! and signed-zero rules, integer wrap-around, and out-of-range updates, bit for bit
//! against the reference. Reductions by rows (ScatterND rows, as index_add) are in
//! tests/scatter_rows.rs.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, REDUCTIONS, Rng, Values, check_against_reference, check_out_of_range, context,
    corrupt_one_index, le_bytes, pooled_bytes, random_reduction_case, reduction_onto, tie_pools,
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

/// One f32 ScatterElements with `reduction` on `input`, updates aimed as `indices` says.
fn run_f32_reduction(
    reduction: Reduction,
    duplicates: DuplicateMode,
    input: &[f32],
    indices: &[i32],
    updates: &[f32],
) -> Vec<u32> {
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[input.len() as u32]),
        TensorDesc::new(DataType::Int32, &[indices.len() as u32]),
        TensorDesc::new(DataType::Float32, &[updates.len() as u32]),
        TensorDesc::new(DataType::Float32, &[input.len() as u32]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
    .into();
    let out: Vec<f32> = context()
        .run_typed_blocking(&desc, &[input.into(), indices.into(), updates.into()])
        .unwrap();
    out.iter().map(|v| v.to_bits()).collect()
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
fn float32_add_rounds_to_nearest_even_and_keeps_subnormals() {
    // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: even (1). 1 + 3 * 2^-24 ties up to
    // 1 + 2^-22. The smallest subnormal plus itself is exactly 2^-148.
    let tiny = f32::from_bits(1);
    let got = run_f32_reduction(
        Reduction::Add,
        DuplicateMode::InOrder,
        &[1.0, 1.0, tiny],
        &[0, 1, 2],
        &[2f32.powi(-24), 3.0 * 2f32.powi(-24), tiny],
    );
    assert_eq!(got, [0x3f80_0000, 0x3f80_0002, 0x0000_0002]);
    // Products: 3 * (1 + 2^-23) = 3 + 3 * 2^-23, between 3 + 2^-22 and 3 + 2 * 2^-22 (ulp
    // 2^-22 at 3): 1.5 ulps, a tie rounded to even (3 + 2 * 2^-22). 2^-100 * 2^-100 underflows
    // to +0.
    let got = run_f32_reduction(
        Reduction::Mul,
        DuplicateMode::AnyUpdate,
        &[3.0, 2f32.powi(-100)],
        &[0, 1],
        &[1.0 + 2f32.powi(-23), 2f32.powi(-100)],
    );
    assert_eq!(got, [0x4040_0002, 0x0000_0000]);
}

/// ScatterElements of `n` updates into `n` elements of a 1-D tensor with UInt32 indices (the
/// tests below make them a permutation: each element meets one update).
fn reduction_one_update_each(
    data_type: DataType,
    n: u32,
    reduction: Reduction,
    duplicates: DuplicateMode,
) -> OperatorDesc {
    ScatterElementsDesc::new(
        TensorDesc::new(data_type, &[n]),
        TensorDesc::new(DataType::UInt32, &[n]),
        TensorDesc::new(data_type, &[n]),
        TensorDesc::new(data_type, &[n]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
    .into()
}

#[test]
fn float_steps_at_the_edges_of_the_normal_range_round_like_the_reference() {
    // The hardware's f32 `+` and `*` are used only where operands and result are normal
    // (the result at least 2^-125); these pairs sit on either side of that line: results
    // that tie to the smallest normal or to infinity, that cancel to zero or to subnormals,
    // the largest finite values, operands one step below normal. Each pair is (current,
    // update), both orders, every element meeting one update, in both modes.
    let f32_pairs: [(u32, u32); 16] = [
        (0x3f7f_ffff, 0x0080_0000), // (1 - 2^-24) * 2^-126: a tie, to 2^-126
        (0x3fff_ffff, 0x0080_0000),
        (0x2000_0000, 0x1f80_0000), // 2^-63 * 2^-64 = 2^-127: subnormal
        (0x2080_0000, 0x2000_0000), // 2^-62 * 2^-63 = 2^-125: the first hardware result
        (0x7f7f_ffff, 0x7300_0000), // max + half an ulp: a tie, to infinity
        (0x7f7f_ffff, 0x72ff_ffff), // max + just under half an ulp: max
        (0x5f80_0000, 0x5f00_0000), // 2^64 * 2^63 = 2^127
        (0x5f80_0000, 0x5f80_0000), // 2^64 * 2^64 overflows
        (0x0100_0000, 0x8080_0001), // 2^-125 - (2^-126 + ulp): subnormal difference
        (0x3fc0_0000, 0xbfc0_0000), // 1.5 - 1.5 = +0
        (0x0080_0000, 0x0080_0000), // 2^-126 + 2^-126 = 2^-125
        (0x007f_ffff, 0x0000_0001), // subnormal + subnormal = 2^-126
        (0x3f80_0001, 0x3f7f_ffff),
        (0x4b80_0000, 0x3f80_0000), // 2^24 + 1: a tie, to even
        (0xc000_0000, 0x0100_0000),
        (0x7f00_0000, 0x4000_0000), // 2^127 * 2 overflows; 2^127 + 2 rounds to 2^127
    ];
    let f16_pairs: [(u16, u16); 10] = [
        (0x7bff, 0x4c00), // 65504 + 16: a tie, to infinity
        (0x7bff, 0x4bff),
        (0x0400, 0x3800), // 2^-14 * 0.5: an f16 subnormal
        (0x0400, 0x0400),
        (0x3bff, 0x0400), // (1 - 2^-11) * 2^-14: a tie, to 2^-14
        (0x6400, 0x3800), // 1024 + 0.5: a tie, to even
        (0x3c01, 0x3bff),
        (0x5bff, 0x5bff), // 255.9 * 255.9 overflows f16
        (0x03ff, 0x0001),
        (0xbc00, 0x3c00),
    ];
    let bf16_pairs: [(u16, u16); 10] = [
        (0x7f7f, 0x7b00), // the largest + half its ulp: a tie, to infinity
        (0x7f7f, 0x7aff),
        (0x0080, 0x3f00), // 2^-126 * 0.5: a bfloat16 subnormal
        (0x0080, 0x0080),
        (0x3f7f, 0x0080), // (1 - 2^-8) * 2^-126: a tie, to 2^-126
        (0x4380, 0x3f80), // 256 + 1: a tie, to even
        (0x3f81, 0x3f7f),
        (0x5f80, 0x5f80), // 2^64 * 2^64 overflows
        (0x007f, 0x0001),
        (0xbf80, 0x3f80),
    ];
    let widen = |pairs: &[(u16, u16)]| -> Vec<(u32, u32)> {
        pairs.iter().map(|&(a, b)| (a as u32, b as u32)).collect()
    };
    let cases: [(DataType, Vec<(u32, u32)>); 3] = [
        (DataType::Float32, f32_pairs.to_vec()),
        (DataType::Float16, widen(&f16_pairs)),
        (DataType::BFloat16, widen(&bf16_pairs)),
    ];
    for (data_type, pairs) in cases {
        let width = data_type.size_in_bytes() as usize;
        let both_orders: Vec<(u32, u32)> =
            pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect();
        let n = both_orders.len() as u32;
        let bytes = |values: Vec<u32>| -> Vec<u8> {
            values
                .iter()
                .flat_map(|v| v.to_le_bytes()[..width].to_vec())
                .collect()
        };
        let current = bytes(both_orders.iter().map(|p| p.0).collect());
        let updates = bytes(both_orders.iter().map(|p| p.1).collect());
        let indices = le_bytes::<u32>(&(0..n).collect::<Vec<_>>());
        for reduction in [Reduction::Add, Reduction::Mul] {
            for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
                let desc = reduction_one_update_each(data_type, n, reduction, duplicates);
                let inputs = [current.clone(), indices.clone(), updates.clone()];
                let expected = check_against_reference(&desc, &inputs);
                // The reference itself, on the two ties worked out by hand above.
                let element = |k: usize| {
                    let mut word = [0u8; 4];
                    word[..width].copy_from_slice(&expected[k * width..(k + 1) * width]);
                    u32::from_le_bytes(word)
                };
                match (data_type, reduction) {
                    (DataType::Float32, Reduction::Mul) => assert_eq!(element(0), 0x0080_0000),
                    (DataType::Float32, Reduction::Add) => assert_eq!(element(8), 0x7f80_0000),
                    (DataType::Float16, Reduction::Add) => assert_eq!(element(0), 0x7c00),
                    (DataType::BFloat16, Reduction::Add) => assert_eq!(element(0), 0x7f80),
                    (DataType::BFloat16, Reduction::Mul) => assert_eq!(element(8), 0x0080),
                    _ => {}
                }
            }
        }
    }
}

/// Float32 bits around the lines the exact sum is drawn on: subnormals and the smallest
/// normals, 2^-62 and 2^62 (where the sum is scaled up or down by 2^64), the largest finite
/// values, zeros and infinities; sign and fraction at random.
fn float32_at_the_edges(rng: &mut Rng) -> u32 {
    const FIELDS: [u32; 18] = [
        0, 0, 1, 2, 24, 63, 64, 65, 66, 101, 127, 186, 188, 189, 190, 191, 253, 254,
    ];
    let sign = (rng.chance(50) as u32) << 31;
    let fraction = rng.range(0, (1 << 23) - 1) as u32;
    let field = match rng.range(0, 20) {
        0 => return sign,
        1 => return sign | 0x7f80_0000,
        2 => rng.range(0, 254) as u32,
        k => FIELDS[k as usize - 3],
    };
    sign | field << 23 | fraction
}

#[test]
fn float32_add_of_values_at_the_edges_matches_the_reference() {
    // The exact sum off the hardware's fast path scales its operands by 2^64 (up, or down
    // where one is 2^62 or more): pairs on either side of every line that draws, a third
    // of them nearly cancelling (the update the current value's negation, its low bits
    // redrawn). Every element meets one update, in both modes; Mul shares the draws.
    let mut rng = Rng::new(0x5ca1ed);
    let n = 4096u32;
    let mut current = Vec::new();
    let mut updates = Vec::new();
    for _ in 0..n {
        let a = float32_at_the_edges(&mut rng);
        let b = if rng.chance(33) {
            (a ^ 0x8000_0000) & !0xff | rng.range(0, 255) as u32
        } else {
            float32_at_the_edges(&mut rng)
        };
        current.extend_from_slice(&a.to_le_bytes());
        updates.extend_from_slice(&b.to_le_bytes());
    }
    let indices = le_bytes::<u32>(&(0..n).collect::<Vec<_>>());
    for reduction in [Reduction::Add, Reduction::Mul] {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let desc = reduction_one_update_each(DataType::Float32, n, reduction, duplicates);
            let inputs = [current.clone(), indices.clone(), updates.clone()];
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn float16_add_rounds_each_step_in_f32_then_to_f16() {
    use half::f16;
    // 2048 + 1 is a tie in f16 (ulp 2 there): even, 2048. Then + 1 again: 2048 again (in
    // order each step rounds), so 2048 + 1 + 1 stays 2048 rather than 2050.
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(DataType::Float16, &[2]),
        TensorDesc::new(DataType::UInt32, &[3]),
        TensorDesc::new(DataType::Float16, &[3]),
        TensorDesc::new(DataType::Float16, &[2]),
        0,
    )
    .with_reduction(Reduction::Add)
    .with_duplicates(DuplicateMode::InOrder)
    .into();
    let input = [f16::from_f32(2048.0), f16::from_f32(65504.0)];
    let indices = [0u32, 0, 1];
    let updates = [f16::from_f32(1.0), f16::from_f32(1.0), f16::from_f32(16.0)];
    let out: Vec<f16> = context()
        .run_typed_blocking(
            &desc,
            &[(&input).into(), (&indices).into(), (&updates).into()],
        )
        .unwrap();
    // 65504 + 16 = 65520 is exactly halfway to 65536 (infinity's place): rounds to inf.
    assert_eq!(
        out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        [f16::from_f32(2048.0).to_bits(), 0x7c00]
    );
}

#[test]
fn bfloat16_add_rounds_each_step_in_f32_then_to_bfloat16() {
    use half::bf16;
    // 256 + 1 is a tie in bfloat16 (ulp 2 there): even, 256. Then + 1 again: 256 again (in
    // order each step rounds), so 256 + 1 + 1 stays 256 rather than 258. Through run_typed,
    // with half::bf16 elements.
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(DataType::BFloat16, &[2]),
        TensorDesc::new(DataType::UInt32, &[3]),
        TensorDesc::new(DataType::BFloat16, &[3]),
        TensorDesc::new(DataType::BFloat16, &[2]),
        0,
    )
    .with_reduction(Reduction::Add)
    .with_duplicates(DuplicateMode::InOrder)
    .into();
    let largest = bf16::from_bits(0x7f7f); // (2 - 2^-7) * 2^127
    let input = [bf16::from_f32(256.0), largest];
    let indices = [0u32, 0, 1];
    let half_ulp = bf16::from_f32(2f32.powi(119));
    let updates = [bf16::from_f32(1.0), bf16::from_f32(1.0), half_ulp];
    let out: Vec<bf16> = context()
        .run_typed_blocking(
            &desc,
            &[(&input).into(), (&indices).into(), (&updates).into()],
        )
        .unwrap();
    // The largest plus half its ulp is exactly halfway to 2^128 (infinity's place): infinity.
    assert_eq!(
        out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        [0x4380, 0x7f80]
    );
}

#[test]
fn every_bfloat16_pattern_rounds_like_the_reference_in_each_reduction() {
    // All 65536 patterns (subnormals, infinities, NaNs of every payload, both zeros) as the
    // current values, each meeting one random update (random bits, or the patterns again
    // reversed), every reduction, both modes: the GPU's widening, f32 step and rounding back.
    let mut rng = Rng::new(80);
    let n = 1 << 16;
    let patterns: Vec<u16> = (0..=u16::MAX).collect();
    let reversed: Vec<u16> = patterns.iter().rev().copied().collect();
    let mut targets: Vec<u32> = (0..n).collect();
    rng.shuffle(&mut targets);
    for reduction in REDUCTIONS {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let desc = reduction_one_update_each(DataType::BFloat16, n, reduction, duplicates);
            for updates in [le_bytes(&reversed), rng.bytes(2 * n as usize)] {
                let inputs = [le_bytes(&patterns), le_bytes(&targets), updates];
                check_against_reference(&desc, &inputs);
            }
        }
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
    // first range) and skipped by all.
    let mut rng = Rng::new(79);
    for (data_type, reduction, size) in [
        (DataType::Float32, Reduction::Add, 5000),
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
    let mut rng = Rng::new(76);
    for data_type in [
        DataType::Float16,
        DataType::BFloat16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for reduction in [Reduction::Min, Reduction::Max] {
            for (targets, count) in [(8, 600), (37, 3000), (1, 200)] {
                for pool in tie_pools(data_type) {
                    let (desc, inputs) =
                        pooled_reduction(&mut rng, data_type, reduction, (targets, count), &pool);
                    check_against_reference(&desc, &inputs);
                }
            }
        }
    }
}

#[test]
fn long_in_order_float_runs_fold_exactly_across_the_edges_of_the_normal_range() {
    // Thousands of updates on a few targets (runs folded by a workgroup, in chunks): partial
    // results that pass near 2^-126, into subnormals and zero, to infinity and to NaN, where
    // the chain of hardware steps must give way to the exact one.
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
    let brain = [
        0x0080u64, 0x8080, 0x0001, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x3f00, 0x4000, 0x3f81,
    ];
    let mut rng = Rng::new(77);
    for (data_type, reduction, pool) in [
        (DataType::Float32, Reduction::Add, &tiny[..]),
        (DataType::Float32, Reduction::Add, &huge[..]),
        (DataType::Float32, Reduction::Mul, &mul[..]),
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
