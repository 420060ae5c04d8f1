//! Float32 Add in any order by the device's f32 atomics (`SHADER_FLOAT32_ATOMIC`: lavapipe
//! and NVIDIA's Vulkan driver offer them; GL and browsers do not, and take the
//! compare-exchange path) and by compare-exchange (forced): bit for bit against the
//! reference, each target taking two updates so that every order of them is checked. Values
//! the device's add may get wrong (NaNs, infinities, subnormals, numbers under 2^-102 in
//! magnitude) take the compare-exchange path: one such value in the input (every update then
//! takes it) or in the updates (that update, after the atomics), each class in turn, on
//! random values around it; then many such updates among the others.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{Case, Expect, Rng, context, le_bytes};
use dml_wgsl::{
    ContextOptions, DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc,
    TensorDesc,
};

/// Outputs past the workgroup bins (16,384 units), where the atomics are taken.
const SIZES: [u32; 2] = [16_411, 40_009];

/// A random normal f32 of magnitude 2^-20 to 2^20, every mantissa bit drawn: sums round.
fn random_number(rng: &mut Rng) -> f32 {
    let sign = (rng.range(0, 1) as u32) << 31;
    let exponent = (127 - 20 + rng.range(0, 40) as u32) << 23;
    f32::from_bits(sign | exponent | rng.range(0, (1 << 23) - 1) as u32)
}

/// ScatterElements Float32 Add in any order onto a 1-D output of `input.len()` elements,
/// Int64 indices.
fn float32_add(input: &[f32], indices: &[i64], updates: &[f32]) -> Case {
    let (size, count) = (input.len() as u32, indices.len() as u32);
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(DataType::Float32, &[size]),
            TensorDesc::new(DataType::Int64, &[count]),
            TensorDesc::new(DataType::Float32, &[count]),
            TensorDesc::new(DataType::Float32, &[size]),
            0,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(DuplicateMode::AnyUpdate),
    );
    Case {
        desc,
        inputs: vec![le_bytes(input), le_bytes(indices), le_bytes(updates)],
    }
}

/// [`float32_add`] of `2 * size` updates onto `size` elements (a multiple of no prime past
/// 7919): update k goes to k * 7919 % size, so each target takes two, far apart. The input
/// and updates from `value` (given each value's position: input elements first, then
/// updates).
fn two_updates_a_target(size: u32, mut value: impl FnMut(usize) -> f32) -> Case {
    let count = 2 * size;
    let input: Vec<f32> = (0..size as usize).map(&mut value).collect();
    let indices: Vec<i64> = (0..count as i64).map(|k| k * 7919 % size as i64).collect();
    let updates: Vec<f32> = (0..count as usize)
        .map(|k| value(size as usize + k))
        .collect();
    float32_add(&input, &indices, &updates)
}

#[test]
fn float32_add_by_float_atomics_matches_the_reference_in_some_order() {
    let has_atomics = context()
        .device()
        .features()
        .contains(wgpu::Features::SHADER_FLOAT32_ATOMIC);
    if !has_atomics {
        eprintln!(
            "{:?} lacks f32 atomics: both contexts take the compare-exchange path",
            context().adapter_info().name
        );
    }
    let without = common::context_with(ContextOptions::default().with_float32_atomics(false));
    let mut rng = Rng::new(91);
    for (name, context) in [("default", context()), ("without", &without)] {
        for size in SIZES {
            let case = two_updates_a_target(size, |_| random_number(&mut rng));
            common::check_on(context, &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{name} onto {size}: {e}"));
        }
    }
}

#[test]
fn a_value_the_float_atomics_may_get_wrong_takes_the_compare_exchange_path() {
    // Each class, once in the input and once in the updates, among random numbers, beside a
    // partner on the same target: the tiny ones cancel into a subnormal sum (which an NVIDIA
    // GPU's atomic add flushes to zero). The largest finite number is safe for the atomics
    // (the sum overflows to infinity there too): the atomics' own path, at its edge.
    let min_normal = f32::MIN_POSITIVE;
    let classes: [(&str, f32, f32); 8] = [
        ("a signalling NaN", f32::from_bits(0x7f81_2345), 1.0),
        ("a negative quiet NaN", f32::from_bits(0xffc0_0001), 1.0),
        ("infinity", f32::INFINITY, -3.0),
        ("negative infinity", f32::NEG_INFINITY, f32::INFINITY),
        (
            "a subnormal",
            f32::from_bits(0x0000_0123),
            f32::from_bits(0x0000_0456),
        ),
        ("a normal below 2^-125", 1.5 * min_normal, -min_normal),
        (
            "a normal below 2^-102",
            f32::from_bits(0x0c00_0001),
            -f32::from_bits(0x0c00_0000),
        ),
        ("the largest finite", f32::MAX, f32::MAX),
    ];
    let mut rng = Rng::new(92);
    let size = SIZES[0] as usize;
    for (class, value, partner) in classes {
        for in_updates in [false, true] {
            // Update k goes to k * 7919 % size, as does update k + size.
            let k = rng.range(0, size as u64 - 1) as usize;
            let (at, other) = if in_updates {
                (size + k, 2 * size + k)
            } else {
                (k * 7919 % size, size + k)
            };
            let case = two_updates_a_target(size as u32, |position| {
                if position == at {
                    value
                } else if position == other {
                    partner
                } else {
                    random_number(&mut rng)
                }
            });
            let place = if in_updates { "an update" } else { "the input" };
            common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{class} in {place}: {e}"));
        }
    }
}

#[test]
fn updates_the_float_atomics_refuse_are_added_after_the_others() {
    // A fifth of the updates from the classes above (signs drawn), the rest random numbers;
    // the input all random numbers, which the atomics take.
    let classes = [
        f32::from_bits(0x7f81_2345),
        f32::INFINITY,
        f32::from_bits(0x0000_0123),
        1.5 * f32::MIN_POSITIVE,
        f32::from_bits(0x0c00_0001),
        0.0,
    ];
    let mut rng = Rng::new(94);
    for size in SIZES {
        let case = two_updates_a_target(size, |position| {
            if position >= size as usize && rng.chance(20) {
                let sign = if rng.chance(50) { -1.0 } else { 1.0 };
                sign * rng.pick(&classes)
            } else {
                random_number(&mut rng)
            }
        });
        common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("onto {size}: {e}"));
    }
}

