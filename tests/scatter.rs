//! ScatterElements and ScatterND on the GPU: the DirectML pages' examples, random
//! differential tests in both duplicate modes, out-of-range indices, in-place operation,
//! and every validation rule.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, REDUCTIONS, Rng, SENTINEL, Values, Worked, check_against_reference,
    check_out_of_range, check_scatter_any_update, context, corrupt_one_index, guard_size, le_bytes,
    random_index, random_reduction_case, random_scatter_elements, random_scatter_nd, run_guarded,
    scatter_nd_page_example, scatter_page_example_1, scatter_page_example_2, set_out_of_range,
    write_indices,
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
        let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
            input: TensorDesc::new(DataType::Float32, &[3, 4, 5, 6, 7]),
            indices: TensorDesc::new(DataType::Int64, &[1, 1, 1, 2, 3]),
            updates: TensorDesc::new(DataType::Float32, &[1, 1, 2, 6, 7]),
            output: TensorDesc::new(DataType::Float32, &[3, 4, 5, 6, 7]),
            input_dimension_count: 5,
            indices_dimension_count: 3,
            duplicates,
            out_of_range: dml_wgsl::OutOfRange::Report,
            reduction: dml_wgsl::Reduction::None,
        });
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
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(data_type, &[3, 8]),
            indices: TensorDesc::new(DataType::Int32, &[2000, 8]),
            updates: TensorDesc::new(data_type, &[2000, 8]),
            output: TensorDesc::new(data_type, &[3, 8]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
            out_of_range: dml_wgsl::OutOfRange::Report,
            reduction: dml_wgsl::Reduction::None,
        });
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
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
        input: TensorDesc::new(DataType::Float32, &[6, 5]),
        indices: TensorDesc::new(index_type, &[4, 5]),
        updates: TensorDesc::new(DataType::Float32, &[4, 5]),
        output: TensorDesc::new(DataType::Float32, &[6, 5]),
        axis: 0,
        duplicates: DuplicateMode::InOrder,
        out_of_range: dml_wgsl::OutOfRange::Report,
        reduction: dml_wgsl::Reduction::None,
    });
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
    let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
        input: TensorDesc::new(DataType::UInt16, &[4, 5, 6]),
        indices: TensorDesc::new(DataType::Int32, &[3, 2]),
        updates: TensorDesc::new(DataType::UInt16, &[3, 6]),
        output: TensorDesc::new(DataType::UInt16, &[4, 5, 6]),
        input_dimension_count: 3,
        indices_dimension_count: 2,
        duplicates: DuplicateMode::AnyUpdate,
        out_of_range: dml_wgsl::OutOfRange::Report,
        reduction: dml_wgsl::Reduction::None,
    });
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
        let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
            input: TensorDesc::new(DataType::Float32, &[3, 4]),
            indices: TensorDesc::new(DataType::UInt32, &[1, 1]),
            updates: TensorDesc::new(DataType::Float32, updates),
            output: TensorDesc::new(DataType::Float32, &[3, 4]),
            input_dimension_count: 2,
            indices_dimension_count: 2,
            duplicates: DuplicateMode::AnyUpdate,
            out_of_range: dml_wgsl::OutOfRange::Report,
            reduction: dml_wgsl::Reduction::None,
        });
        let inputs = vec![
            le_bytes(&input),
            le_bytes(&[1]),
            le_bytes(&[-1., -2., -3., -4.]),
        ];
        assert_eq!(
            run_f32(&desc, &inputs),
            [1., 2., 3., 4., -1., -2., -3., -4., 9., 10., 11., 12.],
            "{updates:?}"
        );
        check_against_reference(&desc, &inputs);
    }
}

