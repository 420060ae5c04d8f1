//! A context's pipelines: each built once (across threads too), sizes never building new
//! ones, `precompile` ahead of `compile`, the copy method measured when a context is made, and
//! the driver's pipeline cache handed out and taken back. What operators of a context share:
//! the plans of descs compiled again, scratch, status buffers.
//!
//! Each test makes its own context. On NVIDIA's Linux driver (580), several devices made and
//! dropped at once from several threads can deadlock inside the driver (BENCHMARKS.md, issue
//! 27's second session): there, run this file with `--test-threads=1`.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Expect, Rng, check_on, context_with, limited_context, random_inputs, read_on, reference_output,
    upload, write_indices,
};
use dml_wgsl::{
    CompiledOperator, Context, ContextOptions, CopyMethod, DataType, DuplicateMode,
    GatherElementsDesc, OperatorDesc, Reduction, ScatterElementsDesc, ScatterNdDesc, SliceDesc,
    TensorDesc,
};

/// A context that measures nothing when made: every pipeline it holds is one a test built.
fn quiet_context() -> Context {
    context_with(ContextOptions::default().with_copy_method(CopyMethod::Kernel))
}

fn small_slice(data_type: DataType) -> OperatorDesc {
    OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(data_type, &[4, 4]),
        TensorDesc::new(data_type, &[2, 2]),
        &[1, 1],
        &[2, 2],
        &[2, 2],
    ))
}

/// ScatterElements of `rows` x `length` along the inner axis (out of place: with the copy
/// method `Kernel` its rows are copied in the scatter's kernel from 256 units on), `width`
/// updates a row.
fn inner_axis_scatter(data_type: DataType, rows: u32, length: u32, width: u32) -> OperatorDesc {
    let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
    ScatterElementsDesc::new(
        tensor(&[rows, length]),
        TensorDesc::new(DataType::Int32, &[rows, width]),
        tensor(&[rows, width]),
        tensor(&[rows, length]),
        1,
    )
    .into()
}

/// ScatterElements along axis 0 of `length` x 8 with `reduction` in `duplicates` mode.
fn reducing_scatter(length: u32, reduction: Reduction, duplicates: DuplicateMode) -> OperatorDesc {
    let tensor = |sizes: &[u32]| TensorDesc::new(DataType::Float32, sizes);
    ScatterElementsDesc::new(
        tensor(&[length, 8]),
        TensorDesc::new(DataType::Int64, &[length.min(5), 8]),
        tensor(&[length.min(5), 8]),
        tensor(&[length, 8]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
    .into()
}

fn gather_elements(length: u32) -> OperatorDesc {
    GatherElementsDesc::new(
        TensorDesc::new(DataType::Float16, &[3, length, 4]),
        TensorDesc::new(DataType::Int64, &[3, length, 4]),
        TensorDesc::new(DataType::Float16, &[3, length, 4]),
        1,
    )
    .into()
}

/// Random inputs with every index in range (along the scatter's or gather's axis, whose
/// bound is `bound`).
fn inputs_in_range(rng: &mut Rng, desc: &OperatorDesc, bound: u32) -> Vec<Vec<u8>> {
    let mut inputs = random_inputs(rng, desc);
    let indices = desc.inputs()[1].1.clone();
    write_indices(&indices, &mut inputs[1], |_| {
        rng.range(0, bound as u64 - 1) as i128
    });
    inputs
}

/// Records `operator` into `encoder` on the whole of each buffer.
fn record_on(
    encoder: &mut wgpu::CommandEncoder,
    operator: &CompiledOperator,
    inputs: &[wgpu::Buffer],
    output: &wgpu::Buffer,
) {
    let bindings: Vec<wgpu::BufferBinding> = inputs
        .iter()
        .map(|b| b.as_entire_buffer_binding())
        .collect();
    operator
        .record(encoder, &bindings, output.as_entire_buffer_binding())
        .unwrap();
}

/// Records every operator of `runs` (with its buffers) into one encoder and submits it.
fn record_together(
    context: &Context,
    runs: &[(CompiledOperator, Vec<wgpu::Buffer>, wgpu::Buffer)],
) {
    let mut encoder = context.device().create_command_encoder(&Default::default());
    for (operator, buffers, output) in runs {
        record_on(&mut encoder, operator, buffers, output);
    }
    context.queue().submit([encoder.finish()]);
}

#[test]
fn pipelines_are_built_once_per_variant_across_threads() {
    let fresh = quiet_context();
    let desc = small_slice(DataType::Float32);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| fresh.compile(&desc).unwrap());
        }
    });
    assert_eq!(fresh.compiled_kernel_count(), 1);
    assert_eq!(fresh.compiled_pipeline_count(), 1);
    let bytes = small_slice(DataType::UInt8);
    fresh.compile(&bytes).unwrap();
    fresh.compile(&bytes).unwrap();
    assert_eq!(fresh.compiled_kernel_count(), 2);
    assert_eq!(fresh.compiled_pipeline_count(), 2);
}

