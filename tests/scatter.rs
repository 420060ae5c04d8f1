//! ScatterElements and ScatterND on the GPU: the DirectML pages' examples, random
//! differential tests in both duplicate modes, out-of-range indices (reported or clamped),
//! in-place operation, and the kernels' row and block paths. Reductions are in
//! `scatter_reductions.rs`, the validation rules in `validation.rs`.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, Rng, Values, Worked, check_against_reference, check_out_of_range,
    check_scatter_any_update, context, corrupt_one_index, le_bytes, random_index,
    random_reduction_case, random_scatter_elements, random_scatter_nd, run_guarded,
    scatter_nd_page_example, scatter_page_example_1, scatter_page_example_2, set_out_of_range,
    upload, write_indices,
};
use dml_wgsl::{
    DataType, DuplicateMode, Error, INDEX_TYPES, OperatorDesc, OutOfRange, Reduction,
    ScatterElementsDesc, ScatterNdDesc, TensorDesc, reference,
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
    // Every update of a long row lands on one of 3 targets: heavy contention on the words.
    let mut rng = Rng::new(23);
    for data_type in [
        DataType::UInt8,
        DataType::Int16,
        DataType::Float32,
        DataType::Float64,
    ] {
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[3, 8]),
            TensorDesc::new(DataType::Int32, &[2000, 8]),
            TensorDesc::new(data_type, &[2000, 8]),
            TensorDesc::new(data_type, &[3, 8]),
            0, // axis
        ));
        let mut inputs = common::random_inputs(&mut rng, &desc);
        let indices = desc.inputs()[1].1.clone();
        write_indices(&indices, &mut inputs[1], |_| rng.range(0, 2) as i128);
        check_scatter_any_update(&desc, &inputs);
        let OperatorDesc::ScatterElements(mut last) = desc else {
            unreachable!()
        };
        last.duplicates = DuplicateMode::InOrder;
        check_against_reference(&OperatorDesc::ScatterElements(last), &inputs);
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

// ---- narrow rows, column blocks and long rows ----

#[test]
fn narrow_rows_scatter_whole_words_and_fall_back_per_element() {
    // Packed rows of 1- and 2-byte elements: each thread takes a word's worth of neighbours.
    let mut rng = Rng::new(28);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::UInt16,
    ] {
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[16, 24]),
            TensorDesc::new(DataType::Int64, &[9, 24]),
            TensorDesc::new(data_type, &[9, 24]),
            TensorDesc::new(data_type, &[16, 24]),
            0, // axis
        ));
        let indices = desc.inputs()[1].1.clone();
        // Whole rows to distinct targets (whole-word stores).
        let mut rows: Vec<i128> = (0..16).collect();
        rng.shuffle(&mut rows);
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize]);
        check_against_reference(&desc, &inputs);
        // Every element its own row, duplicates included (per-element fallback).
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |_| {
            random_index(&mut rng, 16, DataType::Int64)
        });
        check_scatter_any_update(&desc, &inputs);
        // An out-of-range index inside a word's worth: the rest of that word still lands.
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |c| {
            if c == [4, 5] { 16 } else { rows[c[0] as usize] }
        });
        let e = check_out_of_range(&desc, &inputs);
        assert!(
            matches!(
                e,
                Error::IndexOutOfRange {
                    value: 16,
                    bound: 16,
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn odd_narrow_rows_scatter_in_runs_stitched_into_whole_words() {
    // Rows of 1- and 2-byte elements that are not whole words: a thread's word of neighbours
    // lands at any offset within the output's words, and neighbouring threads' runs meet
    // inside words (rows long enough to span several workgroups, and rows of a few elements).
    let mut rng = Rng::new(29);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::UInt16,
    ] {
        for row in [1, 3, 5, 7, 1027, 2049] {
            let (n, k) = (12, 7);
            let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
                TensorDesc::new(data_type, &[n, row]),
                TensorDesc::new(DataType::Int64, &[k, row]),
                TensorDesc::new(data_type, &[k, row]),
                TensorDesc::new(data_type, &[n, row]),
                0,
            ));
            let indices = desc.inputs()[1].1.clone();
            // Whole rows to distinct targets: every run offset within a word.
            let mut rows: Vec<i128> = (0..n as i128).collect();
            rng.shuffle(&mut rows);
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize]);
            check_against_reference(&desc, &inputs);
            // Whole rows, some onto the same target (each element takes one of its updates).
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize % 3]);
            check_scatter_any_update(&desc, &inputs);
            // Every element its own row, duplicates included (no runs).
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |_| {
                random_index(&mut rng, n, DataType::Int64)
            });
            check_scatter_any_update(&desc, &inputs);
            // An out-of-range index inside a run: the rest of the row still lands.
            let bad = [k / 2, row / 2];
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| {
                if c == bad {
                    n as i128
                } else {
                    rows[c[0] as usize]
                }
            });
            let e = check_out_of_range(&desc, &inputs);
            assert!(
                matches!(
                    e,
                    Error::IndexOutOfRange {
                        value: 12,
                        bound: 12,
                        ..
                    }
                ),
                "{e}"
            );
        }
    }
}

