//! Sizes of 0 (beyond DirectML, as ONNX allows) on the GPU: every operator with empty
//! tensors against the reference (guard bands, status), `run`'s empty bytes, indices into an
//! empty dimension reported as out of range, and `record`'s rule that an empty tensor's
//! binding is ignored. The validation rules are in `validation.rs`, the byte size in
//! `tensor.rs`; the random cases and the fuzzer make empty tensors too.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::fuzzing::count_uncaptured_errors;
use common::{
    Expect, Rng, SENTINEL, check_against_reference, check_on, check_out_of_range, context,
    le_bytes, limited_contexts, random_inputs, read_on, set_out_of_range, set_scatter_options,
};
use dml_wgsl::{
    Context, DataType, DuplicateMode, Error, GatherDesc, GatherElementsDesc, GatherNdDesc,
    OperatorDesc, OutOfRange, Reduction, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc,
    TensorDesc, reference,
};
use wgpu::util::DeviceExt;

fn tensor(data_type: DataType, sizes: &[u32]) -> TensorDesc {
    TensorDesc::new(data_type, sizes)
}

/// `desc` on random inputs whose non-empty index tensor (input 1) holds `indices`.
fn with_indices(rng: &mut Rng, desc: &OperatorDesc, indices: &[i64]) -> Vec<Vec<u8>> {
    let mut inputs = random_inputs(rng, desc);
    if !indices.is_empty() {
        let width = desc.inputs()[1].1.data_type.size_in_bytes() as usize;
        inputs[1] = indices
            .iter()
            .flat_map(|v| v.to_le_bytes()[..width].to_vec())
            .collect();
    }
    inputs
}

/// An operator with an empty output: the reference, `run` and `record` (guard bands
/// untouched) all give no bytes, and no status.
fn check_empty_output(desc: &OperatorDesc, inputs: &[Vec<u8>]) {
    assert!(desc.output().is_empty());
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    assert_eq!(reference::run(desc, &slices), Ok(Vec::new()), "{desc:?}");
    assert_eq!(context().run_blocking(desc, &slices), Ok(Vec::new()));
    check_on(context(), desc, &slices, Expect::Exact).expect("compile and record");
    let operator = context().compile(desc).unwrap();
    assert_eq!(operator.output_size(), 0);
    assert!(!operator.has_status(), "no index is read: {desc:?}");
}

#[test]
fn slices_with_an_empty_output_return_no_bytes() {
    let mut rng = Rng::new(1);
    // ONNX's test_slice_start_out_of_bounds: a start past axis 1's end, clamped to it.
    let onnx: OperatorDesc = Slice1Desc::new(
        tensor(DataType::Float32, &[20, 10, 5]),
        tensor(DataType::Float32, &[20, 0, 5]),
        &[0, 10, 0],
        &[20, 0, 5],
        &[1, 1, 1],
    )
    .into();
    let descs: [OperatorDesc; 3] = [
        onnx.clone(),
        // A reversed window of an empty input (its input bytes: an empty slice).
        Slice1Desc::new(
            tensor(DataType::UInt8, &[0, 4]),
            tensor(DataType::UInt8, &[0, 2]),
            &[0, 0],
            &[0, 4],
            &[1, -2],
        )
        .into(),
        // Size 0 at an offset past the input, into a strided output.
        SliceDesc::new(
            tensor(DataType::Int64, &[4, 3]),
            tensor(DataType::Int64, &[0, 3]).with_strides(&[0, 0]),
            &[9, 0],
            &[0, 3],
            &[1, 1],
        )
        .into(),
    ];
    for desc in &descs {
        check_empty_output(desc, &random_inputs(&mut rng, desc));
    }
    let input: Vec<f32> = (0..1000).map(|v| v as f32).collect();
    let output: Vec<f32> = context()
        .run_typed_blocking(&onnx, &[(&input).into()])
        .unwrap();
    assert!(output.is_empty());
}