#[test]
fn a_growing_sequence_builds_no_pipeline_past_its_first_length() {
    let fresh = quiet_context();
    // What a decoder's growing length changes: every length from 1 to 300 (strided
    // gathers, reductions in both modes).
    for desc_at in [
        gather_elements as fn(u32) -> OperatorDesc,
        |n| reducing_scatter(n, Reduction::Add, DuplicateMode::AnyUpdate),
        |n| reducing_scatter(n, Reduction::Max, DuplicateMode::InOrder),
    ] {
        // A few lengths first: the smallest take other lowerings (a single row, one update),
        // and the largest: past 2048 output units a reduction combines per update, not in
        // workgroup bins (an entry point each, whatever the length).
        for n in (1..=8).chain([300]) {
            fresh.compile(&desc_at(n)).unwrap();
        }
        let built = fresh.compiled_pipeline_count();
        for n in 9..=300 {
            fresh.compile(&desc_at(n)).unwrap();
        }
        assert_eq!(fresh.compiled_pipeline_count(), built, "{:?}", desc_at(300));
    }
}

#[test]
fn rows_copied_in_the_scatter_kernel_share_a_pipeline_per_power_of_two() {
    let fresh = quiet_context();
    let mut rng = Rng::new(2701);
    for data_type in [DataType::Float32, DataType::Int8, DataType::Float16] {
        fresh
            .compile(&inner_axis_scatter(data_type, 2, 256, 3))
            .unwrap();
        let before = fresh.compiled_pipeline_count();
        // Row lengths of 257 to 1100 units: capacities of 512, 1024 and 2048 units.
        for length in (257..=1100).step_by(7) {
            fresh
                .compile(&inner_axis_scatter(data_type, 2, length, 3))
                .unwrap();
        }
        let built = fresh.compiled_pipeline_count() - before;
        assert_eq!(
            built, 3,
            "{data_type:?}: capacities 512, 1024 and 2048 for 121 lengths"
        );
        // Rows shorter than their capacity (and one exactly as long) scatter bit-exact.
        for length in [257, 300, 512, 777, 1100] {
            let desc = inner_axis_scatter(data_type, 3, length, 5);
            let inputs = inputs_in_range(&mut rng, &desc, length);
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            check_on(&fresh, &desc, &slices, Expect::AnyUpdate)
                .unwrap_or_else(|e| panic!("{data_type:?} rows of {length}: {e}"));
        }
    }
}

