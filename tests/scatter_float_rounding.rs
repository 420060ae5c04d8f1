//! Scatter reductions' float rounding, bit for bit against the reference: Float32 Add's
//! ties to even and subnormals, every step at the edges of the normal range, Float32 Add of
//! values around the lines its exact sum is drawn on, Float16 and BFloat16 Add rounding
//! each step in f32 then to their own width, and every BFloat16 pattern in each reduction.
//! The other reduction tests are in tests/scatter_reductions.rs.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    REDUCTIONS, Rng, check_against_reference, context, le_bytes, reduction_one_update_each,
    run_f32_reduction,
};
use dml_wgsl::{DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc, TensorDesc};

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

/// ScatterElements Add in order of 3 updates onto 2 elements of `data_type`, UInt32 indices.
fn in_order_add_of_three_onto_two(data_type: DataType) -> OperatorDesc {
    ScatterElementsDesc::new(
        TensorDesc::new(data_type, &[2]),
        TensorDesc::new(DataType::UInt32, &[3]),
        TensorDesc::new(data_type, &[3]),
        TensorDesc::new(data_type, &[2]),
        0,
    )
    .with_reduction(Reduction::Add)
    .with_duplicates(DuplicateMode::InOrder)
    .into()
}

#[test]
fn float16_add_rounds_each_step_in_f32_then_to_f16() {
    use half::f16;
    // 2048 + 1 is a tie in f16 (ulp 2 there): even, 2048. Then + 1 again: 2048 again (in
    // order each step rounds), so 2048 + 1 + 1 stays 2048 rather than 2050.
    let desc = in_order_add_of_three_onto_two(DataType::Float16);
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
    let desc = in_order_add_of_three_onto_two(DataType::BFloat16);
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
