//! Shared native test machinery: one GPU context per test binary, contexts with lowered
//! limits, and blocking forms of the differential check (`check.rs`, shared with the
//! browser tests) over the random cases (`cases.rs`).
#![allow(dead_code, unused_imports)] // each test binary uses its own part

use std::sync::{Mutex, OnceLock};

pub mod cases;
pub mod check;
pub mod fuzzing;
pub mod narrow;
pub mod pools;
pub mod reductions;

pub use cases::*;
pub use check::{Expect, SENTINEL, covered_bytes, guard_size_on, scatter_options};
use dml_wgsl::{Context, OperatorDesc, reference};
pub use pools::{DOUBLE_SUMS, SUMS, pooled_bytes, tie_pool, tie_pools};
pub use reductions::{reduction_one_update_each, run_f32_reduction};

/// Held while a test opens a wgpu instance, adapter and device: on the NVIDIA H100 (driver
/// 580), tests opening devices on several threads at once hung in about 1 run in 6.
static OPENING_DEVICES: Mutex<()> = Mutex::new(());

/// The test binary's context. A missing adapter fails the test, never skips it.
pub fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let _opening = OPENING_DEVICES.lock().unwrap_or_else(|p| p.into_inner());
        let context = Context::new_blocking().unwrap_or_else(|e| {
            panic!("GPU tests need an adapter (lavapipe: apt-get install mesa-vulkan-drivers): {e}")
        });
        eprintln!("adapter: {:?}", context.adapter_info());
        context
    })
}

/// `operator`'s inputs in new storage buffers, and an output buffer of its size (with
/// `COPY_SRC`, to read it back).
pub fn upload(
    context: &Context,
    operator: &dml_wgsl::CompiledOperator,
    inputs: &[impl AsRef<[u8]>],
) -> (Vec<wgpu::Buffer>, wgpu::Buffer) {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let buffers = inputs
        .iter()
        .map(|data| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: data.as_ref(),
                usage: wgpu::BufferUsages::STORAGE,
            })
        })
        .collect();
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: operator.output_size(),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    (buffers, output)
}

/// A context of its own on the default adapter, made with `options`.
pub fn context_with(options: dml_wgsl::ContextOptions) -> Context {
    let _opening = OPENING_DEVICES.lock().unwrap_or_else(|p| p.into_inner());
    Context::new_blocking_with(options).expect("an adapter")
}

/// A second context on the same adapter kind with some limits lowered (never raised past the
/// adapter's: `change` sees the adapter's limits).
pub fn limited_context(change: impl Fn(&mut wgpu::Limits)) -> Context {
    limited_contexts(1, change).remove(0)
}

/// `count` contexts on devices of one adapter (one wgpu instance), limits changed as in
/// [`limited_context`].
pub fn limited_contexts(count: usize, change: impl Fn(&mut wgpu::Limits)) -> Vec<Context> {
    limited_contexts_with(count, dml_wgsl::ContextOptions::default(), change)
}

/// [`limited_contexts`] with `options`.
pub fn limited_contexts_with(
    count: usize,
    options: dml_wgsl::ContextOptions,
    change: impl Fn(&mut wgpu::Limits),
) -> Vec<Context> {
    let _opening = OPENING_DEVICES.lock().unwrap_or_else(|p| p.into_inner());
    pollster::block_on(async {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions::default())
            .await
            .expect("an adapter");
        let mut limits = adapter.limits();
        change(&mut limits);
        let mut contexts = Vec::new();
        for _ in 0..count {
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    required_limits: limits.clone(),
                    ..Default::default()
                })
                .await
                .expect("a device");
            contexts.push(Context::from_device_with(device, queue, options.clone()));
        }
        contexts
    })
}

