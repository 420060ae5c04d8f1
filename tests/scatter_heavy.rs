//! Scatter reductions where thousands to hundreds of thousands of updates land on one target:
//! element by element (ScatterElements) and in rows (ScatterND), every element width, both
//! duplicate modes, every reduction, checked against the reference bit for bit.
//!
//! These runs pass Mesa's loop limit (llvmpipe and lavapipe silently end a shader
//! invocation's loops after 65535 iterations in all): a kernel that folded a target's run,
//! or merged its list, in one invocation lost updates past it. Every fold now takes at most
//! `FOLD_STEPS` steps an invocation and carries its partial result across dispatches.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, REDUCTIONS, Rng, Values, check_on, context, one_target_case, write_indices,
};
use dml_wgsl::{
    DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc, ScatterNdDesc,
    TensorDesc,
};

/// A type of each element width, floats and integers both, and both 16-bit float formats.
const WIDTHS: [DataType; 7] = [
    DataType::Int8,
    DataType::Float16,
    DataType::BFloat16,
    DataType::Float32,
    DataType::UInt32,
    DataType::Float64,
    DataType::Int64,
];

fn check(case: &Case) {
    check_on(context(), &case.desc, &case.slices(), Expect::ByMode)
        .unwrap_or_else(|e| panic!("{:?}: {e}", case.desc));
}

/// Every width, reduction and mode, on the element path and on rows of 2, 3 and 64 units;
/// the runs' lengths cycle through 3,000 (under the old limit), 20,000 and 70,000 (past it).
fn sweep(seed: u64, row: Option<u32>) {
    let mut rng = Rng::new(seed);
    let mut k = 0;
    for data_type in WIDTHS {
        for reduction in REDUCTIONS {
            for duplicates in [DuplicateMode::InOrder, DuplicateMode::AnyUpdate] {
                let count = [3_000, 20_000, 70_000][k % 3];
                k += 1;
                let case =
                    one_target_case(&mut rng, data_type, (reduction, duplicates), count, row);
                check(&case);
            }
        }
    }
}

#[test]
fn runs_of_tens_of_thousands_of_updates_on_one_element_reduce_exactly() {
    sweep(230, None);
}

#[test]
fn runs_of_tens_of_thousands_of_rows_of_two_units_on_one_row_reduce_exactly() {
    sweep(231, Some(2));
}

#[test]
fn runs_of_tens_of_thousands_of_rows_of_three_and_sixty_four_units_reduce_exactly() {
    // Odd rows (three units: whole words of 1- and 2-byte types straddle rows), and rows wide
    // enough to reduce by rows in any order too.
    let mut rng = Rng::new(232);
    for (k, data_type) in WIDTHS.into_iter().enumerate() {
        for (j, duplicates) in [DuplicateMode::InOrder, DuplicateMode::AnyUpdate]
            .into_iter()
            .enumerate()
        {
            let reduction = REDUCTIONS[(k + j) % 4];
            let count = [3_070, 70_000][(k + j) % 2];
            let case =
                one_target_case(&mut rng, data_type, (reduction, duplicates), count, Some(3));
            check(&case);
            let count = [4_000, 66_000][(k + j + 1) % 2];
            let case = one_target_case(
                &mut rng,
                data_type,
                (reduction, duplicates),
                count,
                Some(64),
            );
            check(&case);
        }
    }
}

#[test]
fn runs_of_three_hundred_thousand_updates_fold_in_order_across_passes() {
    // Past what one pass folds: the partial result is carried from pass to pass.
    let mut rng = Rng::new(233);
    for data_type in WIDTHS {
        for row in [None, Some(2)] {
            let reduction = if data_type.is_float() {
                Reduction::Add
            } else {
                Reduction::Mul
            };
            let case = one_target_case(
                &mut rng,
                data_type,
                (reduction, DuplicateMode::InOrder),
                300_000,
                row,
            );
            check(&case);
        }
    }
}

