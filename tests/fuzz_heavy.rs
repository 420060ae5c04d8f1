//! A seeded fuzzer of the scatters the random descriptors of `tests/fuzz.rs` rarely reach,
//! against `dml_wgsl::reference`, for a bounded time:
//!
//! * heavy duplicates: tens of thousands to hundreds of thousands of updates on a few targets,
//!   element by element and in rows (ScatterND);
//! * rows of 1024 to 4096 units (the coalesced and row-copying entry points);
//! * reductions of rows of 1 to 1100 units (ScatterND, index_add's shape), from a few to
//!   thousands of rows, spread over a table, crowded onto a few of its rows, mostly onto one
//!   (a hub), or sorted: the lists, the rows they set aside, the sorted rows and the element
//!   paths, out of place and in place, with and without 64-bit atomics;
//! * every reduction and none, in both duplicate modes, every data type and index type;
//! * wild indices clamped by `OutOfRange::Clamp`;
//! * contexts whose copy method is forced either way, beside the measured one.
//!
//! `DML_WGSL_FUZZ_SECONDS` and `DML_WGSL_FUZZ_SEED` as in `tests/fuzz.rs`; a failure names
//! its seed.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use std::sync::atomic::Ordering;

use common::fuzzing::{budget, count_uncaptured_errors, fuzz};
use common::{
    Case, Expect, REDUCTIONS, Rng, Values, check_in_place_with, check_on, context, context_with,
    limited_contexts, random_index_type, random_inputs, set_out_of_range, set_scatter_options,
    write_indices,
};
use dml_wgsl::{
    Context, ContextOptions, CopyMethod, DataType, DuplicateMode, OperatorDesc, OutOfRange,
    Reduction, ScatterElementsDesc, ScatterNdDesc, TensorDesc,
};

/// An index far out of range for a dimension of `bound`, of a value `data_type` holds.
fn wild_index(rng: &mut Rng, bound: u32, data_type: DataType) -> i128 {
    let bound = bound as i128;
    let wide = data_type.size_in_bytes() == 8;
    let signed = data_type.is_signed();
    match rng.range(0, 4) {
        0 => bound,
        1 => bound * 3 + rng.range(0, 100) as i128,
        2 if signed => -bound - 1 - rng.range(0, 1000) as i128,
        3 if signed && wide => i64::MIN as i128,
        3 if signed => i32::MIN as i128,
        _ if wide && signed => i64::MAX as i128,
        _ if wide => (1i128 << 32) + rng.range(0, bound as u64 - 1) as i128,
        _ if signed => i32::MAX as i128,
        _ => u32::MAX as i128,
    }
}

/// A random heavy case: nearly every update on a few targets (elements, or rows of up to 16
/// units), or a few rows of 1024 to 4096 units; reduction, mode and policy random.
fn heavy_case(rng: &mut Rng) -> Case {
    let data_type = rng.pick(&DataType::ALL);
    let index_type = random_index_type(rng);
    let nd = rng.chance(50);
    let heavy = rng.chance(60);
    let (rows, row, count) = if heavy {
        let row = if nd {
            rng.pick(&[1, 2, 3, 5, 8, 16])
        } else {
            1
        };
        let count = rng.range(10_000, 300_000 / row as u64) as u32;
        (rng.range(1, 5) as u32, row, count)
    } else {
        (
            rng.range(2, 8) as u32,
            rng.range(1024, 4096) as u32,
            rng.range(1, 12) as u32,
        )
    };
    // ScatterElements of wide rows sometimes along the inner axis (copying each row).
    let inner = !nd && !heavy && rng.chance(50);
    let mut desc: OperatorDesc = if nd {
        ScatterNdDesc::new(
            TensorDesc::new(data_type, &[rows, row]),
            TensorDesc::new(index_type, &[count, 1]),
            TensorDesc::new(data_type, &[count, row]),
            TensorDesc::new(data_type, &[rows, row]),
            2,
            2,
        )
        .into()
    } else if inner {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[rows, row]),
            TensorDesc::new(index_type, &[rows, count * 64]),
            TensorDesc::new(data_type, &[rows, count * 64]),
            TensorDesc::new(data_type, &[rows, row]),
            1,
        )
        .into()
    } else if heavy {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[rows]),
            TensorDesc::new(index_type, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[rows]),
            0,
        )
        .into()
    } else {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[rows, row]),
            TensorDesc::new(index_type, &[count, row]),
            TensorDesc::new(data_type, &[count, row]),
            TensorDesc::new(data_type, &[rows, row]),
            0,
        )
        .into()
    };
    let reduction = if rng.chance(25) {
        Reduction::None
    } else {
        rng.pick(&REDUCTIONS)
    };
    let duplicates = rng.pick(&[DuplicateMode::InOrder, DuplicateMode::AnyUpdate]);
    set_scatter_options(&mut desc, reduction, duplicates);
    let clamp = rng.chance(25);
    if clamp {
        set_out_of_range(&mut desc, OutOfRange::Clamp);
    }
    let mut inputs = random_inputs(rng, &desc);
    let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
    let bound = if inner { row } else { rows };
    let hot: Vec<u32> = (0..rng.range(1, 3))
        .map(|_| rng.range(0, bound as u64 - 1) as u32)
        .collect();
    let signed = index_type.is_signed();
    write_indices(&tensors[1], &mut inputs[1], |_| {
        if clamp && rng.chance(10) {
            wild_index(rng, bound, index_type)
        } else {
            let target = if heavy && rng.chance(95) {
                rng.pick(&hot)
            } else {
                rng.range(0, bound as u64 - 1) as u32
            };
            if signed && rng.chance(30) {
                target as i128 - bound as i128
            } else {
                target as i128
            }
        }
    });
    fill_reduction_floats(rng, &desc, &mut inputs, reduction, duplicates);
    Case { desc, inputs }
}