#[test]
fn the_float_atomics_report_an_out_of_range_update_and_skip_it() {
    let mut rng = Rng::new(93);
    // Small integers: exact in any order, so the reference's in-order bits are the answer.
    let mut case = two_updates_a_target(SIZES[1], |_| rng.range(0, 200) as f32 - 100.0);
    common::corrupt_one_index(&mut rng, &mut case);
    common::check_out_of_range(&case.desc, &case.inputs);
}

/// [`float32_add`] of `count` updates uniform over `size` elements, every value from `value`
/// (input elements first, then updates).
fn uniform_updates(
    rng: &mut Rng,
    size: u32,
    count: u32,
    mut value: impl FnMut(&mut Rng, usize) -> f32,
) -> Case {
    let input: Vec<f32> = (0..size as usize).map(|k| value(rng, k)).collect();
    let indices: Vec<i64> = (0..count)
        .map(|_| rng.range(0, size as u64 - 1) as i64)
        .collect();
    let updates: Vec<f32> = (0..count as usize)
        .map(|k| value(rng, size as usize + k))
        .collect();
    float32_add(&input, &indices, &updates)
}

#[test]
fn many_updates_a_thread_with_refused_ones_and_a_bad_index_are_all_added_once() {
    // 300,001 updates onto 20,011 elements (15 a target): past 2^17 updates each thread of
    // the atomics and of the compare-exchange pass after them takes several. Values exact in
    // any order (small integers, -0.0 among the input's), so the in-order bits are the
    // answer: with no value refused; with +infinity among the updates (refused, added after
    // the others: infinity in any order); with a signalling NaN in the input (every update
    // then by compare-exchange: its target ends the NaN quieted in any order); out of place
    // and in place; each with a bad index too, reported and skipped.
    let mut rng = Rng::new(95);
    let (size, count) = (20_011, 300_001);
    let integer = |rng: &mut Rng| rng.range(0, 200) as f32 - 100.0;
    for (case_name, refused) in [
        ("none", None),
        ("updates", Some(false)),
        ("input", Some(true)),
    ] {
        let special_at = rng.range(0, size as u64 - 1) as usize;
        let case = uniform_updates(&mut rng, size, count, |rng, position| {
            let in_input = position < size as usize;
            match refused {
                Some(true) if position == special_at => f32::from_bits(0x7f80_0123),
                Some(false) if !in_input && rng.chance(1) => f32::INFINITY,
                _ if in_input && rng.chance(5) => -0.0,
                _ => integer(rng),
            }
        });
        common::check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("refused {case_name}: {e}"));
        // In place: the screen reads the input itself.
        common::check_in_place(&case.desc, &case.inputs);
        let mut case = case;
        common::corrupt_one_index(&mut rng, &mut case);
        common::check_out_of_range(&case.desc, &case.inputs);
    }
}