#[test]
fn run_typed_takes_empty_slices_for_empty_tensors_and_returns_an_empty_vec() {
    let desc: OperatorDesc = GatherElementsDesc::new(
        tensor(DataType::Float16, &[3, 4]),
        tensor(DataType::Int64, &[0, 4]),
        tensor(DataType::Float16, &[0, 4]),
        0,
    )
    .into();
    let input = [half::f16::ONE; 12];
    let none: &[i64] = &[];
    let output: Vec<half::f16> = context()
        .run_typed_blocking(&desc, &[(&input).into(), none.into()])
        .unwrap();
    assert!(output.is_empty());
    // The slice for an empty tensor holds its 0 elements.
    assert_eq!(
        context().run_typed_blocking::<half::f16>(&desc, &[(&input).into(), (&[0i64]).into()]),
        Err(Error::SliceLength {
            tensor: "indices",
            given: 1,
            required: 0
        })
    );
}

#[test]
fn gathers_with_an_empty_output_read_no_index() {
    let mut rng = Rng::new(2);
    let descs: [OperatorDesc; 5] = [
        // No indices.
        GatherDesc::new(
            tensor(DataType::Float32, &[3, 4]),
            tensor(DataType::Int32, &[1, 0]),
            tensor(DataType::Float32, &[0, 4]),
            0,
            1,
        )
        .into(),
        GatherElementsDesc::new(
            tensor(DataType::Float16, &[3, 4]),
            tensor(DataType::Int64, &[0, 4]),
            tensor(DataType::Float16, &[0, 4]),
            0,
        )
        .into(),
        // A batch of 0, and no tuples.
        GatherNdDesc::new(
            tensor(DataType::Int8, &[0, 3, 4]),
            tensor(DataType::UInt32, &[0, 2, 1]),
            tensor(DataType::Int8, &[0, 2, 4]),
            3,
            3,
            1,
        )
        .into(),
        GatherNdDesc::new(
            tensor(DataType::Float64, &[3, 4]),
            tensor(DataType::UInt64, &[0, 1]),
            tensor(DataType::Float64, &[0, 4]),
            2,
            2,
            0,
        )
        .into(),
        // Indices no element uses: an input dimension besides the axis is empty.
        GatherDesc::new(
            tensor(DataType::Int16, &[2, 0]),
            tensor(DataType::Int32, &[1, 3]),
            tensor(DataType::Int16, &[3, 0]),
            0,
            1,
        )
        .into(),
    ];
    for desc in descs {
        // Out of range everywhere, but never read: nothing is reported (or clamped).
        let inputs = with_indices(&mut rng, &desc, &[1000, -1000, 7]);
        check_empty_output(&desc, &inputs);
        let mut clamped = desc;
        set_out_of_range(&mut clamped, OutOfRange::Clamp);
        check_empty_output(&clamped, &inputs);
    }
}

#[test]
fn a_gather_from_an_empty_axis_reports_every_index_out_of_range() {
    let mut rng = Rng::new(3);
    // (desc, indices, the first out-of-range position and value): every index is out of
    // range of a dimension of 0, negative ones included (-n is 0 here, and -2 would wrap to
    // a huge index); the output is all zeros.
    let cases: [(OperatorDesc, &[i64], Vec<u32>, i128); 3] = [
        (
            GatherDesc::new(
                tensor(DataType::Float32, &[0, 3]),
                tensor(DataType::Int64, &[1, 2]),
                tensor(DataType::Float32, &[2, 3]),
                0,
                1,
            )
            .into(),
            &[-2, 0],
            vec![0, 0],
            -2,
        ),
        (
            GatherElementsDesc::new(
                tensor(DataType::Float16, &[3, 0]),
                tensor(DataType::Int32, &[2, 2]),
                tensor(DataType::Float16, &[2, 2]),
                1,
            )
            .into(),
            &[-3, 0, 1, -1],
            vec![0, 0],
            -3,
        ),
        // Tuples of 2 over [2, 0]: the first component is in range, the second never.
        (
            GatherNdDesc::new(
                tensor(DataType::UInt8, &[2, 0, 4]),
                tensor(DataType::UInt32, &[3, 2]),
                tensor(DataType::UInt8, &[3, 4]),
                3,
                2,
                0,
            )
            .into(),
            &[1, 0, 0, 5, 1, 1],
            vec![0, 1],
            0,
        ),
    ];
    for (desc, indices, position, value) in cases {
        let inputs = with_indices(&mut rng, &desc, indices);
        assert_eq!(
            check_out_of_range(&desc, &inputs),
            Error::IndexOutOfRange {
                tensor: "indices",
                position,
                value,
                bound: 0,
            }
        );
        let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
        let (output, _) = reference::run_with_status(&desc, &slices).unwrap();
        assert!(output.iter().all(|&b| b == 0), "zeros: {desc:?}");
    }
}

