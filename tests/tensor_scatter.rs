//! TensorScatter (ONNX opset 24): ONNX's own examples, random cases of every width, mode,
//! write-index type and layout against the reference with guard bands, out-of-range write
//! indices reported and clamped, no write indices, and the in-place decode step.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Expect, Rng, check_against_reference, check_in_place, check_on, check_out_of_range, context,
    corrupt_one_index, le_bytes, random_tensor_scatter, set_out_of_range,
};
use dml_wgsl::{
    DataType, Error, OperatorDesc, OutOfRange, TensorDesc, TensorScatterDesc, TensorScatterMode,
};

fn f32_desc(
    cache: &[u32],
    updates: &[u32],
    write_indices: Option<DataType>,
    axis: u32,
    mode: TensorScatterMode,
) -> OperatorDesc {
    TensorScatterDesc::new(
        TensorDesc::new(DataType::Float32, cache),
        TensorDesc::new(DataType::Float32, updates),
        write_indices.map(|t| TensorDesc::new(t, &cache[..1])),
        TensorDesc::new(DataType::Float32, cache),
        axis,
    )
    .with_mode(mode)
    .into()
}

fn run_f32(desc: &OperatorDesc, inputs: &[&[u8]]) -> Vec<f32> {
    let output = context().run_blocking(desc, inputs).expect("run");
    bytemuck::cast_slice::<u8, f32>(&output).to_vec()
}

/// Two entries, one row of four positions of five values each.
const PAST_4D: [f32; 40] = [
    1., 2., 3., 4., 5., 5., 6., 7., 8., 9., 8., 7., 6., 5., 4., 4., 3., 2., 1., 0., //
    1., 2., 3., 4., 5., 5., 6., 7., 8., 9., 8., 7., 6., 5., 4., 4., 3., 2., 1., 0.,
];

#[test]
fn onnx_linear_example_writes_each_entry_at_its_own_index() {
    // ONNX's test_tensorscatter: axis -2 of [2, 1, 4, 5], write indices [1, 2].
    let desc = f32_desc(
        &[2, 1, 4, 5],
        &[2, 1, 1, 5],
        Some(DataType::Int64),
        2,
        TensorScatterMode::Linear,
    );
    let updates = [5f32, 5., 5., 5., 5., 1., 1., 1., 1., 1.];
    let got = run_f32(
        &desc,
        &[
            &le_bytes(&PAST_4D),
            &le_bytes(&updates),
            &le_bytes(&[1i64, 2]),
        ],
    );
    #[rustfmt::skip]
    let expected = [
        1., 2., 3., 4., 5., 5., 5., 5., 5., 5., 8., 7., 6., 5., 4., 4., 3., 2., 1., 0.,
        1., 2., 3., 4., 5., 5., 6., 7., 8., 9., 1., 1., 1., 1., 1., 4., 3., 2., 1., 0.,
    ];
    assert_eq!(got, expected);
    check_against_reference(
        &desc,
        &[le_bytes(&PAST_4D), le_bytes(&updates), le_bytes(&[1i64, 2])],
    );
}

#[test]
fn onnx_circular_example_wraps_past_the_cache_length() {
    // ONNX's test_tensorscatter_circular: two positions from write indices [1, 3] of 4.
    let desc = f32_desc(
        &[2, 1, 4, 5],
        &[2, 1, 2, 5],
        Some(DataType::Int64),
        2,
        TensorScatterMode::Circular,
    );
    #[rustfmt::skip]
    let updates = [
        5f32, 5., 5., 5., 5., 6., 6., 6., 6., 6.,
        1., 1., 1., 1., 1., 2., 2., 2., 2., 2.,
    ];
    let got = run_f32(
        &desc,
        &[
            &le_bytes(&PAST_4D),
            &le_bytes(&updates),
            &le_bytes(&[1i64, 3]),
        ],
    );
    #[rustfmt::skip]
    let expected = [
        1., 2., 3., 4., 5., 5., 5., 5., 5., 5., 6., 6., 6., 6., 6., 4., 3., 2., 1., 0.,
        2., 2., 2., 2., 2., 5., 6., 7., 8., 9., 8., 7., 6., 5., 4., 1., 1., 1., 1., 1.,
    ];
    assert_eq!(got, expected);
}