/// The reference's output of `desc` on `inputs` (its status must be `Ok`).
pub fn reference_output(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<u8> {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    reference::run(desc, &slices).expect("reference run")
}

/// Runs `desc` on the GPU through `compile` + `record` with guard bands and checks bit for
/// bit against the reference (whose status must be `Ok`). Returns the reference's output.
pub fn check_against_reference(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<u8> {
    let expected = reference_output(desc, inputs);
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    check_on(context(), desc, &slices, Expect::Exact).expect("compile and record");
    expected
}

/// Runs a scatter in `DuplicateMode::AnyUpdate` through `record` with guard bands and checks
/// that every output element equals one of the updates aimed at it (or the input when none
/// is), bit for bit, and that nothing else changed.
pub fn check_scatter_any_update(desc: &OperatorDesc, inputs: &[Vec<u8>]) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    check_on(context(), desc, &slices, Expect::AnyUpdate).expect("compile and record");
}

/// [`check::check_on`], blocking.
pub fn check_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) -> dml_wgsl::Result<()> {
    pollster::block_on(check::check_on(context, desc, inputs, expect))
}

/// The guard band of the test binary's context.
pub fn guard_size() -> u64 {
    guard_size_on(context())
}

/// Runs through `record` with guard bands; returns the whole output buffer (guards included).
pub fn run_guarded(desc: &OperatorDesc, inputs: &[&[u8]]) -> Vec<u8> {
    run_guarded_with_status(desc, inputs).0
}

/// [`run_guarded`], with the status `check_status` reads afterwards.
pub fn run_guarded_with_status(
    desc: &OperatorDesc,
    inputs: &[&[u8]],
) -> (Vec<u8>, dml_wgsl::Result<()>) {
    pollster::block_on(check::run_guarded_on(context(), desc, inputs)).expect("compile and record")
}

/// For a case with an out-of-range index: `run`'s error equals the reference's; through
/// `record`, `check_status` reports the same, and the output is as the reference left it
/// (the offending updates skipped, a gather's elements zero) with nothing outside it
/// touched. Returns the error.
pub fn check_out_of_range(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> dml_wgsl::Error {
    check_out_of_range_on(context(), desc, inputs)
}

/// [`check_out_of_range`] on `context`.
pub fn check_out_of_range_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[Vec<u8>],
) -> dml_wgsl::Error {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let (_, status) = reference::run_with_status(desc, &slices).expect("reference");
    let reference_error = status.expect_err("the case has a bad index");
    let error = context
        .run_blocking(desc, &slices)
        .expect_err("run reports it");
    assert_eq!(error, reference_error);
    check_on(context, desc, &slices, Expect::Exact).expect("compile and record");
    error
}

/// [`check::check_run_on`] on the test binary's context, blocking: `run` against the
/// reference, errors included.
pub fn check_run(desc: &OperatorDesc, inputs: &[Vec<u8>]) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    pollster::block_on(check::check_run_on(context(), desc, &slices, Expect::Exact));
}

/// [`check::check_in_place_on`] on the test binary's context, blocking.
pub fn check_in_place(desc: &OperatorDesc, inputs: &[Vec<u8>]) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    pollster::block_on(check::check_in_place_on(context(), desc, &slices));
}

/// [`check_in_place`] on `context`, covered bytes held to the reference as `expect` says.
pub fn check_in_place_with(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[Vec<u8>],
    expect: Expect,
) {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    pollster::block_on(check::check_in_place_expecting(
        context, desc, &slices, expect,
    ));
}

/// Maps a MAP_READ buffer of the test binary's device and returns its bytes (blocking).
pub fn read_buffer(buffer: &wgpu::Buffer) -> Vec<u8> {
    pollster::block_on(check::read_back(context().device(), buffer))
}

/// The bytes of `buffer` (with `COPY_SRC`) on `context`'s device (blocking).
pub fn read_on(context: &Context, buffer: &wgpu::Buffer) -> Vec<u8> {
    let device = context.device();
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, buffer.size());
    context.queue().submit([encoder.finish()]);
    pollster::block_on(check::read_back(device, &readback))
}
