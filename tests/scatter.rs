//! ScatterElements and ScatterND on the GPU: the DirectML pages' examples, random
//! differential tests in both duplicate modes, out-of-range indices (reported or clamped),
//! in-place operation. The kernels' row and block paths are in `scatter_shapes.rs`,
//! reductions in `scatter_reductions.rs`, the validation rules in `validation.rs`.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, Rng, Values, Worked, check_against_reference, check_on, check_out_of_range,
    check_scatter_any_update, context, corrupt_one_index, le_bytes, random_reduction_case,
    random_scatter_elements, random_scatter_nd, run_guarded, scatter_nd_page_example,
    scatter_page_example_1, scatter_page_example_2, set_out_of_range, upload, write_indices,
};
use dml_wgsl::{
    ContextOptions, DataType, DuplicateMode, Error, INDEX_TYPES, OperatorDesc, OutOfRange,
    Reduction, ScatterElementsDesc, ScatterNdDesc, TensorDesc, reference,
};

fn run_f32(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<f32> {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let out = context().run_blocking(desc, &slices).expect("run");
    bytemuck::cast_slice(&out).to_vec()
}

fn run_worked(worked: &Worked) -> Vec<f32> {
    run_f32(&worked.case.desc, &worked.case.inputs)
}

#[test]
fn seed_example_1_scatter_1d() {
    // The page's output, with the last of the two updates aimed at element 3 winning.
    let in_order = scatter_page_example_1(DuplicateMode::InOrder);
    assert_eq!(run_worked(&in_order), in_order.output);
    // By default element 3 holds one of its two updates, whole.
    let out = run_worked(&scatter_page_example_1(DuplicateMode::AnyUpdate));
    assert_eq!([out[0], out[1], out[2], out[4]], [8., 6., 2., 4.]);
    assert!(out[3] == 5. || out[3] == 7., "{}", out[3]);
}

#[test]
fn seed_example_2_scatter_2d() {
    let worked = scatter_page_example_2();
    assert_eq!(run_worked(&worked), worked.output);
}

#[test]
fn seed_example_scatter_nd() {
    let worked = scatter_nd_page_example();
    assert_eq!(run_worked(&worked), worked.output);
}

#[test]
fn scatter_nd_page_shape_example_scatters_6x7_slices() {
    // InputTensor.Sizes = [3,4,5,6,7], IndicesTensor.Sizes = [1,1,1,2,3] with
    // IndicesDimensionCount 3: a [1,2] array of 3-tuples; updates [1,1,2,6,7].
    let mut rng = Rng::new(20);
    for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
        let desc = OperatorDesc::ScatterNd(
            ScatterNdDesc::new(
                TensorDesc::new(DataType::Float32, &[3, 4, 5, 6, 7]),
                TensorDesc::new(DataType::Int64, &[1, 1, 1, 2, 3]),
                TensorDesc::new(DataType::Float32, &[1, 1, 2, 6, 7]),
                TensorDesc::new(DataType::Float32, &[3, 4, 5, 6, 7]),
                5, // input_dimension_count
                3, // indices_dimension_count
            )
            .with_duplicates(duplicates),
        );
        let mut inputs = common::random_inputs(&mut rng, &desc);
        let indices = desc.inputs()[1].1.clone();
        let tuples = [[2i128, -1, 0], [0, 3, -5]];
        write_indices(&indices, &mut inputs[1], |c| {
            tuples[c[3] as usize][c[4] as usize]
        });
        check_against_reference(&desc, &inputs);
    }
}

// ---- random differential tests ----

type Generator = fn(&mut Rng, DataType, DataType, bool, DuplicateMode) -> Case;

