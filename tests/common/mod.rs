//! Shared test machinery: one GPU context per test binary, a seeded generator, and the
//! guard-banded differential check against `dml_wgsl::reference`.
#![allow(dead_code)]

use std::sync::OnceLock;

pub mod cases;

pub use cases::*;
use std::collections::HashMap;

use dml_wgsl::{
    Context, DuplicateMode, OperatorDesc, ScatterElementsDesc, ScatterNdDesc, TensorDesc, reference,
};

/// The test binary's context. A missing adapter fails the test, never skips it.
pub fn context() -> &'static Context {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        let context = Context::new_blocking().unwrap_or_else(|e| {
            panic!("GPU tests need an adapter (lavapipe: apt-get install mesa-vulkan-drivers): {e}")
        });
        eprintln!("adapter: {:?}", context.adapter_info());
        context
    })
}

/// A second context on the same adapter kind with some limits lowered (never raised past the
/// adapter's: `change` sees the adapter's limits).
pub fn limited_context(change: impl Fn(&mut wgpu::Limits)) -> Context {
    limited_contexts(1, change).remove(0)
}

/// `count` contexts on devices of one adapter (one wgpu instance), limits changed as in
/// [`limited_context`].
pub fn limited_contexts(count: usize, change: impl Fn(&mut wgpu::Limits)) -> Vec<Context> {
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
            contexts.push(Context::from_device(device, queue));
        }
        contexts
    })
}

/// Fills guard bands and bytes no element covers.
pub const SENTINEL: u8 = 0xA7;

/// Which bytes of `t`'s buffer range belong to an element.
pub fn covered_bytes(t: &TensorDesc) -> Vec<bool> {
    let mut covered = vec![false; t.size_in_bytes() as usize];
    let strides = t.effective_strides();
    let width = t.data_type.size_in_bytes() as u64;
    let mut c = vec![0u32; t.rank()];
    'all: loop {
        let element: u64 = c.iter().zip(&strides).map(|(&c, &s)| c as u64 * s).sum();
        for b in 0..width {
            covered[(element * width + b) as usize] = true;
        }
        for d in (0..t.rank()).rev() {
            c[d] += 1;
            if c[d] < t.sizes[d] {
                continue 'all;
            }
            c[d] = 0;
        }
        break;
    }
    covered
}

/// Runs `desc` on the GPU through `compile` + `record`, with every tensor placed after a
/// guard band inside a larger buffer, and checks bit for bit against the reference (whose
/// status must be `Ok`): covered output bytes equal the reference's, every other byte of the
/// output buffer (uncovered bytes, the guard bands) still holds the sentinel. Returns the
/// output bytes.
pub fn check_against_reference(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<u8> {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let expected = reference::run(desc, &slices).expect("reference run");
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

/// What a differential check holds the GPU's output to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The reference's bytes, exactly.
    Exact,
    /// Each scatter target equals one of the updates aimed at it (`DuplicateMode::AnyUpdate`).
    AnyUpdate,
    /// `AnyUpdate` for a scatter in that mode, `Exact` for everything else.
    ByMode,
}

/// The differential check behind the others, on any context: runs `desc` through `compile` +
/// `record` with guard bands and holds the output, the guard bands and the status
/// (`check_status`, out-of-range indices included) to the reference's. Panics on a mismatch;
/// returns `Err` where `compile` or `record` refuse the case (a device's limits).
pub fn check_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) -> dml_wgsl::Result<()> {
    let (expected, status) = reference::run_with_status(desc, inputs).expect("reference");
    let (actual, recorded) = run_guarded_on(context, desc, inputs)?;
    assert_eq!(recorded, status, "check_status after record for {desc:?}");
    let output = desc.output();
    let guard = guard_size_on(context) as usize;
    let body = &actual[guard..guard + output.size_in_bytes() as usize];
    assert!(
        actual[..guard].iter().all(|&b| b == SENTINEL),
        "guard band before the output was written: {desc:?}"
    );
    assert!(
        actual[guard + body.len()..].iter().all(|&b| b == SENTINEL),
        "guard band after the output was written: {desc:?}"
    );
    let covered = covered_bytes(output);
    let any_update = match expect {
        Expect::Exact => false,
        Expect::AnyUpdate => true,
        Expect::ByMode => matches!(
            desc,
            OperatorDesc::ScatterElements(ScatterElementsDesc {
                duplicates: DuplicateMode::AnyUpdate,
                ..
            }) | OperatorDesc::ScatterNd(ScatterNdDesc {
                duplicates: DuplicateMode::AnyUpdate,
                ..
            })
        ),
    };
    let mut candidates: HashMap<usize, Vec<&[u8]>> = HashMap::new();
    let width = output.data_type.size_in_bytes() as usize;
    if any_update {
        let writes = reference::scatter_writes(desc, inputs).expect("writes");
        assert_eq!(writes.status, status);
        for w in &writes.writes {
            let from = w.updates_offset as usize;
            candidates
                .entry(w.output_offset as usize)
                .or_default()
                .push(&inputs[2][from..from + width]);
        }
    }
    for at in (0..body.len()).step_by(width) {
        let end = (at + width).min(body.len());
        let got = &body[at..end];
        match candidates.get(&at) {
            Some(options) => assert!(
                options.contains(&got),
                "element at byte {at}: {got:?} is none of the updates {options:?} ({desc:?})"
            ),
            None => {
                for i in at..end {
                    let want = if covered[i] { expected[i] } else { SENTINEL };
                    assert_eq!(
                        body[i], want,
                        "output byte {i} (covered: {}) differs for {desc:?}",
                        covered[i]
                    );
                }
            }
        }
    }
    Ok(())
}