#[test]
fn scattering_along_an_outer_axis_in_column_blocks_matches_the_reference() {
    // Rows of 256 elements split into blocks of 32 thread groups: the tiled walk.
    let mut rng = Rng::new(29);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Int64,
    ] {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let desc = OperatorDesc::ScatterElements(
                ScatterElementsDesc::new(
                    TensorDesc::new(data_type, &[40, 256]),
                    TensorDesc::new(DataType::Int64, &[37, 256]),
                    TensorDesc::new(data_type, &[37, 256]),
                    TensorDesc::new(data_type, &[40, 256]),
                    0, // axis
                )
                .with_duplicates(duplicates),
            );
            // Diagonal targets (unique), then one bad index late in row-major order and
            // one earlier in a later column block: the earlier row-major one is reported.
            let mut inputs = common::random_inputs(&mut rng, &desc);
            let p: Vec<i128> = {
                let mut p: Vec<i128> = (0..40).collect();
                rng.shuffle(&mut p);
                p
            };
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
                (p[c[0] as usize] + c[1] as i128) % 40
            });
            check_against_reference(&desc, &inputs);
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
                (30, 3) => 40,
                (5, 200) => -41,
                _ => (p[c[0] as usize] + c[1] as i128) % 40,
            });
            let e = check_out_of_range(&desc, &inputs);
            assert_eq!(
                e,
                Error::IndexOutOfRange {
                    tensor: "indices",
                    position: vec![5, 200],
                    value: -41,
                    bound: 40
                }
            );
        }
    }
}

#[test]
fn long_rows_scatter_in_coalesced_blocks() {
    // Rows of 2048 4-byte elements: whole blocks of a workgroup's units.
    let mut rng = Rng::new(30);
    for data_type in [DataType::Float32, DataType::Int32] {
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[12, 2048]),
            TensorDesc::new(DataType::Int32, &[9, 2048]),
            TensorDesc::new(data_type, &[9, 2048]),
            TensorDesc::new(data_type, &[12, 2048]),
            0, // axis
        ));
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
            (c[0] as i128 * 5 + c[1] as i128) % 12 - 6
        });
        check_against_reference(&desc, &inputs);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
            (7, 3) => 12,
            (2, 1500) => -13,
            _ => (c[0] as i128 * 5 + c[1] as i128) % 12,
        });
        let e = check_out_of_range(&desc, &inputs);
        assert_eq!(
            e,
            Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![2, 1500],
                value: -13,
                bound: 12
            }
        );
    }
}

// ---- a workgroup a row, in place ----

#[test]
fn narrow_scatters_along_an_inner_axis_in_place_take_a_workgroup_a_row_and_keep_the_other_units() {
    // In place, 1- and 2-byte units along an inner axis take a workgroup a row
    // (`scatter_rows_in_place`) where a row has at least an eighth of its length in updates:
    // the row read from the output, scattered into and written back, its end words merged.
    // Every target at most once a row (a random permutation's first columns, negative half
    // the time where the index type is signed), so the result is exact; rows that are and
    // are not whole words, updates covering every column or an eighth and more of the row
    // (the row kernel) or fewer (the plain pass), outer rows the updates do not reach, rank
    // 3, rows past 4096 units. Workgroups of 1024 threads where the
    // adapter allows, and of 256; the copy method does not matter in place.
    let contexts = [
        common::limited_context(|_| {}),
        common::limited_context(|limits| {
            limits.max_compute_invocations_per_workgroup = 256;
            limits.max_compute_workgroup_size_x = 256;
        }),
    ];
    contexts[1].set_copy_method(dml_wgsl::CopyMethod::Kernel);
    let mut rng = Rng::new(62);
    let shapes: [(&[u32], &[u32], u32); 9] = [
        (&[7, 703], &[7, 60], 1),
        (&[9, 700], &[9, 700], 1),
        // Past 4096 units: workgroup memory in steps of 1024 units.
        (&[3, 4099], &[3, 3000], 1),
        (&[9, 701], &[9, 701], 1),
        (&[7, 702], &[5, 650], 1),
        (&[7, 703], &[7, 120], 1),
        (&[8, 1031], &[8, 1000], 1),
        (&[5, 6, 520], &[5, 4, 300], 2),
        (&[3, 4, 1027], &[3, 4, 1027], 2),
    ];
    for types in [
        (DataType::Int8, DataType::Int64),
        (DataType::UInt8, DataType::Int32),
        (DataType::Float16, DataType::Int64),
        (DataType::Int16, DataType::UInt32),
    ] {
        for on in &contexts {
            for &(output, updates, axis) in &shapes {
                let case = distinct_inner_axis_case(&mut rng, types, output, updates, axis);
                common::check_in_place_with(on, &case.desc, &case.inputs);
            }
        }
    }
}