#[test]
fn precompiled_operators_compile_without_building_a_pipeline() {
    let fresh = quiet_context();
    let descs = [
        small_slice(DataType::Float32),
        gather_elements(5),
        inner_axis_scatter(DataType::Int8, 2, 300, 4),
        reducing_scatter(6, Reduction::Add, DuplicateMode::AnyUpdate),
        reducing_scatter(6, Reduction::Mul, DuplicateMode::InOrder),
        reducing_scatter(6, Reduction::Max, DuplicateMode::InOrder),
    ];
    fresh.precompile(&descs).unwrap();
    let built = fresh.compiled_pipeline_count();
    assert!(built >= descs.len(), "{built} pipelines");
    // Their plans too: a compile of them only looks one up.
    assert_eq!(fresh.remembered_plan_count(), descs.len());
    for desc in &descs {
        fresh.compile(desc).unwrap();
    }
    // Other sizes of the same descs too.
    fresh.compile(&gather_elements(77)).unwrap();
    fresh
        .compile(&reducing_scatter(
            40,
            Reduction::Max,
            DuplicateMode::InOrder,
        ))
        .unwrap();
    assert_eq!(fresh.compiled_pipeline_count(), built);
    // Precompiling again builds nothing.
    fresh.precompile(&descs).unwrap();
    assert_eq!(fresh.compiled_pipeline_count(), built);
}

#[test]
fn precompile_reports_an_invalid_desc_and_still_builds_the_others() {
    let fresh = quiet_context();
    let invalid = OperatorDesc::Slice(SliceDesc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[2, 2]),
        &[3, 3],
        &[2, 2],
        &[1, 1],
    ));
    let expected = fresh.compile(&invalid).unwrap_err();
    let valid = gather_elements(9);
    assert_eq!(
        fresh.precompile(&[invalid, valid.clone()]).unwrap_err(),
        expected
    );
    let built = fresh.compiled_pipeline_count();
    assert!(built >= 1);
    fresh.compile(&valid).unwrap();
    assert_eq!(fresh.compiled_pipeline_count(), built);
}

#[test]
fn a_context_measures_its_copy_method_when_made_unless_given_one() {
    let measuring = limited_context(|_| {});
    // The measurement compiled the copy kernel and ran it, and remembers none of its descs.
    assert!(measuring.compiled_pipeline_count() >= 1);
    assert_eq!(measuring.remembered_plan_count(), 0);
    let measured = measuring.copy_method();
    assert_eq!(measuring.copy_method(), measured);
    for method in [CopyMethod::Kernel, CopyMethod::CopyBufferToBuffer] {
        let given = context_with(ContextOptions::default().with_copy_method(method));
        assert_eq!(given.compiled_pipeline_count(), 0);
        assert_eq!(given.copy_method(), method);
    }
}

#[test]
fn the_pipeline_cache_round_trips_into_a_new_context() {
    let first = quiet_context();
    let name = first.adapter_info().name;
    let has_cache = first
        .device()
        .features()
        .contains(wgpu::Features::PIPELINE_CACHE);
    let descs = [
        small_slice(DataType::Float32),
        gather_elements(6),
        reducing_scatter(7, Reduction::Min, DuplicateMode::InOrder),
    ];
    first.precompile(&descs).unwrap();
    let Some(data) = first.pipeline_cache_data() else {
        // No pipeline cache on this adapter (GL, Metal, DX12, WebGPU), or a driver that gives
        // no data (allowed): the calls say so.
        eprintln!("{name}: no pipeline cache data (PIPELINE_CACHE: {has_cache})");
        // SAFETY: these bytes fail our checksum: they never reach the driver.
        let options = unsafe {
            ContextOptions::default()
                .with_copy_method(CopyMethod::Kernel)
                .with_pipeline_cache_data(vec![1, 2, 3])
        };
        let given = context_with(options);
        assert!(!given.pipeline_cache_seeded());
        assert_eq!(given.pipeline_cache_data(), None);
        return;
    };
    assert!(has_cache);
    assert!(!first.pipeline_cache_seeded());
    let with = |data: Vec<u8>| {
        // SAFETY: the first context's own bytes, or bytes our checksum refuses (damaged,
        // truncated, made up, empty): nothing else reaches the driver.
        let options = unsafe {
            ContextOptions::default()
                .with_copy_method(CopyMethod::Kernel)
                .with_pipeline_cache_data(data)
        };
        context_with(options)
    };
    let mut damaged = data.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x40;
    let mut rng = Rng::new(2702);
    for (data, seeded) in [
        (data.clone(), true),
        (damaged, false),
        (data[..data.len() - 1].to_vec(), false),
        (b"not a pipeline cache".to_vec(), false),
        (Vec::new(), false),
    ] {
        let second = with(data);
        assert_eq!(second.pipeline_cache_seeded(), seeded, "{name}");
        // The second context builds its pipelines (through the driver's cache) and gets
        // the reference's bytes either way.
        for length in [6, 40] {
            let desc = gather_elements(length);
            let inputs = inputs_in_range(&mut rng, &desc, length);
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            check_on(&second, &desc, &slices, Expect::Exact).unwrap();
        }
        assert!(second.pipeline_cache_data().is_some());
    }
}

