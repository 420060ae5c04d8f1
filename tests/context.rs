//! Context and CompiledOperator: recording into the caller's encoder, binding checks,
//! device limits (dispatch folding, binding sizes) and the copy methods (the pipelines:
//! tests/pipelines.rs).
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use std::num::NonZeroU64;

use common::{
    Expect, Rng, check_against_reference, check_on, context, limited_context, random_inputs,
    read_buffer, read_on, write_indices,
};
use dml_wgsl::{
    CopyMethod, DataType, Error, OperatorDesc, ScatterElementsDesc, Slice1Desc, SliceDesc,
    TensorDesc,
};
use wgpu::util::DeviceExt;

fn small_slice() -> OperatorDesc {
    OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[2, 2]),
        &[1, 1],
        &[2, 2],
        &[2, 2],
    ))
}

fn buffer(usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
    buffer_on(context().device(), usage, size)
}

fn buffer_on(device: &wgpu::Device, usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage,
        mapped_at_creation: false,
    })
}

/// Each input's bytes in a buffer of `device` (storage, copied from and to).
fn upload(device: &wgpu::Device, inputs: &[Vec<u8>]) -> Vec<wgpu::Buffer> {
    inputs
        .iter()
        .map(|data| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: data,
                usage: STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            })
        })
        .collect()
}

fn record_error(inputs: &[wgpu::BufferBinding], output: wgpu::BufferBinding) -> Error {
    let operator = context().compile(&small_slice()).unwrap();
    let mut encoder = context()
        .device()
        .create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, inputs, output)
        .expect_err("the binding breaks a rule")
}

const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE;

#[test]
fn record_writes_into_the_callers_encoder_among_other_commands() {
    let device = context().device();
    let input: Vec<f32> = (0..16).map(|v| v as f32 * 1.5).collect();
    let staging = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&input),
        usage: wgpu::BufferUsages::COPY_SRC,
    });
    let source = buffer(STORAGE | wgpu::BufferUsages::COPY_DST, 64);
    let output = buffer(STORAGE | wgpu::BufferUsages::COPY_SRC, 16);
    let readback = buffer(
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        16,
    );
    let operator = context().compile(&small_slice()).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(&staging, 0, &source, 0, 64);
    operator
        .record(
            &mut encoder,
            &[source.as_entire_buffer_binding()],
            output.as_entire_buffer_binding(),
        )
        .unwrap();
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, 16);
    context().queue().submit([encoder.finish()]);
    let got: Vec<f32> = bytemuck::cast_slice(&read_buffer(&readback)).to_vec();
    assert_eq!(got, [input[5], input[7], input[13], input[15]]);
}

#[test]
fn record_rejects_the_wrong_number_of_inputs() {
    let output = buffer(STORAGE, 16);
    let e = record_error(&[], output.as_entire_buffer_binding());
    assert_eq!(
        e,
        Error::InputCount {
            expected: 1,
            actual: 0
        }
    );
}