/// Regression (fuzzing): sizes whose element count passes 2^64 wrapped to 0, passed
/// validation, and made `compile` divide by zero.
#[test]
fn scatter_nd_with_an_overflowing_element_count_is_an_error_not_a_panic() {
    let huge = [65536u32; 4];
    let desc = OperatorDesc::ScatterNd(ScatterNdDesc {
        input: TensorDesc::new(DataType::Float32, &[4]),
        indices: TensorDesc::new(DataType::UInt32, &[65536, 65536, 65536, 65536, 1])
            .with_strides(&[0; 5]),
        updates: TensorDesc::new(DataType::Float32, &huge).with_strides(&[0; 4]),
        output: TensorDesc::new(DataType::Float32, &[4]),
        input_dimension_count: 1,
        indices_dimension_count: 5,
        duplicates: DuplicateMode::AnyUpdate,
        out_of_range: dml_wgsl::OutOfRange::Report,
        reduction: dml_wgsl::Reduction::None,
    });
    let expected = Error::TooManyElements {
        tensor: "indices",
        elements: u64::MAX,
    };
    assert_eq!(desc.validate(), Err(expected.clone()));
    assert_eq!(context().compile(&desc).err(), Some(expected.clone()));
    assert_eq!(reference::run(&desc, &[&[], &[], &[]]), Err(expected));
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
    let buffers: Vec<wgpu::Buffer> = slices
        .iter()
        .map(|data| {
            use wgpu::util::DeviceExt;
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: data,
                usage: wgpu::BufferUsages::STORAGE,
            })
        })
        .collect();
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: operator.output_size(),
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
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
    // The next recording resets the status.
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
    use wgpu::util::DeviceExt;
    let mut rng = Rng::new(26);
    let device = context().device();
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
        let expected = reference::run(
            &desc,
            &inputs.iter().map(|v| v.as_slice()).collect::<Vec<_>>(),
        )
        .unwrap();
        let operator = context().compile(&desc).unwrap();
        let guard = guard_size() as usize;
        let mut data = vec![SENTINEL; guard * 2 + inputs[0].len()];
        data[guard..guard + inputs[0].len()].copy_from_slice(&inputs[0]);
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let tensor = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &data,
            usage,
        });
        let others: Vec<wgpu::Buffer> = inputs[1..]
            .iter()
            .map(|d| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: None,
                    contents: d,
                    usage,
                })
            })
            .collect();
        let binding = wgpu::BufferBinding {
            buffer: &tensor,
            offset: guard as u64,
            size: None,
        };
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: data.len() as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        operator
            .record(
                &mut encoder,
                &[
                    binding.clone(),
                    others[0].as_entire_buffer_binding(),
                    others[1].as_entire_buffer_binding(),
                ],
                binding,
            )
            .unwrap();
        encoder.copy_buffer_to_buffer(&tensor, 0, &readback, 0, data.len() as u64);
        context().queue().submit([encoder.finish()]);
        let got = common::read_buffer(&readback);
        assert!(
            got[..guard]
                .iter()
                .chain(&got[guard + expected.len()..])
                .all(|&b| b == SENTINEL)
        );
        // Bytes no element covers keep the input's contents (the reference zeroes them).
        let covered = common::covered_bytes(desc.output());
        for (i, &byte) in got[guard..guard + expected.len()].iter().enumerate() {
            let want = if covered[i] {
                expected[i]
            } else {
                inputs[0][i]
            };
            assert_eq!(byte, want, "byte {i} of {desc:?}");
        }
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

// ---- validation: one test per rule ----

fn valid_elements() -> ScatterElementsDesc {
    ScatterElementsDesc {
        input: TensorDesc::new(DataType::Float16, &[4, 5]),
        indices: TensorDesc::new(DataType::Int64, &[2, 5]),
        updates: TensorDesc::new(DataType::Float16, &[2, 5]),
        output: TensorDesc::new(DataType::Float16, &[4, 5]),
        axis: 0,
        duplicates: DuplicateMode::AnyUpdate,
        out_of_range: dml_wgsl::OutOfRange::Report,
        reduction: dml_wgsl::Reduction::None,
    }
}