#[test]
fn operators_sharing_the_contexts_scratch_each_get_their_own_results_in_one_encoder() {
    let fresh = quiet_context();
    let mut rng = Rng::new(2703);
    // In-order reductions (scratch and links, shared by the context's operators) of two
    // sizes, the smaller compiled after the larger, recorded larger, smaller, larger.
    let mut runs = Vec::new();
    let mut expected = Vec::new();
    for (length, reduction) in [
        (40, Reduction::Add),
        (9, Reduction::Mul),
        (40, Reduction::Max),
    ] {
        let desc = reducing_scatter(length, reduction, DuplicateMode::InOrder);
        // Random bits (NaNs, subnormals): the in-order result is exact for every pattern.
        let inputs = inputs_in_range(&mut rng, &desc, length);
        let operator = fresh.compile(&desc).unwrap();
        let (buffers, output) = upload(&fresh, &operator, &inputs);
        expected.push(reference_output(&desc, &inputs));
        runs.push((operator, buffers, output));
    }
    record_together(&fresh, &runs);
    for (k, ((_, _, output), expected)) in runs.iter().zip(&expected).enumerate() {
        assert_eq!(&read_on(&fresh, output), expected, "operator {k}");
    }
}

#[test]
fn operators_report_their_own_out_of_range_indices_recorded_in_one_encoder() {
    let fresh = quiet_context();
    let mut rng = Rng::new(2704);
    // Seventy operators of few shapes (shared plans), every third with an index out
    // of range, all recorded into one encoder; then some dropped and others compiled.
    let mut compile = |length: u32, bad: bool| {
        let desc = gather_elements(length);
        let mut inputs = inputs_in_range(&mut rng, &desc, length);
        if bad {
            let indices = desc.inputs()[1].1.clone();
            write_indices(&indices, &mut inputs[1], |c| {
                if c == [1, 2, 3] { 99 } else { 0 }
            });
        }
        let operator = fresh.compile(&desc).unwrap();
        let (buffers, output) = upload(&fresh, &operator, &inputs);
        ((operator, buffers, output), bad)
    };
    let (mut runs, mut bad): (Vec<_>, Vec<bool>) =
        (0..70u32).map(|k| compile(5 + k % 3, k % 3 == 0)).unzip();
    let check = |runs: &[(CompiledOperator, Vec<wgpu::Buffer>, wgpu::Buffer)], bad: &[bool]| {
        record_together(&fresh, runs);
        for (k, ((operator, _, _), bad)) in runs.iter().zip(bad).enumerate() {
            let status = operator.check_status_blocking();
            assert_eq!(status.is_err(), *bad, "operator {k}: {status:?}");
        }
    };
    check(&runs, &bad);
    // Drop 20 of those that reported and compile good ones in their place: before they run,
    // they report nothing.
    let mut dropped = 0;
    let mut k = 0;
    while dropped < 20 {
        if !bad[k] {
            k += 1;
            continue;
        }
        runs.remove(k);
        bad.remove(k);
        dropped += 1;
    }
    for _ in 0..20 {
        let (run, is_bad) = compile(6, false);
        assert_eq!(
            run.0.check_status_blocking(),
            Ok(()),
            "before its first run"
        );
        runs.push(run);
        bad.push(is_bad);
    }
    check(&runs, &bad);
}