fn differential(seed: u64, generate: Generator, cases_per_type: usize) {
    let mut rng = Rng::new(seed);
    for data_type in DataType::ALL {
        for case in 0..cases_per_type {
            let index_type = dml_wgsl::INDEX_TYPES[case % 4];
            let unique = case % 3 == 0;
            // Last wins: exact. Any update: one of the updates, never a mix.
            let case = generate(
                &mut rng,
                data_type,
                index_type,
                unique,
                DuplicateMode::InOrder,
            );
            check_against_reference(&case.desc, &case.inputs);
            let case = generate(
                &mut rng,
                data_type,
                index_type,
                unique,
                DuplicateMode::AnyUpdate,
            );
            if unique {
                check_against_reference(&case.desc, &case.inputs);
            } else {
                check_scatter_any_update(&case.desc, &case.inputs);
            }
        }
    }
}

#[test]
fn random_scatter_elements_match_the_reference() {
    differential(21, random_scatter_elements, 8);
}

#[test]
fn random_scatter_nd_match_the_reference() {
    differential(22, random_scatter_nd, 8);
}

#[test]
fn crowded_duplicates_never_tear_narrow_or_wide_elements() {
    // Every update lands on one of a few targets, out of place and in place: heavy
    // contention on the words. Along the rows of a [3, 8] output the colliding updates come
    // from different rows of the updates; along a 1-D output of 8 they are neighbours; rows
    // of 7 go whole (every element of an updates row to one output row), so that runs of
    // neighbours merge words they share with other rows' runs (masks of several elements)
    // beside whole-word stores. 1- and 2-byte elements are set by two atomics on their word
    // and settled by compare-exchange where a duplicate came between (2-byte ones by 16-bit
    // stores where the device has them, so also on a context without): how often threads
    // meet there depends on the device's timing, so each shape runs a few rounds.
    let by_words = common::context_with(ContextOptions::default().with_half_stores(false));
    let mut rng = Rng::new(23);
    for data_type in [
        DataType::UInt8,
        DataType::Int16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for (data_sizes, updates_sizes, whole_rows) in [
            (&[3, 8][..], &[2000, 8][..], false),
            (&[8][..], &[4096][..], false),
            (&[3, 7][..], &[2000, 7][..], true),
        ] {
            let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
                TensorDesc::new(data_type, data_sizes),
                TensorDesc::new(DataType::Int32, updates_sizes),
                TensorDesc::new(data_type, updates_sizes),
                TensorDesc::new(data_type, data_sizes),
                0, // axis
            ));
            let indices = desc.inputs()[1].1.clone();
            let mut crowded_inputs = || {
                let mut inputs = common::random_inputs(&mut rng, &desc);
                let row_targets: Vec<i128> = (0..updates_sizes[0])
                    .map(|_| rng.range(0, data_sizes[0] as u64 - 1) as i128)
                    .collect();
                write_indices(&indices, &mut inputs[1], |at| {
                    if whole_rows {
                        row_targets[at[0] as usize]
                    } else {
                        rng.range(0, data_sizes[0] as u64 - 1) as i128
                    }
                });
                inputs
            };
            for _round in 0..4 {
                let inputs = crowded_inputs();
                let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                for on in [context(), &by_words] {
                    check_on(on, &desc, &slices, Expect::AnyUpdate).expect("compile and record");
                    common::check_in_place_with(on, &desc, &inputs, Expect::AnyUpdate);
                }
            }
            let inputs = crowded_inputs();
            let OperatorDesc::ScatterElements(mut last) = desc else {
                unreachable!()
            };
            last.duplicates = DuplicateMode::InOrder;
            check_against_reference(&OperatorDesc::ScatterElements(last), &inputs);
        }
    }
}

// ---- out-of-range indices ----