fn valid_nd() -> ScatterNdDesc {
    ScatterNdDesc {
        input: TensorDesc::new(DataType::Int8, &[1, 4, 5, 6]),
        indices: TensorDesc::new(DataType::UInt32, &[1, 1, 3, 2]),
        updates: TensorDesc::new(DataType::Int8, &[1, 1, 3, 6]),
        output: TensorDesc::new(DataType::Int8, &[1, 4, 5, 6]),
        input_dimension_count: 3,
        indices_dimension_count: 2,
        duplicates: DuplicateMode::AnyUpdate,
        out_of_range: dml_wgsl::OutOfRange::Report,
        reduction: dml_wgsl::Reduction::None,
    }
}

fn elements_error(change: impl FnOnce(&mut ScatterElementsDesc)) -> Error {
    let mut d = valid_elements();
    change(&mut d);
    let desc = OperatorDesc::ScatterElements(d);
    let e = desc.validate().expect_err("the change breaks a rule");
    assert_eq!(context().compile(&desc).expect_err("compile"), e);
    e
}

fn nd_error(change: impl FnOnce(&mut ScatterNdDesc)) -> Error {
    let mut d = valid_nd();
    change(&mut d);
    let desc = OperatorDesc::ScatterNd(d);
    let e = desc.validate().expect_err("the change breaks a rule");
    assert_eq!(context().compile(&desc).expect_err("compile"), e);
    e
}

#[test]
fn the_valid_scatter_descriptors_pass() {
    OperatorDesc::ScatterElements(valid_elements())
        .validate()
        .unwrap();
    OperatorDesc::ScatterNd(valid_nd()).validate().unwrap();
}