/// Compiles `desc`, uploads `inputs` and records the operator into `encoder`.
fn compile_and_record(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[Vec<u8>],
    encoder: &mut wgpu::CommandEncoder,
) -> (CompiledOperator, wgpu::Buffer) {
    let operator = context.compile(desc).unwrap();
    let (buffers, output) = upload(context, &operator, inputs);
    record_on(encoder, &operator, &buffers, &output);
    (operator, output)
}

#[test]
fn a_desc_compiled_again_is_remembered_and_each_operator_still_runs_on_its_own() {
    let fresh = quiet_context();
    let mut rng = Rng::new(2705);
    let desc = reducing_scatter(12, Reduction::Max, DuplicateMode::InOrder);
    let mut encoder = fresh.device().create_command_encoder(&Default::default());
    let mut runs = Vec::new();
    for _ in 0..3 {
        let inputs = inputs_in_range(&mut rng, &desc, 12);
        let (operator, output) = compile_and_record(&fresh, &desc, &inputs, &mut encoder);
        runs.push((operator, output, reference_output(&desc, &inputs)));
    }
    assert_eq!(fresh.remembered_plan_count(), 1);
    fresh.queue().submit([encoder.finish()]);
    for (k, (operator, output, expected)) in runs.iter().enumerate() {
        assert_eq!(&read_on(&fresh, output), expected, "operator {k}");
        assert_eq!(operator.check_status_blocking(), Ok(()), "operator {k}");
    }
    // Forgotten, the plan is made again; the operators compiled before still run.
    fresh.release_unused_memory();
    assert_eq!(fresh.remembered_plan_count(), 0);
    let pipelines = fresh.compiled_pipeline_count();
    fresh.compile(&desc).unwrap();
    assert_eq!(fresh.remembered_plan_count(), 1);
    assert_eq!(fresh.compiled_pipeline_count(), pipelines);
    let (operator, output, expected) = &runs[0];
    let mut encoder = fresh.device().create_command_encoder(&Default::default());
    let inputs = inputs_in_range(&mut rng, &desc, 12);
    let (buffers, _) = upload(&fresh, operator, &inputs);
    record_on(&mut encoder, operator, &buffers, output);
    fresh.queue().submit([encoder.finish()]);
    let again = reference_output(&desc, &inputs);
    assert_ne!(&again, expected, "new random inputs");
    assert_eq!(read_on(&fresh, output), again);
}