#[test]
fn record_rejects_buffers_without_storage_usage() {
    let input = buffer(wgpu::BufferUsages::COPY_DST, 64);
    let output = buffer(STORAGE, 16);
    let e = record_error(
        &[input.as_entire_buffer_binding()],
        output.as_entire_buffer_binding(),
    );
    assert!(
        matches!(
            e,
            Error::BindingUsage {
                tensor: "input",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn record_rejects_misaligned_offsets() {
    let alignment = context()
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64;
    let input = buffer(STORAGE, 64 + alignment * 2);
    let output = buffer(STORAGE, 16);
    let binding = wgpu::BufferBinding {
        buffer: &input,
        offset: 4,
        size: None,
    };
    let e = record_error(&[binding], output.as_entire_buffer_binding());
    assert!(
        matches!(
            e,
            Error::BindingOffsetAlignment {
                tensor: "input",
                offset: 4,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn record_rejects_bindings_smaller_than_the_tensor() {
    let input = buffer(STORAGE, 64);
    let output = buffer(STORAGE, 16);
    let e = record_error(
        &[input.as_entire_buffer_binding()],
        wgpu::BufferBinding {
            buffer: &output,
            offset: 0,
            size: NonZeroU64::new(12),
        },
    );
    assert_eq!(
        e,
        Error::BindingTooSmall {
            tensor: "output",
            given: 12,
            required: 16
        }
    );
    let short = buffer(STORAGE, 60);
    let e = record_error(
        &[short.as_entire_buffer_binding()],
        output.as_entire_buffer_binding(),
    );
    assert_eq!(
        e,
        Error::BindingTooSmall {
            tensor: "input",
            given: 60,
            required: 64
        }
    );
}

#[test]
fn record_rejects_an_input_sharing_the_output_buffer() {
    let alignment = context()
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64;
    let shared = buffer(STORAGE, alignment * 2 + 64);
    let input = wgpu::BufferBinding {
        buffer: &shared,
        offset: 0,
        size: NonZeroU64::new(64),
    };
    let output = wgpu::BufferBinding {
        buffer: &shared,
        offset: alignment.max(64),
        size: NonZeroU64::new(16),
    };
    let e = record_error(&[input], output);
    assert!(
        matches!(
            e,
            Error::AliasedBindings {
                tensor: "input",
                other: "output",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn run_rejects_short_input_data_and_wrong_counts() {
    let desc = small_slice();
    let e = context().run_blocking(&desc, &[&[0u8; 60]]).unwrap_err();
    assert_eq!(
        e,
        Error::InputTooSmall {
            tensor: "input",
            given: 60,
            required: 64
        }
    );
    let e = context().run_blocking(&desc, &[]).unwrap_err();
    assert_eq!(
        e,
        Error::InputCount {
            expected: 1,
            actual: 0
        }
    );
}

#[test]
fn run_returns_zero_for_output_bytes_no_element_covers() {
    let mut rng = Rng::new(10);
    let desc = OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::UInt8, &[8, 8]),
        TensorDesc::new(DataType::UInt8, &[3, 2])
            .with_strides(&[5, 2])
            .with_total_size(20),
        &[0, 0],
        &[3, 2],
        &[2, 3],
    ));
    let input = rng.bytes(64);
    let out = context().run_blocking(&desc, &[&input]).unwrap();
    assert_eq!(out.len(), 20);
    let expected = dml_wgsl::reference::run(&desc, &[&input]).unwrap();
    assert_eq!(out, expected);
    assert_eq!(out[1], 0);
    assert_eq!(out[19], 0);
}

#[test]
fn dispatches_fold_into_three_dimensions_past_the_workgroup_limit() {
    let limited = limited_context(|l| l.max_compute_workgroups_per_dimension = 4);
    let mut rng = Rng::new(11);
    // 20000 elements, 4 a thread, in 256-thread groups: 20 groups, folded to 4 x 3 x 2.
    let desc = OperatorDesc::Slice1(Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[20000]),
        TensorDesc::new(DataType::Float32, &[20000]),
        &[0],
        &[20000],
        &[-1],
    ));
    let input = rng.bytes(80000);
    let got = limited.run_blocking(&desc, &[&input]).unwrap();
    assert_eq!(got, dml_wgsl::reference::run(&desc, &[&input]).unwrap());
    // More than 4 x 4 x 4 groups cannot be dispatched at all: a clear error, not a truncation.
    let desc = OperatorDesc::Slice1(Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[80000]),
        TensorDesc::new(DataType::Float32, &[80000]),
        &[0],
        &[80000],
        &[-1],
    ));
    let e = limited.compile(&desc).unwrap_err();
    assert!(matches!(e, Error::LimitExceeded { .. }), "{e}");
}

#[test]
fn tensors_past_the_binding_limit_run_split_into_windows() {
    let limited = limited_context(|l| l.max_storage_buffer_binding_size = 1024);
    let desc = OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[16, 32]),
        TensorDesc::new(DataType::Float32, &[8, 8]),
        &[0, 0],
        &[8, 8],
        &[2, 4],
    ));
    let input = Rng::new(12).bytes(2048);
    let got = limited.run_blocking(&desc, &[&input]).unwrap();
    assert_eq!(got, dml_wgsl::reference::run(&desc, &[&input]).unwrap());
}

#[test]
fn tensors_past_the_largest_buffer_are_refused_before_any_gpu_work() {
    let limited = limited_context(|l| {
        l.max_storage_buffer_binding_size = 1024;
        l.max_buffer_size = 1024;
    });
    let desc = OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[16, 32]),
        TensorDesc::new(DataType::Float32, &[8, 8]),
        &[0, 0],
        &[8, 8],
        &[2, 4],
    ));
    let e = limited.compile(&desc).unwrap_err();
    assert_eq!(
        e,
        Error::TensorTooLarge {
            tensor: "input",
            bytes: 2048,
            limit_name: "max_buffer_size",
            limit: 1024,
        }
    );
}