#[test]
fn scatter_indices_must_be_32_or_64_bit_integers() {
    let e = elements_error(|d| d.indices.data_type = DataType::Float32);
    assert!(
        matches!(
            e,
            Error::UnsupportedDataType {
                tensor: "indices",
                actual: DataType::Float32,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.indices.data_type = DataType::Int16);
    assert!(
        matches!(
            e,
            Error::UnsupportedDataType {
                tensor: "indices",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_updates_and_output_share_the_input_data_type() {
    let e = elements_error(|d| d.updates.data_type = DataType::UInt16);
    assert!(
        matches!(
            e,
            Error::DataTypeMismatch {
                tensor: "updates",
                ..
            }
        ),
        "{e}"
    );
    let e = elements_error(|d| d.output.data_type = DataType::Int16);
    assert!(
        matches!(
            e,
            Error::DataTypeMismatch {
                tensor: "output",
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.updates.data_type = DataType::UInt8);
    assert!(
        matches!(
            e,
            Error::DataTypeMismatch {
                tensor: "updates",
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.output.data_type = DataType::UInt8);
    assert!(
        matches!(
            e,
            Error::DataTypeMismatch {
                tensor: "output",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_elements_tensors_share_one_rank() {
    let e = elements_error(|d| d.indices = TensorDesc::new(DataType::Int64, &[1, 2, 5]));
    assert!(
        matches!(
            e,
            Error::RankMismatch {
                tensor: "indices",
                actual: 3,
                expected: 2,
                ..
            }
        ),
        "{e}"
    );
    let e = elements_error(|d| d.updates = TensorDesc::new(DataType::Float16, &[10]));
    assert!(
        matches!(
            e,
            Error::RankMismatch {
                tensor: "updates",
                ..
            }
        ),
        "{e}"
    );
    let e = elements_error(|d| d.output = TensorDesc::new(DataType::Float16, &[20]));
    assert!(
        matches!(
            e,
            Error::RankMismatch {
                tensor: "output",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_output_sizes_equal_the_input_sizes() {
    let e = elements_error(|d| d.output.sizes = vec![4, 6]);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "output",
                dimension: 1,
                actual: 6,
                expected: 5,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.output.sizes = vec![1, 4, 5, 7]);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "output",
                dimension: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_elements_updates_sizes_equal_the_indices_sizes() {
    let e = elements_error(|d| d.updates.sizes = vec![3, 5]);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "updates",
                dimension: 0,
                actual: 3,
                expected: 2,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_elements_axis_is_below_the_rank() {
    let e = elements_error(|d| d.axis = 2);
    assert_eq!(e, Error::AxisOutOfRange { axis: 2, rank: 2 });
}

#[test]
fn scatter_elements_indices_fit_the_input_outside_the_axis() {
    let e = elements_error(|d| {
        d.indices.sizes = vec![2, 6];
        d.updates.sizes = vec![2, 6];
    });
    assert!(
        matches!(
            e,
            Error::SizeTooLarge {
                tensor: "indices",
                dimension: 1,
                actual: 6,
                limit: 5,
                ..
            }
        ),
        "{e}"
    );
    // Along the axis the indices may be longer than the input (duplicates).
    let mut d = valid_elements();
    d.indices.sizes = vec![9, 5];
    d.updates.sizes = vec![9, 5];
    OperatorDesc::ScatterElements(d).validate().unwrap();
}

#[test]
fn scatter_nd_dimension_counts_lie_between_1_and_the_rank() {
    let e = nd_error(|d| d.input_dimension_count = 0);
    assert!(
        matches!(
            e,
            Error::DimensionCount {
                field: "input_dimension_count",
                value: 0,
                max: 4,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.input_dimension_count = 5);
    assert!(
        matches!(
            e,
            Error::DimensionCount {
                field: "input_dimension_count",
                value: 5,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.indices_dimension_count = 0);
    assert!(
        matches!(
            e,
            Error::DimensionCount {
                field: "indices_dimension_count",
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.indices_dimension_count = 5);
    assert!(
        matches!(
            e,
            Error::DimensionCount {
                field: "indices_dimension_count",
                value: 5,
                max: 4,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_nd_dimensions_before_the_counts_are_size_1() {
    let e = nd_error(|d| {
        d.input.sizes[0] = 2;
        d.output.sizes[0] = 2;
    });
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "input",
                dimension: 0,
                actual: 2,
                expected: 1,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.indices.sizes[1] = 2);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "indices",
                dimension: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_nd_tuple_size_is_at_most_the_input_dimension_count() {
    let e = nd_error(|d| {
        d.input_dimension_count = 1;
        d.indices.sizes[3] = 2;
    });
    // With input_dimension_count 1 the leading-1 rule fires first; test the tuple rule alone.
    assert!(
        matches!(e, Error::SizeMismatch { .. } | Error::TupleSize { .. }),
        "{e}"
    );
    let e = nd_error(|d| {
        d.input = TensorDesc::new(DataType::Int8, &[1, 1, 1, 6]);
        d.output = d.input.clone();
        d.input_dimension_count = 1;
    });
    assert_eq!(e, Error::TupleSize { value: 2, max: 1 });
}

#[test]
fn scatter_nd_updates_have_at_least_the_meaningful_rank() {
    let e = nd_error(|d| d.updates = TensorDesc::new(DataType::Int8, &[18]));
    assert!(
        matches!(
            e,
            Error::RankMismatch {
                tensor: "updates",
                actual: 1,
                expected: 2,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn scatter_nd_updates_sizes_are_the_indices_then_the_input_trailing_sizes() {
    let e = nd_error(|d| d.updates.sizes = vec![1, 1, 3, 5]);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "updates",
                dimension: 3,
                actual: 5,
                expected: 6,
                ..
            }
        ),
        "{e}"
    );
    let e = nd_error(|d| d.updates.sizes = vec![2, 1, 3, 6]);
    assert!(
        matches!(
            e,
            Error::SizeMismatch {
                tensor: "updates",
                dimension: 0,
                actual: 2,
                expected: 1,
                ..
            }
        ),
        "{e}"
    );
}

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
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(data_type, &[16, 24]),
            indices: TensorDesc::new(DataType::Int64, &[9, 24]),
            updates: TensorDesc::new(data_type, &[9, 24]),
            output: TensorDesc::new(data_type, &[16, 24]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
            out_of_range: dml_wgsl::OutOfRange::Report,
            reduction: dml_wgsl::Reduction::None,
        });
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
            let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
                input: TensorDesc::new(data_type, &[40, 256]),
                indices: TensorDesc::new(DataType::Int64, &[37, 256]),
                updates: TensorDesc::new(data_type, &[37, 256]),
                output: TensorDesc::new(data_type, &[40, 256]),
                axis: 0,
                duplicates,
                out_of_range: dml_wgsl::OutOfRange::Report,
                reduction: dml_wgsl::Reduction::None,
            });
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
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc {
            input: TensorDesc::new(data_type, &[12, 2048]),
            indices: TensorDesc::new(DataType::Int32, &[9, 2048]),
            updates: TensorDesc::new(data_type, &[9, 2048]),
            output: TensorDesc::new(data_type, &[12, 2048]),
            axis: 0,
            duplicates: DuplicateMode::AnyUpdate,
            out_of_range: dml_wgsl::OutOfRange::Report,
            reduction: dml_wgsl::Reduction::None,
        });
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

// ---- reductions ----

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
    let cases: [(DataType, Vec<(u32, u32)>); 2] = [
        (DataType::Float32, f32_pairs.to_vec()),
        (
            DataType::Float16,
            f16_pairs
                .iter()
                .map(|&(a, b)| (a as u32, b as u32))
                .collect(),
        ),
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
        let indices = le_bytes(&(0..n).collect::<Vec<_>>());
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
                    _ => {}
                }
            }
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

#[test]
fn float_add_and_mul_round_like_the_reference_on_thousands_of_random_pairs() {
    // Each element meets one update: every float type's arithmetic (subnormals, ties,
    // overflow, NaN and infinity from random bits) bit for bit, in both modes.
    let mut rng = Rng::new(78);
    for data_type in [DataType::Float16, DataType::Float32, DataType::Float64] {
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

#[test]
fn wide_rows_with_repeated_indices_reduce_in_both_modes() {
    // ScatterND of rows (an index_add): rows of 64 to 300 units share one index, many
    // repeated; packed and strided outputs, every type, each reduction.
    let mut rng = Rng::new(79);
    for (k, data_type) in DataType::ALL.into_iter().enumerate() {
        let reduction = REDUCTIONS[k % 4];
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let (rows, width, picked) = (9u32, [64u32, 96, 300][k % 3], 40u32);
            let output = if k % 2 == 0 {
                TensorDesc::new(data_type, &[rows, width])
            } else {
                common::random_layout(&mut rng, data_type, &[rows, width], false)
            };
            let desc = OperatorDesc::ScatterNd(
                ScatterNdDesc::new(
                    TensorDesc::new(data_type, &[rows, width]),
                    TensorDesc::new(INDEX_TYPES[k % 4], &[picked, 1]),
                    TensorDesc::new(data_type, &[picked, width]),
                    output,
                    2,
                    2,
                )
                .with_reduction(reduction)
                .with_duplicates(duplicates),
            );
            let mut inputs = common::random_inputs(&mut rng, &desc);
            let indices = desc.inputs()[1].1.clone();
            let index_type = indices.data_type;
            write_indices(&indices, &mut inputs[1], |_| {
                random_index(&mut rng, rows, index_type)
            });
            if data_type.is_float() {
                let values = if duplicates == DuplicateMode::AnyUpdate
                    && matches!(reduction, Reduction::Add | Reduction::Mul)
                {
                    Values::OrderFree
                } else {
                    Values::Numbers
                };
                common::fill_scatter_floats(&mut rng, &desc, &mut inputs, values, reduction);
            }
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            common::check_on(context(), &desc, &slices, Expect::ByMode)
                .expect("compile and record");
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
    let width = data_type.size_in_bytes() as usize;
    // Buffers are whole words.
    let mut pooled = |n: u32| -> Vec<u8> {
        let mut bytes: Vec<u8> = (0..n)
            .flat_map(|_| rng.pick(pool).to_le_bytes()[..width].to_vec())
            .collect();
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        bytes
    };
    let input = pooled(targets);
    let updates = pooled(count);
    let indices: Vec<u8> = (0..count)
        .flat_map(|_| (rng.range(0, targets as u64 - 1) as i32).to_le_bytes())
        .collect();
    (desc, vec![input, indices, updates])
}

#[test]
fn in_order_float_min_and_max_keep_the_first_of_tied_zeros_and_nans() {
    // Zeros of both signs, NaNs of several payloads (signalling ones too), and numbers around
    // them: which zero or NaN ends in a target is decided by the updates' order alone.
    let f16_pool = [
        0x0000, 0x8000, 0x7e01, 0xfe02, 0x7c03, 0x7d04, 0xbc00, 0x3c00, 0x7c00, 0xfc00, 0x0001,
    ];
    let f32_pool = [
        0x0000_0000,
        0x8000_0000,
        0x7fc0_0001,
        0xffc0_0002,
        0x7f80_0003,
        0x7fa0_0004,
        0xbf80_0000,
        0x3f80_0000,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001,
    ];
    let f64_pool = [
        0,
        1 << 63,
        0x7ff8_0000_0000_0001,
        0xfff8_0000_0000_0002,
        0x7ff0_0000_0000_0003,
        0xbff0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        1,
    ];
    let mut rng = Rng::new(76);
    for (data_type, pool) in [
        (DataType::Float16, &f16_pool[..]),
        (DataType::Float32, &f32_pool[..]),
        (DataType::Float64, &f64_pool[..]),
    ] {
        // Zeros and NaNs are told apart by their bits only: NaN-free rounds let zeros win.
        let zeros_and_numbers: Vec<u64> = pool
            .iter()
            .copied()
            .filter(|&bits| !common::is_nan_bits(data_type, bits))
            .collect();
        for reduction in [Reduction::Min, Reduction::Max] {
            for (targets, count) in [(8, 600), (37, 3000), (1, 200)] {
                for pool in [pool, &zeros_and_numbers[..]] {
                    let (desc, inputs) =
                        pooled_reduction(&mut rng, data_type, reduction, (targets, count), pool);
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
    let mut rng = Rng::new(77);
    for (data_type, reduction, pool) in [
        (DataType::Float32, Reduction::Add, &tiny[..]),
        (DataType::Float32, Reduction::Add, &huge[..]),
        (DataType::Float32, Reduction::Mul, &mul[..]),
        (DataType::Float16, Reduction::Add, &half[..]),
        (DataType::Float16, Reduction::Mul, &half[..]),
    ] {
        for (targets, count) in [(1, 5000), (3, 4000)] {
            let (desc, inputs) =
                pooled_reduction(&mut rng, data_type, reduction, (targets, count), pool);
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn in_order_reductions_sort_tens_of_thousands_of_updates_over_many_targets() {
    // More targets than two radix digits cover (three passes, the sorted pairs ending in the
    // other array), and more updates than one block of the histogram's scan holds (carries
    // across blocks): updates spread over every target, a few hot targets with long runs.
    let mut rng = Rng::new(78);
    for (data_type, reduction) in [
        (DataType::Float32, Reduction::Add),
        (DataType::Float16, Reduction::Mul),
        (DataType::Float64, Reduction::Add),
    ] {
        let (targets, count) = (70_001u32, 40_000u32);
        let desc: OperatorDesc = ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[targets]),
            TensorDesc::new(DataType::Int64, &[count]),
            TensorDesc::new(data_type, &[count]),
            TensorDesc::new(data_type, &[targets]),
            0,
        )
        .with_reduction(reduction)
        .with_duplicates(DuplicateMode::InOrder)
        .into();
        let mut inputs = common::random_inputs(&mut rng, &desc);
        let tensors: Vec<TensorDesc> = desc.inputs().iter().map(|(_, t)| (*t).clone()).collect();
        common::fill_scatter_floats(&mut rng, &desc, &mut inputs, Values::Numbers, reduction);
        let hot = [0, 65_535, 65_536, 70_000];
        write_indices(&tensors[1], &mut inputs[1], |_| {
            if rng.chance(10) {
                rng.pick(&hot) as i128
            } else {
                rng.range(0, targets as u64 - 1) as i128
            }
        });
        check_against_reference(&desc, &inputs);
    }
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