#[test]
fn onnx_3d_example_takes_the_default_linear_mode() {
    // ONNX's test_tensorscatter_3d: [3, 4, 5], axis 1, write indices [1, 2, 0].
    let row = [
        1f32, 2., 3., 4., 5., 5., 6., 7., 8., 9., 8., 7., 6., 5., 4., 5., 4., 3., 2., 1.,
    ];
    let past: Vec<f32> = row.iter().copied().cycle().take(60).collect();
    let desc: OperatorDesc = TensorScatterDesc::new(
        TensorDesc::new(DataType::Float32, &[3, 4, 5]),
        TensorDesc::new(DataType::Float32, &[3, 2, 5]),
        Some(TensorDesc::new(DataType::Int64, &[3])),
        TensorDesc::new(DataType::Float32, &[3, 4, 5]),
        1,
    )
    .into();
    let updates: Vec<f32> = [4f32, 5., 6., 7., 2., 3.]
        .iter()
        .flat_map(|&v| [v; 5])
        .collect();
    let got = run_f32(
        &desc,
        &[
            &le_bytes(&past),
            &le_bytes(&updates),
            &le_bytes(&[1i64, 2, 0]),
        ],
    );
    #[rustfmt::skip]
    let expected = [
        1., 2., 3., 4., 5., 4., 4., 4., 4., 4., 5., 5., 5., 5., 5., 5., 4., 3., 2., 1.,
        1., 2., 3., 4., 5., 5., 6., 7., 8., 9., 6., 6., 6., 6., 6., 7., 7., 7., 7., 7.,
        2., 2., 2., 2., 2., 3., 3., 3., 3., 3., 8., 7., 6., 5., 4., 5., 4., 3., 2., 1.,
    ];
    assert_eq!(got, expected);
}

#[test]
fn absent_write_indices_write_from_position_zero() {
    for mode in [TensorScatterMode::Linear, TensorScatterMode::Circular] {
        let desc = f32_desc(&[2, 3, 2], &[2, 2, 2], None, 1, mode);
        let cache = [9f32; 12];
        let updates = [1f32, 2., 3., 4., 5., 6., 7., 8.];
        let got = run_f32(&desc, &[&le_bytes(&cache), &le_bytes(&updates)]);
        assert_eq!(got, [1., 2., 3., 4., 9., 9., 5., 6., 7., 8., 9., 9.]);
    }
}

#[test]
fn random_tensor_scatters_match_the_reference_bit_for_bit() {
    let mut rng = Rng::new(2401);
    for round in 0..4 {
        for data_type in DataType::ALL {
            let index_type = if round % 2 == 0 {
                DataType::Int32
            } else {
                DataType::Int64
            };
            let case = random_tensor_scatter(&mut rng, data_type, index_type);
            let slices = case.slices();
            check_on(context(), &case.desc, &slices, Expect::Exact)
                .unwrap_or_else(|e| panic!("{e} for {:?}", case.desc));
            common::check_run(&case.desc, &case.inputs);
        }
    }
}

#[test]
fn circular_write_indices_wrap_from_any_value() {
    // Negative, past the length, and 64-bit values beyond 32 bits wrap as a floor modulo.
    for (index_type, w) in [
        (DataType::Int32, -1i64),
        (DataType::Int32, -7),
        (DataType::Int32, i32::MIN as i64),
        (DataType::Int32, i32::MAX as i64),
        (DataType::Int64, 5),
        (DataType::Int64, -(1 << 40) - 1),
        (DataType::Int64, (1 << 33) + 2),
        (DataType::Int64, i64::MIN),
        (DataType::Int64, i64::MAX),
    ] {
        let desc = f32_desc(
            &[1, 5, 1],
            &[1, 3, 1],
            Some(index_type),
            1,
            TensorScatterMode::Circular,
        );
        let cache = [0f32; 5];
        let updates = [1f32, 2., 3.];
        let write = match index_type {
            DataType::Int32 => le_bytes(&[w as i32]),
            _ => le_bytes(&[w]),
        };
        let got = run_f32(&desc, &[&le_bytes(&cache), &le_bytes(&updates), &write]);
        let start = w.rem_euclid(5) as usize;
        let mut expected = [0f32; 5];
        for (s, &u) in updates.iter().enumerate() {
            expected[(start + s) % 5] = u;
        }
        assert_eq!(got, expected, "write index {w} ({index_type:?})");
    }
}