/// The reproductions: `count` updates of one, all on element 0; the result is the
/// count (and the Float32 case's partial sums return to zero).
#[test]
fn counting_updates_of_one_gives_the_count() {
    let ones = |data_type: DataType, n: usize| -> Vec<u8> {
        let one: Vec<u8> = match data_type {
            DataType::Float64 => 1f64.to_le_bytes().to_vec(),
            DataType::Float32 => 1f32.to_le_bytes().to_vec(),
            DataType::Int64 => 1i64.to_le_bytes().to_vec(),
            _ => 1i32.to_le_bytes().to_vec(),
        };
        one.repeat(n)
    };
    for (data_type, count, row, duplicates) in [
        (
            DataType::Float64,
            3_070u32,
            Some(2u32),
            DuplicateMode::AnyUpdate,
        ),
        (DataType::Float64, 4_000, Some(2), DuplicateMode::InOrder),
        (DataType::Int64, 65_600, None, DuplicateMode::AnyUpdate),
        (DataType::Float64, 70_000, None, DuplicateMode::InOrder),
        (DataType::Float32, 5_000, Some(64), DuplicateMode::AnyUpdate),
        (DataType::Int32, 5_000, Some(3), DuplicateMode::InOrder),
    ] {
        let units = row.unwrap_or(1);
        let (desc, indices): (OperatorDesc, _) = match row {
            None => (
                ScatterElementsDesc::new(
                    TensorDesc::new(data_type, &[1, 1]),
                    TensorDesc::new(DataType::UInt32, &[count, 1]),
                    TensorDesc::new(data_type, &[count, 1]),
                    TensorDesc::new(data_type, &[1, 1]),
                    0,
                )
                .with_reduction(Reduction::Add)
                .with_duplicates(duplicates)
                .into(),
                vec![0u8; count as usize * 4],
            ),
            Some(row) => (
                ScatterNdDesc::new(
                    TensorDesc::new(data_type, &[1, row]),
                    TensorDesc::new(DataType::UInt32, &[count, 1]),
                    TensorDesc::new(data_type, &[count, row]),
                    TensorDesc::new(data_type, &[1, row]),
                    2,
                    2,
                )
                .with_reduction(Reduction::Add)
                .with_duplicates(duplicates)
                .into(),
                vec![0u8; count as usize * 4],
            ),
        };
        let input = vec![0u8; units as usize * data_type.size_in_bytes() as usize];
        let updates = ones(data_type, (count * units) as usize);
        let output = common::run_guarded(&desc, &[&input, &indices, &updates]);
        let guard = common::guard_size() as usize;
        let width = data_type.size_in_bytes() as usize;
        let expected = match data_type {
            DataType::Float64 => (count as f64).to_le_bytes().to_vec(),
            DataType::Float32 => (count as f32).to_le_bytes().to_vec(),
            DataType::Int64 => (count as i64).to_le_bytes().to_vec(),
            _ => (count as i32).to_le_bytes().to_vec(),
        };
        for u in 0..units as usize {
            let at = guard + u * width;
            assert_eq!(
                output[at..at + width],
                expected[..],
                "{data_type:?}, {count} updates, rows {row:?}, {duplicates:?}: unit {u}"
            );
        }
    }
}

#[test]
fn rows_out_of_range_in_order_are_skipped_and_reported_beside_long_runs() {
    // Out-of-range rows join the last row's run, marked, so that the sort's keys need no bit
    // past the rows': 256 rows (8 bits), the last one among the hot ones.
    let mut rng = Rng::new(234);
    for (rows, hot) in [(256u32, 255u32), (5, 1)] {
        let count = 6_000u32;
        let desc: OperatorDesc = ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[rows, 3]),
            TensorDesc::new(DataType::Int32, &[count, 1]),
            TensorDesc::new(DataType::Float32, &[count, 3]),
            TensorDesc::new(DataType::Float32, &[rows, 3]),
            2,
            2,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(DuplicateMode::InOrder)
        .into();
        let mut inputs = common::random_inputs(&mut rng, &desc);
        let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
        write_indices(&tensors[1], &mut inputs[1], |c| match c[0] % 1000 {
            7 => rows as i128 + 3,
            500 => -(rows as i128) - 1,
            _ if rng.chance(80) => hot as i128,
            _ => rng.range(0, rows as u64 - 1) as i128,
        });
        common::fill_scatter_floats(
            &mut rng,
            &desc,
            &mut inputs,
            Values::Numbers,
            Reduction::Add,
        );
        common::check_out_of_range(&desc, &inputs);
    }
}