/// Reductions and duplicate modes that take different paths where there are updates.
const SCATTER_OPTIONS: [(Reduction, DuplicateMode); 4] = [
    (Reduction::None, DuplicateMode::AnyUpdate),
    (Reduction::None, DuplicateMode::InOrder),
    (Reduction::Add, DuplicateMode::InOrder),
    (Reduction::Max, DuplicateMode::AnyUpdate),
];

/// Scatters with no updates: ScatterElements with empty indices, ScatterND with no tuples;
/// input and output laid out alike, or not.
fn scatters_with_no_updates(data_type: DataType) -> [OperatorDesc; 3] {
    [
        ScatterElementsDesc::new(
            tensor(data_type, &[4, 3]),
            tensor(DataType::Int32, &[0, 3]),
            tensor(data_type, &[0, 3]),
            tensor(data_type, &[4, 3]),
            0,
        )
        .into(),
        ScatterElementsDesc::new(
            tensor(data_type, &[4, 3]),
            tensor(DataType::Int64, &[4, 0]),
            tensor(data_type, &[4, 0]),
            tensor(data_type, &[4, 3]).with_strides(&[1, 5]),
            1,
        )
        .into(),
        ScatterNdDesc::new(
            tensor(data_type, &[4, 3]),
            tensor(DataType::UInt64, &[0, 1]),
            tensor(data_type, &[0, 3]),
            tensor(data_type, &[4, 3]),
            2,
            2,
        )
        .into(),
    ]
}

#[test]
fn a_scatter_with_no_updates_is_the_copy_output_equals_input() {
    let mut rng = Rng::new(4);
    for data_type in [
        DataType::Float64,
        DataType::Float32,
        DataType::Int16,
        DataType::UInt8,
    ] {
        for options in SCATTER_OPTIONS {
            for mut desc in scatters_with_no_updates(data_type) {
                set_scatter_options(&mut desc, options.0, options.1);
                let inputs = random_inputs(&mut rng, &desc);
                let expected = check_against_reference(&desc, &inputs);
                let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                assert_eq!(context().run_blocking(&desc, &slices), Ok(expected.clone()));
                if desc.output().effective_strides() == desc.inputs()[0].1.effective_strides() {
                    // Laid out alike: the input's bytes, element for element.
                    let elements = desc.output().element_count() as usize;
                    let width = data_type.size_in_bytes() as usize;
                    assert_eq!(expected[..elements * width], inputs[0][..elements * width]);
                }
                assert!(!context().compile(&desc).unwrap().has_status());
            }
        }
    }
}

#[test]
fn a_scatter_with_no_updates_in_place_leaves_the_tensor_as_it_was() {
    let mut rng = Rng::new(5);
    let device = context().device();
    for mut desc in scatters_with_no_updates(DataType::Float32) {
        set_scatter_options(&mut desc, Reduction::Mul, DuplicateMode::InOrder);
        if desc.output().effective_strides() != desc.inputs()[0].1.effective_strides() {
            continue;
        }
        let operator = context().compile(&desc).unwrap();
        let data = rng.bytes(operator.output_size() as usize);
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let shared = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &data,
            usage,
        });
        let nothing = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &[],
            usage,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        operator
            .record(
                &mut encoder,
                &[
                    shared.as_entire_buffer_binding(),
                    nothing.as_entire_buffer_binding(),
                    nothing.as_entire_buffer_binding(),
                ],
                shared.as_entire_buffer_binding(),
            )
            .expect("in place");
        context().queue().submit([encoder.finish()]);
        assert_eq!(read_on(context(), &shared), data);
        assert_eq!(operator.check_status_blocking(), Ok(()));
    }
}