/// A random reduction of rows: ScatterND of `rows` rows of `width` units (split over one or
/// two dimensions) onto a table of up to 8192 rows (addressed by one or two index
/// components), the targets spread at random, crowded onto up to 16 rows, mostly (20 to 95 %) on
/// one row, or ascending; reduction, mode and policy random.
fn rows_case(rng: &mut Rng) -> Case {
    let data_type = rng.pick(&DataType::ALL);
    let index_type = random_index_type(rng);
    let width = match rng.range(0, 3) {
        0 => rng.range(1, 16),
        1 => rng.range(17, 300),
        _ => rng.range(301, 1100),
    } as u32;
    // Few rows or many (crowded, many make the sorted rows: 128 a table row and more).
    let most = (400_000 / width as u64).clamp(2, 6000);
    let fewest = if rng.chance(50) { 2 } else { most / 2 };
    let rows = rng.range(fewest, most) as u32;
    let table = if rng.chance(30) {
        rng.range(1, 16)
    } else {
        rng.range(17, 8192)
    } as u32;
    // The table's rows over one or two index components; the width over one or two dimensions.
    let table_sizes = match rng.chance(25) {
        true if table >= 4 => vec![table / 2, 2],
        _ => vec![table],
    };
    let table = table_sizes.iter().product::<u32>();
    let row_sizes = match rng.chance(25) {
        true if width.is_multiple_of(2) => vec![2, width / 2],
        _ => vec![width],
    };
    let tuple = table_sizes.len() as u32;
    let sizes = |first: &[u32]| [first, &row_sizes[..]].concat();
    let rank = sizes(&table_sizes).len() as u32;
    let mut desc: OperatorDesc = ScatterNdDesc::new(
        TensorDesc::new(data_type, &sizes(&table_sizes)),
        TensorDesc::new(index_type, &[rows, tuple]),
        TensorDesc::new(data_type, &sizes(&[rows])),
        TensorDesc::new(data_type, &sizes(&table_sizes)),
        rank,
        2,
    )
    .into();
    let reduction = if rng.chance(15) {
        Reduction::None
    } else {
        rng.pick(&REDUCTIONS)
    };
    let duplicates = rng.pick(&[DuplicateMode::InOrder, DuplicateMode::AnyUpdate]);
    set_scatter_options(&mut desc, reduction, duplicates);
    let clamp = rng.chance(20);
    if clamp {
        set_out_of_range(&mut desc, OutOfRange::Clamp);
    }
    let mut inputs = random_inputs(rng, &desc);
    // Targets as rows of the table (0 to table - 1): spread, crowded, a hub, or ascending.
    let crowd: Vec<u32> = (0..rng.range(1, 16))
        .map(|_| rng.range(0, table as u64 - 1) as u32)
        .collect();
    let hub_percent = rng.range(20, 95);
    let layout = rng.range(0, 3);
    let mut next = 0u32;
    let targets: Vec<u32> = (0..rows)
        .map(|_| match layout {
            0 => rng.range(0, table as u64 - 1) as u32,
            1 => rng.pick(&crowd),
            2 if rng.chance(hub_percent) => crowd[0],
            2 => rng.range(0, table as u64 - 1) as u32,
            _ => {
                next = (next + rng.range(0, 2) as u32).min(table - 1);
                next
            }
        })
        .collect();
    // One row out of range (skipped and reported) where no policy clamps it; clamped, a few
    // wild ones.
    let bad_row = (!clamp && rng.chance(10)).then(|| rng.range(0, rows as u64 - 1) as u32);
    let signed = index_type.is_signed();
    let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
    write_indices(&tensors[1], &mut inputs[1], |c| {
        let (row, component) = (c[0], c[1] as usize);
        let bound = table_sizes[component];
        if bad_row == Some(row) && component == 0 {
            return bound as i128;
        }
        if clamp && rng.chance(5) {
            return wild_index(rng, bound, index_type);
        }
        // The target's component: its row of the table in row-major order.
        let stride: u32 = table_sizes[component + 1..].iter().product();
        let value = targets[row as usize] / stride % bound;
        if signed && rng.chance(20) {
            value as i128 - bound as i128
        } else {
            value as i128
        }
    });
    fill_reduction_floats(rng, &desc, &mut inputs, reduction, duplicates);
    Case { desc, inputs }
}