#[test]
fn linear_write_indices_whose_run_does_not_fit_are_reported_and_skipped() {
    // Cache length 6, runs of 3: write indices in [0, 3] fit.
    for (index_type, bad) in [
        (DataType::Int32, 4i64),
        (DataType::Int32, -1),
        (DataType::Int64, 1 << 32),
        (DataType::Int64, -(1 << 32) + 1),
    ] {
        let desc = f32_desc(
            &[3, 6, 2],
            &[3, 3, 2],
            Some(index_type),
            1,
            TensorScatterMode::Linear,
        );
        let cache: Vec<f32> = (0..36).map(|v| v as f32).collect();
        let updates: Vec<f32> = (100..118).map(|v| v as f32).collect();
        let writes = [3i64, bad, 0];
        let write = match index_type {
            DataType::Int32 => le_bytes(&writes.map(|w| w as i32)),
            _ => le_bytes(&writes),
        };
        let inputs = vec![le_bytes(&cache), le_bytes(&updates), write];
        let error = check_out_of_range(&desc, &inputs);
        assert_eq!(
            error,
            Error::WriteIndexOutOfRange {
                entry: 1,
                value: bad as i128,
                length: 3,
                bound: 6,
            }
        );
        // Entry 1 keeps its past; entries 0 and 2 took their updates.
        let (output, _) = dml_wgsl::reference::run_with_status(
            &desc,
            &inputs.iter().map(|v| v.as_slice()).collect::<Vec<_>>(),
        )
        .unwrap();
        let output: &[f32] = bytemuck::cast_slice(&output);
        assert_eq!(&output[12..24], &cache[12..24]);
        assert_eq!(&output[6..12], &updates[..6]);
        assert_eq!(&output[24..30], &updates[12..]);
    }
}

#[test]
fn clamped_linear_write_indices_keep_the_whole_run_in_the_cache() {
    let desc: OperatorDesc = match f32_desc(
        &[4, 6, 1],
        &[4, 2, 1],
        Some(DataType::Int64),
        1,
        TensorScatterMode::Linear,
    ) {
        OperatorDesc::TensorScatter(d) => d.with_out_of_range(OutOfRange::Clamp).into(),
        _ => unreachable!(),
    };
    let cache = [0f32; 24];
    let updates = [1f32, 2., 3., 4., 5., 6., 7., 8.];
    let writes = [-3i64, 5, i64::MAX, 2];
    let got = run_f32(
        &desc,
        &[&le_bytes(&cache), &le_bytes(&updates), &le_bytes(&writes)],
    );
    #[rustfmt::skip]
    let expected = [
        1., 2., 0., 0., 0., 0.,
        0., 0., 0., 0., 3., 4.,
        0., 0., 0., 0., 5., 6.,
        0., 0., 7., 8., 0., 0.,
    ];
    assert_eq!(got, expected);
}

#[test]
fn random_out_of_range_write_indices_match_the_reference() {
    let mut rng = Rng::new(2402);
    let mut reported = 0;
    for round in 0..24 {
        let data_type = DataType::ALL[round % DataType::ALL.len()];
        let index_type = [DataType::Int32, DataType::Int64][round % 2];
        let mut case = random_tensor_scatter(&mut rng, data_type, index_type);
        corrupt_one_index(&mut rng, &mut case);
        if round % 3 == 0 {
            set_out_of_range(&mut case.desc, OutOfRange::Clamp);
        }
        let slices = case.slices();
        let (_, status) = dml_wgsl::reference::run_with_status(&case.desc, &slices).unwrap();
        if status.is_err() {
            check_out_of_range(&case.desc, &case.inputs);
            reported += 1;
        } else {
            check_against_reference(&case.desc, &case.inputs);
        }
    }
    // Linear cases without clamping report (circular ones wrap, absent indices are zeros).
    assert!(reported >= 3, "only {reported} cases reported");
}

