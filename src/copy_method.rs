//! How a context moves contiguous runs of bytes ([`CopyMethod`]): the choice, kept once per
//! context, and the measurement that makes it.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::compiled::CompiledOperator;

/// How an operator moves a contiguous run of bytes (a scatter's `output = input` when both
/// are packed alike, a slice of consecutive elements): the library's copy kernel, or the
/// API's `copy_buffer_to_buffer`. Which is faster depends on the adapter (an NVIDIA GPU runs
/// the kernel about 5x faster; a CPU adapter such as lavapipe the copy command), so a context
/// measures both when it is made ([`crate::Context::copy_method`]), unless its
/// [`crate::ContextOptions::with_copy_method`] chose; [`crate::Context::set_copy_method`]
/// changes it for operators compiled later.
///
/// The copy command is used only where the caller's input buffer has `COPY_SRC` usage, the
/// output buffer `COPY_DST`, and the run's offsets and length are multiples of 4 bytes;
/// elsewhere the kernel runs. Where the kernel is chosen, a ScatterElements along an inner
/// axis out of place may instead copy each output row inside its own kernel, as it scatters
/// into it (the row held in workgroup memory). The output is the same bytes either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CopyMethod {
    /// The library's copy kernel, inside the operator's compute pass.
    Kernel,
    /// `wgpu::CommandEncoder::copy_buffer_to_buffer`, recorded before the compute pass.
    CopyBufferToBuffer,
}

/// A context's copy method: unknown until set or measured, once.
#[derive(Debug)]
pub(crate) struct CopyMethodCell(AtomicU8);

// The cell's states.
const UNKNOWN: u8 = 0;
const MEASURING: u8 = 1;
const KERNEL: u8 = 2;
const COMMAND: u8 = 3;

fn state(method: CopyMethod) -> u8 {
    match method {
        CopyMethod::Kernel => KERNEL,
        CopyMethod::CopyBufferToBuffer => COMMAND,
    }
}

impl Default for CopyMethodCell {
    fn default() -> CopyMethodCell {
        CopyMethodCell(AtomicU8::new(UNKNOWN))
    }
}

impl CopyMethodCell {
    /// The method as set, else as `measure` finds it (the kernel where it cannot tell),
    /// measuring once. A compile inside the measurement sees it measuring and takes the kernel.
    pub fn get(&self, measure: impl FnOnce() -> Option<CopyMethod>) -> CopyMethod {
        if let Some(method) = self.known() {
            return method;
        }
        if self
            .0
            .compare_exchange(UNKNOWN, MEASURING, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            let measured = measure().unwrap_or(CopyMethod::Kernel);
            // Unless `set` chose meanwhile.
            let _ = self.0.compare_exchange(
                MEASURING,
                state(measured),
                Ordering::AcqRel,
                Ordering::Acquire,
            );
        }
        self.known().unwrap_or(CopyMethod::Kernel)
    }

    /// The method as set or measured; the kernel while measuring; `None` before.
    fn known(&self) -> Option<CopyMethod> {
        match self.0.load(Ordering::Acquire) {
            COMMAND => Some(CopyMethod::CopyBufferToBuffer),
            KERNEL | MEASURING => Some(CopyMethod::Kernel),
            _ => None,
        }
    }

    pub fn set(&self, method: CopyMethod) {
        self.0.store(state(method), Ordering::Release);
    }
}

/// The measurement behind `Context::copy_method`: copies of each size in turn, `COPY_TRIAL_RUNS`
/// in one submission, best of `COPY_TRIAL_ROUNDS` rounds each way, until the slower way takes
/// `COPY_TRIAL_LONG_ENOUGH` (a CPU adapter stops at the first size; an H100 copies 32 MiB
/// 4 times in about 0.1 ms by kernel and 0.3 ms by command).
#[cfg(not(target_arch = "wasm32"))]
const COPY_TRIAL_BYTES: [u32; 3] = [1 << 20, 8 << 20, 32 << 20];
#[cfg(not(target_arch = "wasm32"))]
const COPY_TRIAL_RUNS: usize = 4;
#[cfg(not(target_arch = "wasm32"))]
const COPY_TRIAL_ROUNDS: usize = 2;
#[cfg(not(target_arch = "wasm32"))]
const COPY_TRIAL_LONG_ENOUGH: std::time::Duration = std::time::Duration::from_millis(2);

/// Times the copy kernel against `copy_buffer_to_buffer` on the same bytes: wall clock around
/// one submission of several copies each way, best of a few rounds after a warm-up round.
/// The size grows until the slower way takes long enough that submitting and waiting cannot
/// decide (a fast GPU's microseconds are below that noise). `compile_copy(bytes)` compiles
/// the library's copy of `bytes` (a Slice of the whole tensor). `None` where that cannot be
/// done (the browser cannot wait for the device).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn measure(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    limits: &wgpu::Limits,
    compile_copy: impl Fn(u32) -> Option<CompiledOperator>,
) -> Option<CopyMethod> {
    // Within one binding (no windows) and one buffer.
    let largest = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        .min(u32::MAX as u64) as u32
        & !3;
    let mut best = [std::time::Duration::MAX; 2];
    for bytes in COPY_TRIAL_BYTES {
        let bytes = bytes.min(largest).max(4);
        best = time_copies(device, queue, &compile_copy(bytes)?, bytes)?;
        if bytes >= largest || best[0].max(best[1]) >= COPY_TRIAL_LONG_ENOUGH {
            break;
        }
    }
    Some(if best[1] < best[0] {
        CopyMethod::CopyBufferToBuffer
    } else {
        CopyMethod::Kernel
    })
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn measure(
    _: &wgpu::Device,
    _: &wgpu::Queue,
    _: &wgpu::Limits,
    _: impl Fn(u32) -> Option<CompiledOperator>,
) -> Option<CopyMethod> {
    None
}

/// The best times of `COPY_TRIAL_RUNS` copies of `bytes` by `kernel` and by copy command.
#[cfg(not(target_arch = "wasm32"))]
fn time_copies(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    kernel: &CompiledOperator,
    bytes: u32,
) -> Option<[std::time::Duration; 2]> {
    let buffer = || {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("dml-wgsl copy trial"),
            size: bytes as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    };
    let (source, target) = (buffer(), buffer());
    let time = |by_kernel: bool| -> Option<std::time::Duration> {
        let mut encoder = device.create_command_encoder(&Default::default());
        for _ in 0..COPY_TRIAL_RUNS {
            if by_kernel {
                kernel
                    .record(
                        &mut encoder,
                        &[source.as_entire_buffer_binding()],
                        target.as_entire_buffer_binding(),
                    )
                    .ok()?;
            } else {
                encoder.copy_buffer_to_buffer(&source, 0, &target, 0, None);
            }
        }
        let start = std::time::Instant::now();
        queue.submit([encoder.finish()]);
        device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
        Some(start.elapsed())
    };
    // A first round of each warms up (pipelines, page faults); then the best of the rest.
    let mut best = [std::time::Duration::MAX; 2];
    for round in 0..=COPY_TRIAL_ROUNDS {
        for (slot, by_kernel) in [(0, true), (1, false)] {
            let elapsed = time(by_kernel)?;
            if round > 0 {
                best[slot] = best[slot].min(elapsed);
            }
        }
    }
    Some(best)
}