/// A ScatterElements along `axis` whose indices are, along each line of `axis`, the first
/// columns of a random permutation (negative half the time where the index type is signed):
/// no two updates aim at one element.
fn distinct_inner_axis_case(
    rng: &mut Rng,
    types: (DataType, DataType),
    output: &[u32],
    updates: &[u32],
    axis: u32,
) -> Case {
    let mut case = inner_axis_case(rng, types, output, updates, axis);
    let indices = case.desc.inputs()[1].1.clone();
    let bound = output[axis as usize];
    let mut lines = std::collections::HashMap::new();
    write_indices(&indices, &mut case.inputs[1], |c| {
        let mut line = c.to_vec();
        let column = std::mem::take(&mut line[axis as usize]);
        let permutation = lines.entry(line).or_insert_with(|| {
            let mut columns: Vec<u32> = (0..bound).collect();
            rng.shuffle(&mut columns);
            columns
        });
        let index = permutation[column as usize] as i128;
        if types.1.is_signed() && rng.chance(50) {
            index - bound as i128
        } else {
            index
        }
    });
    case
}

// ---- copying as it scatters ----

/// A ScatterElements of random in-range indices (duplicates included) along `axis`.
fn inner_axis_case(
    rng: &mut Rng,
    (data_type, index_type): (DataType, DataType),
    output: &[u32],
    updates: &[u32],
    axis: u32,
) -> Case {
    let tensor = TensorDesc::new(data_type, output);
    let indices = TensorDesc::new(index_type, updates);
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
        tensor.clone(),
        indices.clone(),
        TensorDesc::new(data_type, updates),
        tensor,
        axis,
    ));
    let mut inputs = common::random_inputs(rng, &desc);
    let bound = output[axis as usize];
    write_indices(&indices, &mut inputs[1], |_| {
        random_index(rng, bound, index_type)
    });
    Case { desc, inputs }
}

#[test]
fn scatters_along_an_inner_axis_copy_each_row_as_they_scatter() {
    // On a context that copies by kernel, out of place: a workgroup a row copies it and
    // scatters into it (`scatter_copy_rows`). Rows of 1 to 4 workgroups, the outer
    // dimensions merged (rank 2) or not (rank 3), outer rows the updates do not reach (only
    // copied), both index widths with negative indices, an out-of-range index reported and
    // clamped; Float16 takes the separate copy and must agree.
    // Workgroups of 1024 threads where the adapter allows, and of 256.
    let contexts = [
        common::limited_context(|_| {}),
        common::limited_context(|limits| {
            limits.max_compute_invocations_per_workgroup = 256;
            limits.max_compute_workgroup_size_x = 256;
        }),
    ];
    let mut rng = Rng::new(61);
    let shapes: [(&[u32], &[u32], u32); 5] = [
        (&[37, 700], &[37, 350], 1),
        (&[40, 600], &[25, 300], 1),
        (&[9, 40, 30], &[9, 40, 30], 1),
        (&[5, 6, 520], &[5, 4, 300], 2),
        (&[3, 4, 1024], &[3, 4, 1024], 2),
    ];
    for types in [
        (DataType::Float32, DataType::Int64),
        (DataType::Int32, DataType::Int32),
        (DataType::UInt32, DataType::UInt64),
        (DataType::Float16, DataType::Int64),
    ] {
        for fused in &contexts {
            fused.set_copy_method(dml_wgsl::CopyMethod::Kernel);
            for &(output, updates, axis) in &shapes {
                let case = inner_axis_case(&mut rng, types, output, updates, axis);
                let slices = case.slices();
                common::check_on(fused, &case.desc, &slices, Expect::AnyUpdate)
                    .expect("compile and record");
            }
            let mut case = inner_axis_case(&mut rng, types, &[37, 700], &[37, 350], 1);
            corrupt_one_index(&mut rng, &mut case);
            common::check_on(fused, &case.desc, &case.slices(), Expect::AnyUpdate)
                .expect("compile and record");
            set_out_of_range(&mut case.desc, OutOfRange::Clamp);
            common::check_on(fused, &case.desc, &case.slices(), Expect::AnyUpdate)
                .expect("compile and record");
        }
    }
}