#[test]
fn layouts_past_32_bit_element_offsets_are_refused() {
    // 2 x 2 elements whose strides span 2^32 + 2 elements: 4 elements, but no u32 offset
    // reaches the last one.
    let desc = OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::UInt8, &[2, 2]).with_strides(&[u32::MAX, 2]),
        TensorDesc::new(DataType::UInt8, &[2, 2]),
        &[0, 0],
        &[2, 2],
        &[1, 1],
    ));
    let e = context().compile(&desc).unwrap_err();
    assert_eq!(
        e,
        Error::LayoutTooWide {
            tensor: "input",
            elements: u32::MAX as u64 + 3,
            limit: 1 << 32,
        }
    );
}

#[test]
fn a_compiled_operator_records_many_times() {
    let mut rng = Rng::new(12);
    let desc = small_slice();
    for _ in 0..3 {
        let inputs = random_inputs(&mut rng, &desc);
        check_against_reference(&desc, &inputs);
    }
}

/// `record` keeps the bind groups of recent binding sets: recording again on other buffers,
/// other offsets, or back on earlier ones, each time reads and writes exactly the buffers
/// given, and a scatter switches between in place and not.
#[test]
fn recording_on_changing_buffers_never_uses_stale_bindings() {
    let device = context().device();
    let alignment = device.limits().min_storage_buffer_offset_alignment as u64;
    let mut rng = Rng::new(13);
    let case = common::scatter_page_example_2();
    let operator = context().compile(&case.case.desc).unwrap();
    let sizes = operator.input_sizes();
    let usage = STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let with_data = |data: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: data,
            usage,
        })
    };
    // Two sets of inputs (random inputs, the page's indices), and two outputs at two offsets.
    let inputs: Vec<[wgpu::Buffer; 3]> = (0..2)
        .map(|_| {
            let input = rng.bytes(sizes[0] as usize);
            let updates = rng.bytes(sizes[2] as usize);
            [
                with_data(&input),
                with_data(&case.case.inputs[1]),
                with_data(&updates),
            ]
        })
        .collect();
    let outputs: Vec<wgpu::Buffer> = (0..2)
        .map(|_| buffer(usage, alignment + sizes[0]))
        .collect();
    let read = |b: &wgpu::Buffer, offset: u64, size: u64| {
        let readback = buffer(
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            size,
        );
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(b, offset, &readback, 0, size);
        context().queue().submit([encoder.finish()]);
        read_buffer(&readback)
    };
    let expected = |set: usize| {
        let data: Vec<Vec<u8>> = inputs[set].iter().map(|b| read(b, 0, b.size())).collect();
        let slices: Vec<&[u8]> = data.iter().map(|v| v.as_slice()).collect();
        dml_wgsl::reference::run(&case.case.desc, &slices).unwrap()
    };
    let wanted = [expected(0), expected(1)];
    for (set, out, offset) in [
        (0, 0, 0),
        (1, 1, alignment),
        (0, 1, 0),
        (1, 0, alignment),
        (0, 0, 0),
    ] {
        let bindings: Vec<wgpu::BufferBinding> = inputs[set]
            .iter()
            .map(wgpu::Buffer::as_entire_buffer_binding)
            .collect();
        let mut encoder = device.create_command_encoder(&Default::default());
        operator
            .record(
                &mut encoder,
                &bindings,
                wgpu::BufferBinding {
                    buffer: &outputs[out],
                    offset,
                    size: None,
                },
            )
            .unwrap();
        context().queue().submit([encoder.finish()]);
        assert_eq!(
            read(&outputs[out], offset, sizes[0]),
            wanted[set],
            "inputs {set} into output {out} at {offset}"
        );
    }
    // In place on set 1's input buffer, after the bind groups of other outputs.
    let in_place: Vec<wgpu::BufferBinding> = inputs[1]
        .iter()
        .map(wgpu::Buffer::as_entire_buffer_binding)
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, &in_place, in_place[0].clone())
        .unwrap();
    context().queue().submit([encoder.finish()]);
    assert_eq!(read(&inputs[1][0], 0, sizes[0]), wanted[1]);
}

/// Contiguous copies: a slice of whole rows, a scatter's `output = input` (packed alike), and
/// the same where the run's length is not whole words.
fn contiguous_copy_cases(rng: &mut Rng) -> Vec<(OperatorDesc, Vec<Vec<u8>>)> {
    let mut cases = Vec::new();
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for columns in [12, 5] {
            let rows = SliceDesc::new(
                TensorDesc::new(data_type, &[9, columns]),
                TensorDesc::new(data_type, &[4, columns]),
                &[3, 0],
                &[4, columns],
                &[1, 1],
            );
            let scatter = ScatterElementsDesc::new(
                TensorDesc::new(data_type, &[9, columns]),
                TensorDesc::new(DataType::Int32, &[2, columns]),
                TensorDesc::new(data_type, &[2, columns]),
                TensorDesc::new(data_type, &[9, columns]),
                0,
            );
            for desc in [OperatorDesc::from(rows), OperatorDesc::from(scatter)] {
                let mut inputs = random_inputs(rng, &desc);
                if let OperatorDesc::ScatterElements(s) = &desc {
                    // Two distinct rows: no duplicates, so the result is exact.
                    write_indices(&s.indices, &mut inputs[1], |c| [7, 2][c[0] as usize]);
                }
                cases.push((desc, inputs));
            }
        }
    }
    cases
}

