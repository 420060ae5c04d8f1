//! The differential check against `dml_wgsl::reference`, written once as `async` functions
//! on any context: the native tests run them under pollster (`tests/common/mod.rs`), the
//! browser tests under wasm-bindgen-test (`tests/web.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use dml_wgsl::{
    Context, DuplicateMode, OperatorDesc, ScatterElementsDesc, ScatterNdDesc, TensorDesc, reference,
};

use super::cases::for_each_coordinate;

/// Fills guard bands and bytes no element covers.
pub const SENTINEL: u8 = 0xA7;

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

impl Expect {
    fn any_update(self, desc: &OperatorDesc) -> bool {
        match self {
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
        }
    }
}

/// Which bytes of `t`'s buffer range belong to an element.
pub fn covered_bytes(t: &TensorDesc) -> Vec<bool> {
    let mut covered = vec![false; t.size_in_bytes() as usize];
    let width = t.data_type.size_in_bytes() as u64;
    for_each_coordinate(&t.sizes, |c| {
        let at = t.byte_offset(c);
        for b in at..at + width {
            covered[b as usize] = true;
        }
    });
    covered
}

/// Holds an output tensor's bytes to the reference's: covered bytes equal (or, for a scatter
/// checked as `AnyUpdate`, each element equals one of the updates aimed at it), bytes no
/// element covers equal `uncovered`.
fn check_output(desc: &OperatorDesc, inputs: &[&[u8]], body: &[u8], uncovered: u8, expect: Expect) {
    let (expected, status) = reference::run_with_status(desc, inputs).expect("reference");
    let output = desc.output();
    assert_eq!(body.len() as u64, output.size_in_bytes(), "output size");
    let covered = covered_bytes(output);
    let width = output.data_type.size_in_bytes() as usize;
    let mut candidates: HashMap<usize, Vec<&[u8]>> = HashMap::new();
    if expect.any_update(desc) {
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
                    let want = if covered[i] { expected[i] } else { uncovered };
                    assert_eq!(
                        body[i], want,
                        "output byte {i} (covered: {}) differs for {desc:?}",
                        covered[i]
                    );
                }
            }
        }
    }
}

/// Runs `desc` through `compile` + `record`, every tensor after a guard band inside a larger
/// buffer, and holds the output, the guard bands (and bytes no element covers: the
/// sentinel) and the status `check_status` reads (out-of-range indices included) to the
/// reference's. Panics on a mismatch; `Err` where `compile` or `record` refuse the case.
pub async fn check_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) -> dml_wgsl::Result<()> {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let (actual, recorded) = run_guarded_on(context, desc, inputs).await?;
    assert_eq!(recorded, status, "check_status after record for {desc:?}");
    let guard = guard_size_on(context) as usize;
    let body = &actual[guard..actual.len() - guard];
    assert!(
        actual[..guard].iter().all(|&b| b == SENTINEL),
        "guard band before the output was written: {desc:?}"
    );
    assert!(
        actual[guard + body.len()..].iter().all(|&b| b == SENTINEL),
        "guard band after the output was written: {desc:?}"
    );
    check_output(desc, inputs, body, SENTINEL, expect);
    Ok(())
}

/// `Context::run` against the reference: the same error, or the same output (bytes no
/// element covers are zero).
pub async fn check_run_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let result = context.run(desc, inputs).await;
    match status {
        Err(e) => assert_eq!(result, Err(e), "run for {desc:?}"),
        Ok(()) => check_output(desc, inputs, &result.expect("run"), 0, expect),
    }
}

/// The guard band: the device's storage offset alignment, at least 256 bytes.
pub fn guard_size_on(context: &Context) -> u64 {
    (context
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64)
        .max(256)
}

/// Runs through `record` with guard bands: the whole output buffer (guards included) and
/// the status `check_status` reads; `Err` where `compile` or `record` refuse.
pub async fn run_guarded_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
) -> dml_wgsl::Result<(Vec<u8>, dml_wgsl::Result<()>)> {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let operator = context.compile(desc)?;
    let guard = guard_size_on(context);
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let guarded = |data: &[u8], bytes: u64, label| {
        let mut v = vec![SENTINEL; (guard * 2 + bytes) as usize];
        v[guard as usize..(guard + bytes) as usize].copy_from_slice(&data[..bytes as usize]);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &v,
            usage: storage,
        })
    };
    let buffers: Vec<wgpu::Buffer> = inputs
        .iter()
        .zip(operator.input_sizes())
        .map(|(data, bytes)| guarded(data, bytes, "guarded input"))
        .collect();
    let out_bytes = operator.output_size();
    let output = guarded(
        &vec![SENTINEL; out_bytes as usize],
        out_bytes,
        "guarded output",
    );
    let total = output.size();
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: total,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let binding = |buffer, bytes| wgpu::BufferBinding {
        buffer,
        offset: guard,
        size: std::num::NonZeroU64::new(bytes),
    };
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .zip(operator.input_sizes())
        .map(|(b, bytes)| binding(b, bytes))
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator.record(&mut encoder, &bindings, binding(&output, out_bytes))?;
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, total);
    context.queue().submit([encoder.finish()]);
    let bytes = read_back(device, &readback).await;
    Ok((bytes, operator.check_status().await))
}

/// Maps a `MAP_READ` buffer and returns its bytes: native devices are polled until the map
/// is done, the browser calls back by itself.
pub async fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u8> {
    type Shared = Arc<Mutex<(Option<Result<(), wgpu::BufferAsyncError>>, Option<Waker>)>>;
    let shared: Shared = Arc::default();
    let state = shared.clone();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let mut state = state.lock().unwrap();
        state.0 = Some(result);
        if let Some(waker) = state.1.take() {
            waker.wake();
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    std::future::poll_fn(|cx| {
        let mut state = shared.lock().unwrap();
        match state.0.take() {
            Some(result) => {
                result.expect("map");
                Poll::Ready(())
            }
            None => {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await;
    let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
    buffer.unmap();
    data
}