#[test]
fn an_operator_recorded_twice_in_one_encoder_zeroes_its_scratch_each_time() {
    // The in-order scatter's winners and the reductions' heads are zeroed by each execution's
    // first dispatch: the second execution, on other inputs into the same output buffer, ends
    // as the reference of its own inputs.
    let fresh = quiet_context();
    let mut rng = Rng::new(2707);
    let rows: OperatorDesc = ScatterNdDesc::new(
        TensorDesc::new(DataType::Float32, &[16, 64]),
        TensorDesc::new(DataType::Int64, &[10, 1]),
        TensorDesc::new(DataType::Float32, &[10, 64]),
        TensorDesc::new(DataType::Float32, &[16, 64]),
        2,
        2,
    )
    .with_reduction(Reduction::Add)
    .into();
    let descs = [
        // Winners.
        reducing_scatter(12, Reduction::None, DuplicateMode::InOrder),
        // Heads: the float ties, the sorted runs, the row lists.
        reducing_scatter(12, Reduction::Max, DuplicateMode::InOrder),
        reducing_scatter(12, Reduction::Add, DuplicateMode::InOrder),
        rows,
    ];
    // Small whole numbers, whose float sums are exact in any order (the row lists add in any).
    let mut whole_numbers = |desc: &OperatorDesc| {
        let mut inputs = inputs_in_range(&mut rng, desc, 12);
        for k in [0, 2] {
            let count = inputs[k].len() / 4;
            let values: Vec<f32> = (0..count).map(|_| rng.range(0, 15) as f32).collect();
            inputs[k] = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        }
        inputs
    };
    for desc in descs {
        let operator = fresh.compile(&desc).unwrap();
        let first = whole_numbers(&desc);
        let second = whole_numbers(&desc);
        let (first_buffers, output) = upload(&fresh, &operator, &first);
        let (second_buffers, _) = upload(&fresh, &operator, &second);
        let mut encoder = fresh.device().create_command_encoder(&Default::default());
        record_on(&mut encoder, &operator, &first_buffers, &output);
        record_on(&mut encoder, &operator, &second_buffers, &output);
        fresh.queue().submit([encoder.finish()]);
        assert!(
            read_on(&fresh, &output) == reference_output(&desc, &second),
            "{desc:?}: the second execution's output is not its reference's"
        );
    }
}

#[test]
fn a_context_remembers_the_plans_of_its_latest_descs_only() {
    let fresh = quiet_context();
    let first = gather_elements(1);
    fresh.compile(&first).unwrap();
    let pipelines = fresh.compiled_pipeline_count();
    // A sequence growing past the bound (lengths 9 on: one layout class, no new pipeline),
    // the first desc compiled again now and then: it stays remembered.
    let mut most = 0;
    for length in 9..700 {
        fresh.compile(&gather_elements(length)).unwrap();
        if length % 100 == 0 {
            fresh.compile(&first).unwrap();
        }
        most = most.max(fresh.remembered_plan_count());
    }
    // Filled to the bound once, then the older half forgotten.
    assert_eq!(most, 512);
    let remembered = fresh.remembered_plan_count();
    assert!(remembered < 512, "{remembered} remembered");
    // The latest and the first, asked for now and then, are remembered; the first lengths
    // of the sequence are not.
    for desc in [first, gather_elements(699)] {
        fresh.compile(&desc).unwrap();
        assert_eq!(fresh.remembered_plan_count(), remembered);
    }
    fresh.compile(&gather_elements(9)).unwrap();
    assert_eq!(fresh.remembered_plan_count(), remembered + 1);
    assert!(fresh.compiled_pipeline_count() <= pipelines + 2);
}

#[test]
fn an_operator_dropped_before_its_commands_run_never_writes_a_later_operators_status() {
    let fresh = quiet_context();
    let mut rng = Rng::new(2706);
    let desc = gather_elements(5);
    let mut bad = inputs_in_range(&mut rng, &desc, 5);
    let indices = desc.inputs()[1].1.clone();
    write_indices(
        &indices,
        &mut bad[1],
        |c| if c == [2, 1, 0] { -9 } else { 1 },
    );
    // The indices are out of range: an operator that runs them reports it.
    let mut encoder = fresh.device().create_command_encoder(&Default::default());
    let (control, _) = compile_and_record(&fresh, &desc, &bad, &mut encoder);
    fresh.queue().submit([encoder.finish()]);
    assert!(control.check_status_blocking().is_err());
    // Past one status buffer's slots, so that slots of several buffers are checked.
    for _ in 0..70 {
        let mut encoder = fresh.device().create_command_encoder(&Default::default());
        let (dropped, _) = compile_and_record(&fresh, &desc, &bad, &mut encoder);
        drop(dropped);
        let later = fresh.compile(&desc).unwrap();
        fresh.queue().submit([encoder.finish()]);
        assert_eq!(later.check_status_blocking(), Ok(()));
    }
}