#[test]
fn both_copy_methods_give_the_reference_bytes() {
    let mut rng = Rng::new(51);
    let measured = context().copy_method();
    assert_eq!(context().copy_method(), measured, "measured once");
    eprintln!("{}: {measured:?}", context().adapter_info().name);
    for method in [CopyMethod::Kernel, CopyMethod::CopyBufferToBuffer] {
        let chosen = limited_context(|_| {});
        chosen.set_copy_method(method);
        assert_eq!(chosen.copy_method(), method);
        for (desc, inputs) in contiguous_copy_cases(&mut rng) {
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            check_on(&chosen, &desc, &slices, Expect::Exact).expect("compile and record");
            // `run` too (its own buffers).
            let expected = dml_wgsl::reference::run(&desc, &slices).unwrap();
            assert_eq!(chosen.run_blocking(&desc, &slices).unwrap(), expected);
        }
    }
}

#[test]
fn copies_fall_back_to_the_kernel_on_buffers_without_copy_usage() {
    let chosen = limited_context(|_| {});
    chosen.set_copy_method(CopyMethod::CopyBufferToBuffer);
    let device = chosen.device();
    let desc = OperatorDesc::from(SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[8, 16]),
        TensorDesc::new(DataType::Float32, &[4, 16]),
        &[2, 0],
        &[4, 16],
        &[1, 1],
    ));
    let mut rng = Rng::new(52);
    let input_bytes = random_inputs(&mut rng, &desc).remove(0);
    let operator = chosen.compile(&desc).unwrap();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &input_bytes,
        usage: STORAGE,
    });
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: operator.output_size(),
        usage: STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(
            &mut encoder,
            &[input.as_entire_buffer_binding()],
            output.as_entire_buffer_binding(),
        )
        .unwrap();
    chosen.queue().submit([encoder.finish()]);
    let expected = dml_wgsl::reference::run(&desc, &[&input_bytes]).unwrap();
    assert_eq!(read_on(&chosen, &output), expected);
}

/// Records `desc` on `chosen` with timestamps at `beginning` and `end` (either may be absent)
/// and checks that nothing fails validation, that the ticks written are in order, and that
/// the output is the reference's.
fn check_timed_record(
    chosen: &dml_wgsl::Context,
    desc: &OperatorDesc,
    inputs: &[Vec<u8>],
    beginning: Option<u32>,
    end: Option<u32>,
) {
    let device = chosen.device();
    let operator = chosen.compile(desc).unwrap();
    let usage = STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let buffers = upload(device, inputs);
    let output = buffer_on(device, usage, operator.output_size());
    let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2,
    });
    let resolved = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 16,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .map(|b| b.as_entire_buffer_binding())
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    operator
        .record_with_timestamps(
            &mut encoder,
            &bindings,
            output.as_entire_buffer_binding(),
            Some(wgpu::ComputePassTimestampWrites {
                query_set: &queries,
                beginning_of_pass_write_index: beginning,
                end_of_pass_write_index: end,
            }),
        )
        .unwrap();
    encoder.resolve_query_set(&queries, 0..2, &resolved, 0);
    chosen.queue().submit([encoder.finish()]);
    assert!(
        pollster::block_on(scope.pop()).is_none(),
        "no validation error"
    );
    if beginning.is_some() && end.is_some() {
        let ticks: Vec<u64> = bytemuck::cast_slice(&read_on(chosen, &resolved)).to_vec();
        assert!(ticks[1] >= ticks[0] && ticks[0] != 0, "{ticks:?}");
    }
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let expected = dml_wgsl::reference::run(desc, &slices).unwrap();
    assert_eq!(read_on(chosen, &output), expected);
}

/// The test binary's own context where the adapter has timestamp queries (GL has none).
fn timed_context() -> Option<dml_wgsl::Context> {
    // Context::new asks for the adapter's timestamp features.
    let chosen = dml_wgsl::Context::new_blocking().unwrap();
    let device = chosen.device();
    if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        eprintln!(
            "{}: no TIMESTAMP_QUERY, nothing to bracket",
            device.adapter_info().name
        );
        return None;
    }
    Some(chosen)
}