/// The guard band: the device's storage offset alignment, at least 256 bytes.
pub fn guard_size() -> u64 {
    guard_size_on(context())
}

pub fn guard_size_on(context: &Context) -> u64 {
    (context
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64)
        .max(256)
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
    run_guarded_on(context(), desc, inputs).expect("compile and record")
}

/// [`run_guarded_with_status`] on any context; `Err` where `compile` or `record` refuse.
pub fn run_guarded_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
) -> dml_wgsl::Result<(Vec<u8>, dml_wgsl::Result<()>)> {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let operator = context.compile(desc)?;
    let guard = guard_size_on(context);
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let padded = |data: &[u8], bytes: u64| {
        let mut v = vec![SENTINEL; (guard * 2 + bytes) as usize];
        v[guard as usize..(guard + bytes) as usize].copy_from_slice(&data[..bytes as usize]);
        v
    };
    let buffers: Vec<wgpu::Buffer> = inputs
        .iter()
        .zip(operator.input_sizes())
        .map(|(data, bytes)| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("guarded input"),
                contents: &padded(data, bytes),
                usage: storage,
            })
        })
        .collect();
    let out_bytes = operator.output_size();
    let total = guard * 2 + out_bytes;
    let output = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("guarded output"),
        contents: &vec![SENTINEL; total as usize],
        usage: storage,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: total,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .zip(operator.input_sizes())
        .map(|(b, bytes)| wgpu::BufferBinding {
            buffer: b,
            offset: guard,
            size: std::num::NonZeroU64::new(bytes),
        })
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator.record(
        &mut encoder,
        &bindings,
        wgpu::BufferBinding {
            buffer: &output,
            offset: guard,
            size: std::num::NonZeroU64::new(out_bytes),
        },
    )?;
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, total);
    context.queue().submit([encoder.finish()]);
    let bytes = read_buffer_on(device, &readback);
    Ok((bytes, operator.check_status_blocking()))
}

/// For a case with an out-of-range index: `run`'s error equals the reference's; through
/// `record`, `check_status` reports the same, and the output is as the reference left it
/// (the offending updates skipped, a gather's elements zero) with nothing outside it
/// touched. Returns the error.
pub fn check_out_of_range(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> dml_wgsl::Error {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let (_, status) = reference::run_with_status(desc, &slices).expect("reference");
    let reference_error = status.expect_err("the case has a bad index");
    let error = context()
        .run_blocking(desc, &slices)
        .expect_err("run reports it");
    assert_eq!(error, reference_error);
    check_on(context(), desc, &slices, Expect::Exact).expect("compile and record");
    error
}

/// Maps a MAP_READ buffer and returns its bytes (blocking).
pub fn read_buffer(buffer: &wgpu::Buffer) -> Vec<u8> {
    read_buffer_on(context().device(), buffer)
}

pub fn read_buffer_on(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u8> {
    buffer.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
    buffer.unmap();
    data
}