fn out_of_range_case(index_type: DataType, bad: i128) -> (OperatorDesc, Vec<Vec<u8>>) {
    let mut rng = Rng::new(24);
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(DataType::Float32, &[6, 5]),
            TensorDesc::new(index_type, &[4, 5]),
            TensorDesc::new(DataType::Float32, &[4, 5]),
            TensorDesc::new(DataType::Float32, &[6, 5]),
            0, // axis
        )
        .with_duplicates(DuplicateMode::InOrder)
        .with_out_of_range(dml_wgsl::OutOfRange::Report),
    );
    let mut inputs = common::random_inputs(&mut rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    write_indices(&indices, &mut inputs[1], |c| match (c[0], c[1]) {
        (2, 3) | (3, 1) => bad,
        _ => (c[0] + c[1]) as i128 % 6,
    });
    (desc, inputs)
}

#[test]
fn out_of_range_indices_are_skipped_and_reported_with_position_value_and_bound() {
    for &index_type in dml_wgsl::INDEX_TYPES {
        let (desc, inputs) = out_of_range_case(index_type, 6);
        let e = check_out_of_range(&desc, &inputs);
        assert_eq!(
            e,
            Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![2, 3],
                value: 6,
                bound: 6
            }
        );
    }
}

#[test]
fn negative_indices_past_the_start_are_out_of_range() {
    for index_type in [DataType::Int32, DataType::Int64] {
        let (desc, inputs) = out_of_range_case(index_type, -7);
        let e = check_out_of_range(&desc, &inputs);
        assert!(
            matches!(
                e,
                Error::IndexOutOfRange {
                    value: -7,
                    bound: 6,
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn unsigned_indices_never_count_from_the_end() {
    let (desc, inputs) = out_of_range_case(DataType::UInt32, u32::MAX as i128);
    let e = check_out_of_range(&desc, &inputs);
    assert!(
        matches!(
            e,
            Error::IndexOutOfRange {
                value: 4294967295,
                ..
            }
        ),
        "{e}"
    );
    let (desc, inputs) = out_of_range_case(DataType::UInt64, u64::MAX as i64 as i128);
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let e = context().run_blocking(&desc, &slices).unwrap_err();
    assert!(
        matches!(
            e,
            Error::IndexOutOfRange {
                value: 18446744073709551615,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn sixty_four_bit_indices_are_never_truncated_to_their_low_word() {
    // 2^32 + 1 has low word 1, in range; the whole value is not.
    for index_type in [DataType::Int64, DataType::UInt64] {
        let (desc, inputs) = out_of_range_case(index_type, (1i128 << 32) + 1);
        let e = check_out_of_range(&desc, &inputs);
        assert!(
            matches!(
                e,
                Error::IndexOutOfRange {
                    value: 4294967297,
                    ..
                }
            ),
            "{e}"
        );
    }
    let (desc, inputs) = out_of_range_case(DataType::Int64, -(1i128 << 32) + 2);
    check_out_of_range(&desc, &inputs);
}

#[test]
fn out_of_range_tuples_in_scatter_nd_name_the_component() {
    let mut rng = Rng::new(25);
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(DataType::UInt16, &[4, 5, 6]),
            TensorDesc::new(DataType::Int32, &[3, 2]),
            TensorDesc::new(DataType::UInt16, &[3, 6]),
            TensorDesc::new(DataType::UInt16, &[4, 5, 6]),
            3, // input_dimension_count
            2, // indices_dimension_count
        )
        .with_out_of_range(dml_wgsl::OutOfRange::Report),
    );
    let mut inputs = common::random_inputs(&mut rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    let tuples = [[1i128, 2], [3, 5], [0, -6]];
    write_indices(&indices, &mut inputs[1], |c| {
        tuples[c[0] as usize][c[1] as usize]
    });
    let e = check_out_of_range(&desc, &inputs);
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![1, 1],
            value: 5,
            bound: 5
        }
    );
}

/// Updates may crop the leading 1s of their meaningful sizes, as gather outputs do.
#[test]
fn scatter_nd_updates_that_crop_leading_ones_scatter_the_right_rows() {
    let input: Vec<f32> = (1..=12).map(|v| v as f32).collect();
    for updates in [&[4][..], &[1, 4], &[1, 1, 4]] {
        let desc = OperatorDesc::ScatterNd(ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[3, 4]),
            TensorDesc::new(DataType::UInt32, &[1, 1]),
            TensorDesc::new(DataType::Float32, updates),
            TensorDesc::new(DataType::Float32, &[3, 4]),
            2, // input_dimension_count
            2, // indices_dimension_count
        ));
        let inputs = vec![
            le_bytes::<f32>(&input),
            le_bytes::<u32>(&[1]),
            le_bytes::<f32>(&[-1., -2., -3., -4.]),
        ];
        assert_eq!(
            run_f32(&desc, &inputs),
            [1., 2., 3., 4., -1., -2., -3., -4., 9., 10., 11., 12.],
            "{updates:?}"
        );
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn record_users_read_the_same_status() {
    let (desc, inputs) = out_of_range_case(DataType::Int64, 100);
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let operator = context().compile(&desc).unwrap();
    run_guarded(&desc, &slices);
    // run_guarded compiled its own operator; this one has not run yet.
    assert_eq!(operator.check_status_blocking(), Ok(()));
    let e = reference::run(&desc, &slices).unwrap_err();
    let device = context().device();
    let (buffers, output) = upload(context(), &operator, &slices);
    let bindings: Vec<_> = buffers
        .iter()
        .map(|b| b.as_entire_buffer_binding())
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, &bindings, output.as_entire_buffer_binding())
        .unwrap();
    context().queue().submit([encoder.finish()]);
    assert_eq!(operator.check_status_blocking(), Err(e));
    // The next execution reports only what it met.
    let clean = {
        let mut v = inputs.clone();
        write_indices(desc.inputs()[1].1, &mut v[1], |_| 1);
        v
    };
    let clean_buffer = {
        use wgpu::util::DeviceExt;
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &clean[1],
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    let bindings = [
        bindings[0].clone(),
        clean_buffer.as_entire_buffer_binding(),
        bindings[2].clone(),
    ];
    operator
        .record(&mut encoder, &bindings, output.as_entire_buffer_binding())
        .unwrap();
    context().queue().submit([encoder.finish()]);
    assert_eq!(operator.check_status_blocking(), Ok(()));
}

#[test]
fn clamped_scatter_indices_land_on_the_nearest_end_and_report_nothing() {
    let mut rng = Rng::new(77);
    for data_type in [DataType::Int8, DataType::Float32, DataType::UInt64] {
        for (k, &index_type) in INDEX_TYPES.iter().enumerate() {
            for (reduction, duplicates) in [
                (Reduction::None, DuplicateMode::InOrder),
                (Reduction::Add, DuplicateMode::InOrder),
                (Reduction::Max, DuplicateMode::AnyUpdate),
            ] {
                let mut case = random_reduction_case(
                    &mut rng,
                    k % 2 == 0,
                    data_type,
                    index_type,
                    reduction,
                    duplicates,
                    Values::Numbers,
                    false,
                );
                for _ in 0..3 {
                    corrupt_one_index(&mut rng, &mut case);
                }
                set_out_of_range(&mut case.desc, OutOfRange::Clamp);
                check_against_reference(&case.desc, &case.inputs);
            }
        }
    }
    // By hand: indices -100, 9 and -2 on 5 elements land on 0, 4 and 3.
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[5]),
        TensorDesc::new(DataType::Int64, &[3]),
        TensorDesc::new(DataType::Float32, &[3]),
        TensorDesc::new(DataType::Float32, &[5]),
        0,
    )
    .with_out_of_range(OutOfRange::Clamp)
    .into();
    let out: Vec<f32> = context()
        .run_typed_blocking(
            &desc,
            &[
                (&[1f32, 2., 3., 4., 5.]).into(),
                (&[-100i64, 9, -2]).into(),
                (&[10f32, 20., 30.]).into(),
            ],
        )
        .unwrap();
    assert_eq!(out, [10., 2., 3., 30., 20.]);
}

// ---- in place ----

fn in_place_case(
    rng: &mut Rng,
    data_type: DataType,
    reduction: Reduction,
    duplicates: DuplicateMode,
) -> (OperatorDesc, Vec<Vec<u8>>) {
    // Unique targets: exact in either mode.
    let Case { desc, mut inputs } = random_reduction_case(
        rng,
        false,
        data_type,
        DataType::Int32,
        reduction,
        duplicates,
        Values::Numbers,
        true,
    );
    let OperatorDesc::ScatterElements(mut d) = desc else {
        unreachable!()
    };
    // The output's layout (never broadcast) for both.
    d.input = d.output.clone();
    inputs[0] = rng.bytes(d.input.size_in_bytes() as usize);
    (OperatorDesc::ScatterElements(d), inputs)
}

#[test]
fn in_place_scatter_updates_the_input_buffer() {
    let mut rng = Rng::new(26);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Int64,
    ]
    .into_iter()
    .flat_map(|t| {
        [
            (t, Reduction::None, DuplicateMode::AnyUpdate),
            (t, Reduction::Add, DuplicateMode::InOrder),
            (t, Reduction::Max, DuplicateMode::AnyUpdate),
        ]
    }) {
        let (data_type, reduction, duplicates) = data_type;
        let (desc, inputs) = in_place_case(&mut rng, data_type, reduction, duplicates);
        common::check_in_place(&desc, &inputs);
    }
}

#[test]
fn in_place_needs_the_same_offset_and_layout() {
    let mut rng = Rng::new(27);
    let device = context().device();
    let alignment = device.limits().min_storage_buffer_offset_alignment as u64;
    let (desc, inputs) = in_place_case(
        &mut rng,
        DataType::Float32,
        Reduction::None,
        DuplicateMode::AnyUpdate,
    );
    let operator = context().compile(&desc).unwrap();
    let bytes = inputs[0].len() as u64;
    let shared = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes * 2 + alignment * 2,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let other = |size: usize| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: size as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        })
    };
    let (indices, updates) = (other(inputs[1].len()), other(inputs[2].len()));
    let elsewhere = (bytes / alignment + 1) * alignment;
    let mut encoder = device.create_command_encoder(&Default::default());
    let e = operator
        .record(
            &mut encoder,
            &[
                wgpu::BufferBinding {
                    buffer: &shared,
                    offset: 0,
                    size: None,
                },
                indices.as_entire_buffer_binding(),
                updates.as_entire_buffer_binding(),
            ],
            wgpu::BufferBinding {
                buffer: &shared,
                offset: elsewhere,
                size: None,
            },
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::AliasedBindings {
                tensor: "input",
                ..
            }
        ),
        "{e}"
    );
    // Updates may never share the output's buffer.
    let input = other(inputs[0].len());
    let e = operator
        .record(
            &mut encoder,
            &[
                input.as_entire_buffer_binding(),
                indices.as_entire_buffer_binding(),
                shared.as_entire_buffer_binding(),
            ],
            shared.as_entire_buffer_binding(),
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::AliasedBindings {
                tensor: "updates",
                ..
            }
        ),
        "{e}"
    );
    // A padded output layout differs from the input's: no in place.
    let OperatorDesc::ScatterElements(mut d) = desc else {
        unreachable!()
    };
    d.output = d.output.with_total_size(d.input.size_in_bytes() + 4);
    let padded = context()
        .compile(&OperatorDesc::ScatterElements(d))
        .unwrap();
    let e = padded
        .record(
            &mut encoder,
            &[
                shared.as_entire_buffer_binding(),
                indices.as_entire_buffer_binding(),
                updates.as_entire_buffer_binding(),
            ],
            shared.as_entire_buffer_binding(),
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::AliasedBindings {
                tensor: "input",
                ..
            }
        ),
        "{e}"
    );
}
