//! A seeded fuzzer of the scatters the random descriptors of `tests/fuzz.rs` rarely reach,
//! against `dml_wgsl::reference`, for a bounded time:
//!
//! * heavy duplicates: tens of thousands to hundreds of thousands of updates on a few targets,
//!   element by element and in rows (ScatterND);
//! * rows of 1024 to 4096 units (the coalesced and row-copying entry points);
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
    Case, Expect, REDUCTIONS, Rng, Values, check_on, context, limited_contexts, random_index_type,
    random_inputs, set_out_of_range, set_scatter_options, write_indices,
};
use dml_wgsl::{
    Context, CopyMethod, DataType, DuplicateMode, OperatorDesc, OutOfRange, Reduction,
    ScatterElementsDesc, ScatterNdDesc, TensorDesc,
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
    if data_type.is_float() && reduction != Reduction::None {
        let values = if common::order_matters(reduction, duplicates) {
            Values::OrderFree
        } else {
            rng.pick(&[Values::Numbers, Values::Bits])
        };
        common::fill_scatter_floats(rng, &desc, &mut inputs, values, reduction);
    }
    Case { desc, inputs }
}

#[test]
fn fuzz_heavy_scatters_match_the_reference() {
    // The measured copy method, and each forced.
    let forced = limited_contexts(2, |_| {});
    forced[0].set_copy_method(CopyMethod::Kernel);
    forced[1].set_copy_method(CopyMethod::CopyBufferToBuffer);
    let contexts: Vec<&Context> = [context()].into_iter().chain(forced.iter()).collect();
    let errors: Vec<_> = contexts
        .iter()
        .map(|c| count_uncaptured_errors(c.device()))
        .collect();
    fuzz("heavy", budget(0.3), 8, |seed| {
        let mut rng = Rng::new(seed);
        let case = heavy_case(&mut rng);
        let context = contexts[rng.range(0, 2) as usize];
        check_on(context, &case.desc, &case.slices(), Expect::ByMode)
            .unwrap_or_else(|e| panic!("{e} for {:?}", case.desc));
    });
    for counter in errors {
        assert_eq!(counter.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
    }
}