#[test]
fn an_empty_scatter_records_nothing() {
    let mut rng = Rng::new(6);
    let descs: [OperatorDesc; 2] = [
        // A batch of 0 (no updates either).
        ScatterElementsDesc::new(
            tensor(DataType::Float32, &[0, 3]),
            tensor(DataType::Int32, &[0, 2]),
            tensor(DataType::Float32, &[0, 2]),
            tensor(DataType::Float32, &[0, 3]),
            1,
        )
        .into(),
        // Rows of 0: tuples present, but no update element uses them.
        ScatterNdDesc::new(
            tensor(DataType::Int64, &[3, 0]),
            tensor(DataType::Int32, &[2, 1]),
            tensor(DataType::Int64, &[2, 0]),
            tensor(DataType::Int64, &[3, 0]),
            2,
            2,
        )
        .into(),
    ];
    for mut desc in descs {
        for options in SCATTER_OPTIONS {
            set_scatter_options(&mut desc, options.0, options.1);
            let inputs = with_indices(&mut rng, &desc, &[1000, -1000]);
            check_empty_output(&desc, &inputs);
        }
    }
}

#[test]
fn updates_into_an_empty_dimension_are_reported_out_of_range() {
    let mut rng = Rng::new(7);
    let cases: [(OperatorDesc, &[i64], Vec<u32>, i128); 2] = [
        // Along an axis of 0 (the output is empty; the updates are not).
        (
            ScatterElementsDesc::new(
                tensor(DataType::Float64, &[2, 0]),
                tensor(DataType::Int64, &[2, 3]),
                tensor(DataType::Float64, &[2, 3]),
                tensor(DataType::Float64, &[2, 0]),
                1,
            )
            .into(),
            &[-2, 0, 2, 0, -1, 0],
            vec![0, 0],
            -2,
        ),
        // Rows of a tensor of no rows.
        (
            ScatterNdDesc::new(
                tensor(DataType::UInt8, &[0, 4]),
                tensor(DataType::Int32, &[2, 1]),
                tensor(DataType::UInt8, &[2, 4]),
                tensor(DataType::UInt8, &[0, 4]),
                2,
                2,
            )
            .into(),
            &[0, -1],
            vec![0, 0],
            0,
        ),
    ];
    for (mut desc, indices, position, value) in cases {
        for options in SCATTER_OPTIONS {
            set_scatter_options(&mut desc, options.0, options.1);
            let inputs = with_indices(&mut rng, &desc, indices);
            assert_eq!(
                check_out_of_range(&desc, &inputs),
                Error::IndexOutOfRange {
                    tensor: "indices",
                    position: position.clone(),
                    value,
                    bound: 0,
                },
                "{options:?}"
            );
        }
    }
}

/// A buffer of `size` bytes on `device`.
fn buffer(device: &wgpu::Device, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage,
        mapped_at_creation: false,
    })
}

/// Records `operator` on `context` with `inputs` and `output`, submits, and returns the
/// output buffer's bytes and the status.
fn record_and_read(
    context: &Context,
    operator: &dml_wgsl::CompiledOperator,
    inputs: &[wgpu::BufferBinding],
    output: &wgpu::Buffer,
) -> (Vec<u8>, dml_wgsl::Result<()>) {
    let mut encoder = context.device().create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, inputs, output.as_entire_buffer_binding())
        .expect("an empty tensor's binding is ignored");
    context.queue().submit([encoder.finish()]);
    (read_on(context, output), operator.check_status_blocking())
}