#[test]
fn timestamps_bracket_copies_made_by_copy_command() {
    // GL has no timestamp queries; both_copy_methods_give_the_reference_bytes checks the
    // copies themselves there.
    let Some(chosen) = timed_context() else {
        return;
    };
    chosen.set_copy_method(CopyMethod::CopyBufferToBuffer);
    let mut rng = Rng::new(53);
    let (desc, inputs) = contiguous_copy_cases(&mut rng).swap_remove(3);
    for (beginning, end) in [(Some(0), Some(1)), (Some(0), None), (None, Some(1))] {
        check_timed_record(&chosen, &desc, &inputs, beginning, end);
    }
}

/// A reduction in order (several dispatches, a clear of its scratch first), its indices in
/// range.
fn in_order_reduction(rng: &mut Rng) -> (OperatorDesc, Vec<Vec<u8>>) {
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            TensorDesc::new(DataType::Float32, &[64, 33]),
            TensorDesc::new(DataType::Int32, &[40, 33]),
            TensorDesc::new(DataType::Float32, &[40, 33]),
            TensorDesc::new(DataType::Float32, &[64, 33]),
            0,
        )
        .with_reduction(dml_wgsl::Reduction::Add)
        .with_duplicates(dml_wgsl::DuplicateMode::InOrder),
    );
    let mut inputs = random_inputs(rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
        rng.range(0, 63) as i128
    });
    (desc, inputs)
}

#[test]
fn timestamps_bracket_the_clears_of_an_operators_scratch() {
    // A reduction in order clears its scratch before its dispatches: the beginning
    // timestamp is written before the clears (in an empty pass), each index alone too.
    let Some(chosen) = timed_context() else {
        return;
    };
    let (desc, inputs) = in_order_reduction(&mut Rng::new(54));
    for (beginning, end) in [(Some(0), Some(1)), (Some(0), None), (None, Some(1))] {
        check_timed_record(&chosen, &desc, &inputs, beginning, end);
    }
}

#[test]
fn profiled_records_name_each_dispatch_between_timestamps_in_order() {
    // The benchmark's `--profile`: a timestamp before the first dispatch and after each,
    // the entry points named in order, the output the reference's.
    let Some(chosen) = timed_context() else {
        return;
    };
    let device = chosen.device();
    let (desc, inputs) = in_order_reduction(&mut Rng::new(55));
    let operator = chosen.compile(&desc).unwrap();
    let usage = STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let buffers = upload(device, &inputs);
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .map(|b| b.as_entire_buffer_binding())
        .collect();
    let buffer = |usage, size| buffer_on(device, usage, size);
    let output = buffer(usage, operator.output_size());
    let timestamps = |count| {
        device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count,
        })
    };
    let dispatches = operator.dispatch_count() as u32;
    let mut encoder = device.create_command_encoder(&Default::default());
    let too_few = operator.record_profiled(
        &mut encoder,
        &bindings,
        output.as_entire_buffer_binding(),
        &timestamps(dispatches),
    );
    assert!(
        matches!(too_few, Err(Error::InvalidTimestampWrites { .. })),
        "{too_few:?}"
    );
    let inside = wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES;
    let queries = timestamps(dispatches + 1);
    let profiled = operator.record_profiled(
        &mut encoder,
        &bindings,
        output.as_entire_buffer_binding(),
        &queries,
    );
    if !device.features().contains(inside) {
        assert!(
            matches!(profiled, Err(Error::InvalidTimestampWrites { .. })),
            "{profiled:?}"
        );
        return;
    }
    let entries = profiled.unwrap();
    // The clear, the sort's passes, the folds, the status: each named, none twice in a row
    // but the sort's repeated rounds.
    assert!(
        entries.len() >= 4 && entries.len() as u32 <= dispatches,
        "{entries:?}"
    );
    assert_eq!(entries[0], "clear_heads", "{entries:?}");
    assert!(entries.contains(&"radix_scatter"), "{entries:?}");
    let resolved = buffer(
        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        (dispatches as u64 + 1) * 8,
    );
    encoder.resolve_query_set(&queries, 0..entries.len() as u32 + 1, &resolved, 0);
    chosen.queue().submit([encoder.finish()]);
    let ticks: Vec<u64> = bytemuck::cast_slice(&read_on(&chosen, &resolved)).to_vec();
    let ticks = &ticks[..=entries.len()];
    assert!(
        ticks[0] != 0 && ticks.windows(2).all(|pair| pair[1] >= pair[0]),
        "{ticks:?}"
    );
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let expected = dml_wgsl::reference::run(&desc, &slices).unwrap();
    assert_eq!(read_on(&chosen, &output), expected);
}