#[test]
fn in_place_tensor_scatter_writes_only_the_updated_positions() {
    let mut rng = Rng::new(2403);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for mode in [TensorScatterMode::Linear, TensorScatterMode::Circular] {
            // A decode step: one new position per entry, in a packed cache [b, heads, L, d].
            let cache = TensorDesc::new(data_type, &[3, 2, 7, 5]);
            let step = TensorDesc::new(data_type, &[3, 2, 1, 5]);
            let desc: OperatorDesc = TensorScatterDesc::new(
                cache.clone(),
                step.clone(),
                Some(TensorDesc::new(DataType::Int64, &[3])),
                cache.clone(),
                2,
            )
            .with_mode(mode)
            .into();
            // Linear runs fit (the last position is 6); circular ones wrap.
            let writes = match mode {
                TensorScatterMode::Linear => [6i64, 0, 3],
                _ => [6, -1, 9],
            };
            let inputs = vec![
                rng.bytes(cache.size_in_bytes() as usize),
                rng.bytes(step.size_in_bytes() as usize),
                le_bytes(&writes),
            ];
            check_in_place(&desc, &inputs);
        }
    }
}

#[test]
fn invalid_tensor_scatters_are_rejected_naming_the_rule() {
    let base = |cache: &[u32], updates: &[u32], axis| {
        TensorScatterDesc::new(
            TensorDesc::new(DataType::Float16, cache),
            TensorDesc::new(DataType::Float16, updates),
            Some(TensorDesc::new(DataType::Int64, &cache[..1])),
            TensorDesc::new(DataType::Float16, cache),
            axis,
        )
    };
    let rejected = |d: TensorScatterDesc| OperatorDesc::from(d).validate().unwrap_err();
    assert!(matches!(
        rejected(base(&[2, 4], &[2, 1], 0)),
        Error::InvalidParameter { field: "axis", .. }
    ));
    assert!(matches!(
        rejected(base(&[2, 4], &[2, 1], 2)),
        Error::AxisOutOfRange { axis: 2, rank: 2 }
    ));
    assert!(matches!(
        rejected(base(&[2, 4, 3], &[2, 5, 3], 1)),
        Error::SizeTooLarge {
            tensor: "updates",
            dimension: 1,
            actual: 5,
            limit: 4,
            ..
        }
    ));
    assert!(matches!(
        rejected(base(&[2, 4, 3], &[2, 1, 2], 1)),
        Error::SizeMismatch {
            tensor: "updates",
            dimension: 2,
            ..
        }
    ));
    let mut d = base(&[2, 4], &[2, 1], 1);
    d.write_indices = Some(TensorDesc::new(DataType::UInt32, &[2]));
    assert!(matches!(
        rejected(d),
        Error::UnsupportedDataType {
            tensor: "write_indices",
            ..
        }
    ));
    let mut d = base(&[2, 4], &[2, 1], 1);
    d.write_indices = Some(TensorDesc::new(DataType::Int32, &[3]));
    assert!(matches!(
        rejected(d),
        Error::SizeMismatch {
            tensor: "write_indices",
            dimension: 0,
            actual: 3,
            ..
        }
    ));
    let mut d = base(&[2, 4], &[2, 1], 1);
    d.updates = TensorDesc::new(DataType::Float32, &[2, 1]);
    assert!(matches!(
        rejected(d),
        Error::DataTypeMismatch {
            tensor: "updates",
            ..
        }
    ));
}

#[test]
fn empty_tensor_scatters_copy_the_cache_or_do_nothing() {
    let mut rng = Rng::new(2404);
    // No updates (a sequence of 0), an empty batch, an empty cache row, an empty cache axis.
    for (cache, updates) in [
        (&[2u32, 5, 3][..], &[2u32, 0, 3][..]),
        (&[0, 5, 3], &[0, 2, 3]),
        (&[2, 5, 0], &[2, 1, 0]),
        (&[2, 0, 3], &[2, 0, 3]),
    ] {
        for write_indices in [None, Some(DataType::Int64)] {
            let desc: OperatorDesc = TensorScatterDesc::new(
                TensorDesc::new(DataType::Float16, cache),
                TensorDesc::new(DataType::Float16, updates),
                write_indices.map(|t| TensorDesc::new(t, &cache[..1])),
                TensorDesc::new(DataType::Float16, cache),
                1,
            )
            .into();
            let mut inputs: Vec<Vec<u8>> = desc
                .inputs()
                .iter()
                .map(|(_, t)| rng.bytes(t.size_in_bytes() as usize))
                .collect();
            if write_indices.is_some() {
                // Any write index: there is nothing to write.
                inputs[2] = le_bytes(&vec![-9i64; cache[0] as usize]);
            }
            check_against_reference(&desc, &inputs);
            common::check_run(&desc, &inputs);
            if cache.iter().all(|&s| s > 0) {
                check_in_place(&desc, &inputs);
            }
        }
    }
}