/// A float reduction's input and updates: order-free values where the order of duplicates
/// could change the result, else numbers that round or random bits.
fn fill_reduction_floats(
    rng: &mut Rng,
    desc: &OperatorDesc,
    inputs: &mut [Vec<u8>],
    reduction: Reduction,
    duplicates: DuplicateMode,
) {
    let data_type = desc.inputs()[0].1.data_type;
    if data_type.is_float() && reduction != Reduction::None {
        let values = if common::order_matters(reduction, duplicates) {
            Values::OrderFree
        } else {
            rng.pick(&[Values::Numbers, Values::Bits])
        };
        common::fill_scatter_floats(rng, desc, inputs, values, reduction);
    }
}

/// Runs `make`'s cases for a share of the fuzzing time, each on one of `contexts` (picked at
/// random) and checked by `check`; nothing may reach wgpu's uncaptured-error handler.
fn fuzz_on(
    name: &str,
    contexts: &[&Context],
    make: fn(&mut Rng) -> Case,
    check: fn(&Context, &Case),
) {
    let errors: Vec<_> = contexts
        .iter()
        .map(|c| count_uncaptured_errors(c.device()))
        .collect();
    fuzz(name, budget(0.3), 8, |seed| {
        let mut rng = Rng::new(seed);
        let case = make(&mut rng);
        let context = contexts[rng.range(0, contexts.len() as u64 - 1) as usize];
        check(context, &case);
    });
    for counter in errors {
        assert_eq!(counter.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
    }
}

#[test]
fn fuzz_row_reductions_match_the_reference() {
    // With 64-bit atomics where the adapter has them (8-byte rows combined across workgroups)
    // and without; out of place and in place.
    let without = context_with(ContextOptions::default().with_int64_atomics(false));
    fuzz_on(
        "rows",
        &[context(), &without],
        rows_case,
        |context, case| {
            check_on(context, &case.desc, &case.slices(), Expect::ByMode)
                .unwrap_or_else(|e| panic!("{e} for {:?}", case.desc));
            check_in_place_with(context, &case.desc, &case.inputs, Expect::ByMode);
        },
    );
}

#[test]
fn fuzz_heavy_scatters_match_the_reference() {
    // The measured copy method, and each forced.
    let forced = limited_contexts(2, |_| {});
    forced[0].set_copy_method(CopyMethod::Kernel);
    forced[1].set_copy_method(CopyMethod::CopyBufferToBuffer);
    let contexts: Vec<&Context> = [context()].into_iter().chain(forced.iter()).collect();
    fuzz_on("heavy", &contexts, heavy_case, |context, case| {
        check_on(context, &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("{e} for {:?}", case.desc));
    });
}