#[test]
fn record_ignores_the_bindings_of_empty_tensors() {
    let [home, foreign] = <[Context; 2]>::try_from(limited_contexts(2, |_| {})).unwrap();
    let errors = count_uncaptured_errors(home.device());
    let device = home.device();
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    // Anything at all in an empty tensor's place: a zero-sized buffer, a buffer without
    // STORAGE at a misaligned offset past its end, a buffer of another device.
    let zero_sized = buffer(device, 0, storage);
    let unusable = buffer(
        device,
        4,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    let stranger = buffer(foreign.device(), 16, storage);
    let misplaced = wgpu::BufferBinding {
        buffer: &unusable,
        offset: 7,
        size: None,
    };

    // A gather from an empty axis: the input is empty, the output is not (zeros, reported).
    let gather: OperatorDesc = GatherDesc::new(
        tensor(DataType::Int32, &[3, 0]),
        tensor(DataType::Int32, &[1, 2]),
        tensor(DataType::Int32, &[3, 2]),
        1,
        1,
    )
    .into();
    let inputs = [Vec::new(), le_bytes(&[1i32, -4])];
    let (expected, status) = reference::run_with_status(&gather, &[&[], &inputs[1]]).unwrap();
    let operator = home.compile(&gather).unwrap();
    assert_eq!(operator.input_sizes(), [0, 8]);
    let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &inputs[1],
        usage: storage,
    });
    let output = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &vec![SENTINEL; expected.len()],
        usage: storage,
    });
    for ignored in [
        zero_sized.as_entire_buffer_binding(),
        misplaced.clone(),
        stranger.as_entire_buffer_binding(),
        // The output's own range: an empty tensor aliases nothing.
        output.as_entire_buffer_binding(),
    ] {
        let bindings = [ignored, indices.as_entire_buffer_binding()];
        let (got, got_status) = record_and_read(&home, &operator, &bindings, &output);
        assert_eq!((got, got_status), (expected.clone(), status.clone()));
    }

    // A scatter with no updates: its indices and updates may be bound to anything too.
    let scatter = &scatters_with_no_updates(DataType::Float32)[0];
    let mut rng = Rng::new(8);
    let data = random_inputs(&mut rng, scatter).remove(0);
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &data,
        usage: storage,
    });
    let output = buffer(device, data.len() as u64, storage);
    let operator = home.compile(scatter).unwrap();
    let bindings = [
        input.as_entire_buffer_binding(),
        misplaced,
        stranger.as_entire_buffer_binding(),
    ];
    let (got, got_status) = record_and_read(&home, &operator, &bindings, &output);
    assert_eq!((got, got_status), (data, Ok(())));

    // An empty output: every binding may be a zero-sized buffer.
    let slice: OperatorDesc = SliceDesc::new(
        tensor(DataType::Float16, &[0, 8]),
        tensor(DataType::Float16, &[0, 4]),
        &[0, 1],
        &[0, 4],
        &[1, 2],
    )
    .into();
    let operator = home.compile(&slice).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(
            &mut encoder,
            &[zero_sized.as_entire_buffer_binding()],
            zero_sized.as_entire_buffer_binding(),
        )
        .expect("nothing to bind");
    home.queue().submit([encoder.finish()]);
    // The input count is still the operator's.
    let mut encoder = device.create_command_encoder(&Default::default());
    assert!(matches!(
        operator.record(&mut encoder, &[], zero_sized.as_entire_buffer_binding()),
        Err(Error::InputCount {
            expected: 1,
            actual: 0
        })
    ));
    assert_eq!(
        errors.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "uncaptured wgpu errors"
    );
}

#[test]
fn with_nothing_to_record_timestamps_still_bracket_an_empty_pass() {
    let device = context().device();
    if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        eprintln!(
            "{}: no TIMESTAMP_QUERY, nothing to bracket",
            device.adapter_info().name
        );
        return;
    }
    let slice: OperatorDesc = Slice1Desc::new(
        tensor(DataType::Float32, &[0]),
        tensor(DataType::Float32, &[0]),
        &[0],
        &[0],
        &[1],
    )
    .into();
    let operator = context().compile(&slice).unwrap();
    let nothing = buffer(device, 0, wgpu::BufferUsages::STORAGE);
    let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2,
    });
    let resolved = buffer(
        device,
        16,
        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
    );
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record_with_timestamps(
            &mut encoder,
            &[nothing.as_entire_buffer_binding()],
            nothing.as_entire_buffer_binding(),
            Some(wgpu::ComputePassTimestampWrites {
                query_set: &queries,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
        )
        .unwrap();
    encoder.resolve_query_set(&queries, 0..2, &resolved, 0);
    context().queue().submit([encoder.finish()]);
    assert!(
        pollster::block_on(scope.pop()).is_none(),
        "no validation error"
    );
    let ticks: Vec<u64> = bytemuck::cast_slice(&read_on(context(), &resolved)).to_vec();
    assert!(ticks[1] >= ticks[0] && ticks[0] != 0, "{ticks:?}");
}
