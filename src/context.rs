//! `Context`: a device, its queue and the pipeline cache; `compile` and `run`.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use wgpu::util::DeviceExt;

use crate::compiled::{CompiledOperator, CompiledPass, CompiledStep, TensorBinding};
use crate::error::{Error, Result};
use crate::kernels::{Kernel, ROLES, Role, Windowing};
use crate::ops::{DeviceFacts, OperatorDesc, Step};
use crate::params::{ContiguousRun, Parameters};
use crate::pipeline::PipelineCache;
use crate::status::STATUS_BYTES;
use crate::windows::{Pass, WindowPlan};

/// A dispatch step's windowing and its dispatches.
type Planned = (Windowing, Vec<Pass>);

/// Threads per workgroup, lowered if the device allows fewer.
const WORKGROUP_SIZE: u32 = 256;
/// Threads of a `scatter_copy_rows` workgroup where the device allows (its row of workgroup
/// memory caps the workgroups an SM holds: more threads each keep more loads in flight).
const ROW_THREADS: u32 = 1024;

/// How an operator moves a contiguous run of bytes (a scatter's `output = input` when both
/// are packed alike, a slice of consecutive elements): the library's copy kernel, or the
/// API's `copy_buffer_to_buffer`. Which is faster depends on the adapter (an NVIDIA GPU runs
/// the kernel about 5x faster; a CPU adapter such as lavapipe the copy command), so a context
/// measures both once, on the first `compile` that has such a copy
/// ([`Context::copy_method`]), unless [`Context::set_copy_method`] chose first.
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

// `Context::copy_method` states.
const COPY_UNKNOWN: u8 = 0;
const COPY_MEASURING: u8 = 1;
const COPY_KERNEL: u8 = 2;
const COPY_COMMAND: u8 = 3;

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

/// A wgpu device and queue with this library's compiled kernels.
///
/// Cheap to share between threads (`&Context` is enough); kernels are compiled on first use
/// and cached for the context's lifetime.
#[derive(Debug)]
pub struct Context {
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    workgroup_size: u32,
    pipelines: PipelineCache,
    /// `COPY_UNKNOWN`, `COPY_MEASURING`, `COPY_KERNEL` or `COPY_COMMAND`.
    copy_method: AtomicU8,
}

impl Context {
    /// Opens the default adapter. Honours `WGPU_BACKEND` (for example `vulkan`, `gl`),
    /// `WGPU_ADAPTER_NAME` (a case-insensitive part of the adapter's name; an error if none
    /// matches) and `WGPU_POWER_PREF`. The device gets the adapter's full limits, and its
    /// timestamp-query features where the adapter has them (for benchmarks).
    pub async fn new() -> Result<Context> {
        // Vulkan, Metal, DX12 and WebGPU first; GL only if none of them has an adapter
        // (or if WGPU_BACKEND asks for it).
        let chosen = wgpu::Backends::from_env();
        let mut adapter = select_adapter(chosen.unwrap_or(wgpu::Backends::PRIMARY)).await;
        if adapter.is_err() && chosen.is_none() {
            adapter = select_adapter(wgpu::Backends::all()).await;
        }
        let adapter = adapter?;
        let wanted = wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("dml-wgsl"),
                required_features: adapter.features() & wanted,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| Error::RequestDevice(e.to_string()))?;
        Ok(Context::from_device(device, queue))
    }

    /// [`Context::new`], blocking until the device is open. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new_blocking() -> Result<Context> {
        pollster::block_on(Context::new())
    }

    /// Wraps a device the application already owns. Its limits are read from the device.
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue) -> Context {
        let limits = device.limits();
        let workgroup_size = WORKGROUP_SIZE
            .min(limits.max_compute_invocations_per_workgroup)
            .min(limits.max_compute_workgroup_size_x)
            .max(1);
        Context {
            device,
            queue,
            limits,
            workgroup_size,
            pipelines: PipelineCache::default(),
            copy_method: AtomicU8::new(COPY_UNKNOWN),
        }
    }

    /// How this context's operators move contiguous runs of bytes (see [`CopyMethod`]): as
    /// set by [`Context::set_copy_method`], else measured now if not yet (both ways, a few
    /// milliseconds on a CPU adapter, waiting for the device to finish its queued work), once
    /// per context. The browser cannot wait: there the kernel is used unless set otherwise.
    pub fn copy_method(&self) -> CopyMethod {
        match self.copy_method.load(Ordering::Acquire) {
            COPY_COMMAND => CopyMethod::CopyBufferToBuffer,
            COPY_KERNEL | COPY_MEASURING => CopyMethod::Kernel,
            _ => {
                // A compile inside the measurement sees COPY_MEASURING and takes the kernel.
                if self
                    .copy_method
                    .compare_exchange(
                        COPY_UNKNOWN,
                        COPY_MEASURING,
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    )
                    .is_err()
                {
                    return self.copy_method();
                }
                let measured = self.measure_copy_method().unwrap_or(CopyMethod::Kernel);
                // Unless set_copy_method chose meanwhile.
                let _ = self.copy_method.compare_exchange(
                    COPY_MEASURING,
                    copy_state(measured),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
                self.copy_method()
            }
        }
    }

    /// Chooses how operators compiled from now on move contiguous runs of bytes, instead of
    /// measuring (operators compiled before keep their method).
    pub fn set_copy_method(&self, method: CopyMethod) {
        self.copy_method
            .store(copy_state(method), Ordering::Release);
    }

    /// Times the copy kernel against `copy_buffer_to_buffer` on the same bytes: wall clock
    /// around one submission of several copies each way, best of a few rounds after a warm-up
    /// round. The size grows until the slower way takes long enough that submitting and
    /// waiting cannot decide (a fast GPU's microseconds are below that noise). `None` where
    /// that cannot be done (the browser cannot wait for the device).
    #[cfg(not(target_arch = "wasm32"))]
    fn measure_copy_method(&self) -> Option<CopyMethod> {
        // Within one binding (no windows) and one buffer.
        let largest = self
            .limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
            .min(u32::MAX as u64) as u32
            & !3;
        let mut best = [std::time::Duration::MAX; 2];
        for bytes in COPY_TRIAL_BYTES {
            best = self.time_copies(bytes.min(largest).max(4))?;
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

    /// The best times of `COPY_TRIAL_RUNS` copies of `bytes` by kernel and by copy command.
    #[cfg(not(target_arch = "wasm32"))]
    fn time_copies(&self, bytes: u32) -> Option<[std::time::Duration; 2]> {
        use crate::ops::SliceDesc;
        use crate::tensor::{DataType, TensorDesc};
        let elements = bytes / 4;
        let tensor = TensorDesc::new(DataType::UInt32, &[elements]);
        let slice = SliceDesc::new(tensor.clone(), tensor, &[0], &[elements], &[1]);
        let kernel = self.compile(&slice.into()).ok()?;
        let buffer = || {
            self.device.create_buffer(&wgpu::BufferDescriptor {
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
            let mut encoder = self.device.create_command_encoder(&Default::default());
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
            self.queue.submit([encoder.finish()]);
            self.device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
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

    #[cfg(target_arch = "wasm32")]
    fn measure_copy_method(&self) -> Option<CopyMethod> {
        None
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The adapter behind the device (name, backend, device type).
    pub fn adapter_info(&self) -> wgpu::AdapterInfo {
        self.device.adapter_info()
    }

    /// How many shader modules (kernel variants) this context has compiled so far.
    pub fn compiled_kernel_count(&self) -> usize {
        self.pipelines.module_count()
    }

    /// Validates `desc` against its rules and this device's limits, and prepares everything
    /// `record` needs except the bind groups (which depend on the caller's buffers).
    ///
    /// A tensor larger than the device's `max_storage_buffer_binding_size` is bound as
    /// several windows of its buffer (see the crate docs); only a tensor past
    /// `max_buffer_size` is refused (`Error::TensorTooLarge`).
    pub fn compile(&self, desc: &OperatorDesc) -> Result<CompiledOperator> {
        desc.validate()?;
        let limits = &self.limits;
        // Sizes before lowering: lowering may then take every offset to fit the device.
        let mut tensors = Vec::new();
        for (tensor, t) in desc.inputs().into_iter().chain([("output", desc.output())]) {
            // The kernels address elements with u32 offsets from the binding's start.
            let span = t.span_u128();
            if span > 1 << 32 {
                return Err(Error::LayoutTooWide {
                    tensor,
                    elements: span.min(u64::MAX as u128) as u64,
                    limit: 1 << 32,
                });
            }
            let bytes = t.size_in_bytes();
            if bytes > limits.max_buffer_size {
                return Err(Error::TensorTooLarge {
                    tensor,
                    bytes,
                    limit_name: "max_buffer_size",
                    limit: limits.max_buffer_size,
                });
            }
            tensors.push(TensorBinding { tensor, bytes });
        }
        let output = tensors.pop().expect("the output was pushed last");
        let mut facts = DeviceFacts {
            unit_alignment: limits.min_storage_buffer_offset_alignment.min(16),
            workgroup_size: self.workgroup_size,
            row_threads: ROW_THREADS
                .min(limits.max_compute_invocations_per_workgroup)
                .min(limits.max_compute_workgroup_size_x)
                .max(1),
            max_workgroup_storage_bytes: limits.max_compute_workgroup_storage_size,
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            copies_in_kernels: false,
            per_element: false,
        };
        let mut lowered = desc.lower(&facts);
        // Where this device copies faster by kernel, a scatter may fuse its copy into its
        // own kernel: lower again knowing that.
        if lowered
            .steps
            .iter()
            .any(|step| contiguous_run(step).is_some())
            && self.copy_method() == CopyMethod::Kernel
        {
            facts.copies_in_kernels = true;
            lowered = desc.lower(&facts);
        }
        for (what, needed) in [
            (
                "the in-order scratch (4 to 8 bytes per output unit)",
                lowered.scratch_bytes,
            ),
            (
                "the in-order reduction's sort (16 bytes per update)",
                lowered.links_bytes,
            ),
        ] {
            if needed > limits.max_buffer_size {
                return Err(Error::LimitExceeded {
                    what,
                    needed,
                    limit_name: "max_buffer_size",
                    limit: limits.max_buffer_size,
                });
            }
        }
        // Each role's bytes: the caller's tensors in the desc's order, the output, and the
        // operator's own status and scratch.
        let mut bytes = [0; ROLES];
        for (role, t) in [Role::Input, Role::Indices, Role::Updates]
            .into_iter()
            .zip(&tensors)
        {
            bytes[role.index()] = t.bytes;
        }
        bytes[Role::Output.index()] = output.bytes;
        bytes[Role::Status.index()] = STATUS_BYTES;
        bytes[Role::Winners.index()] = lowered.scratch_bytes;
        bytes[Role::Heads.index()] = lowered.scratch_bytes;
        bytes[Role::Links.index()] = lowered.links_bytes;
        let plan = WindowPlan::new(bytes, limits)?;
        let mut passes = self.plan_passes(&lowered.steps, &plan)?;
        if passes
            .iter()
            .flatten()
            .any(|(windowing, _)| windowing.partial)
        {
            // Dispatches that bind only some windows need every element checked on its own:
            // lower again to the entry points that move one element a thread.
            facts.per_element = true;
            lowered = desc.lower(&facts);
            passes = self.plan_passes(&lowered.steps, &plan)?;
        }
        // Checked on the final lowering (a scatter the device cannot run as lowered).
        if let Some(refusal) = lowered.refusal.take() {
            return Err(refusal);
        }
        for (step, planned) in lowered.steps.iter().zip(&passes) {
            if let (Step::Dispatch { kernel, params, .. }, Some((windowing, _))) = (step, planned) {
                self.check_kernel_limits(*kernel, windowing, params.bytes().len())?;
                // A fold reads a target's updates wherever they lie: every window bound.
                if windowing.partial && kernel.needs_every_window() {
                    let needed = plan.windows.iter().map(|&w| w.max(1) as u64).sum();
                    return Err(Error::LimitExceeded {
                        what: "an in-order scatter reduction of tensors past the binding \
                               window (every window bound at once)",
                        needed,
                        limit_name: "max_storage_buffers_per_shader_stage",
                        limit: limits.max_storage_buffers_per_shader_stage as u64,
                    });
                }
            }
        }
        // Every step is checked before anything is created on the device.
        let workgroups = lowered
            .steps
            .iter()
            .map(|step| match step {
                Step::Dispatch { grid, .. } => grid.workgroups(
                    self.workgroup_size,
                    limits.max_compute_workgroups_per_dimension,
                ),
                Step::Clear(_) => Ok([0; 3]),
            })
            .collect::<Result<Vec<_>>>()?;
        // Contiguous runs by copy command, where this device runs those faster.
        let has_run = lowered
            .steps
            .iter()
            .any(|step| contiguous_run(step).is_some());
        let by_command = has_run && self.copy_method() == CopyMethod::CopyBufferToBuffer;
        let steps = lowered
            .steps
            .into_iter()
            .zip(workgroups)
            .zip(passes)
            .map(|((step, workgroups), planned)| {
                let run = contiguous_run(&step).filter(|_| by_command);
                self.compile_step(step, workgroups, planned, run)
            })
            .collect();
        let own_buffer = |label, size| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        Ok(CompiledOperator {
            device: self.device.clone(),
            queue: self.queue.clone(),
            steps,
            inputs: tensors,
            output,
            storage_alignment: limits.min_storage_buffer_offset_alignment,
            status: lowered
                .index_report
                .as_ref()
                .map(|_| own_buffer("dml-wgsl status", STATUS_BYTES)),
            scratch: (lowered.scratch_bytes > 0)
                .then(|| own_buffer("dml-wgsl scratch", lowered.scratch_bytes)),
            links: (lowered.links_bytes > 0)
                .then(|| own_buffer("dml-wgsl links", lowered.links_bytes)),
            index_report: lowered.index_report,
            in_place: lowered.in_place,
            windows: plan,
            bind_groups: Mutex::default(),
        })
    }

    /// Each dispatch step's windowing and dispatches (`None` for clears).
    fn plan_passes(&self, steps: &[Step], plan: &WindowPlan) -> Result<Vec<Option<Planned>>> {
        steps
            .iter()
            .map(|step| match step {
                Step::Dispatch { kernel, params, .. } => {
                    let index_params = match params {
                        Parameters::Index(p) => Some(p),
                        Parameters::StridedCopy(_) => None,
                    };
                    let storage_limit = self.limits.max_storage_buffers_per_shader_stage;
                    plan.kernel_passes(*kernel, index_params, storage_limit)
                        .map(Some)
                }
                Step::Clear(_) => Ok(None),
            })
            .collect()
    }

    /// A kernel's bindings must fit the device's limits, or creating its pipeline would
    /// raise a wgpu error (downlevel devices may have as few as 4 storage buffers a stage).
    fn check_kernel_limits(
        &self,
        kernel: Kernel,
        windowing: &Windowing,
        params_bytes: usize,
    ) -> Result<()> {
        let storage: u64 = kernel
            .bindings()
            .iter()
            .map(|b| windowing.slots(b.role) as u64)
            .sum();
        let uniforms = 1 + windowing.partial as u64;
        let limits = &self.limits;
        for (needed, limit_name, limit) in [
            (1, "max_bind_groups", limits.max_bind_groups as u64),
            (
                storage,
                "max_storage_buffers_per_shader_stage",
                limits.max_storage_buffers_per_shader_stage as u64,
            ),
            (
                uniforms,
                "max_uniform_buffers_per_shader_stage",
                limits.max_uniform_buffers_per_shader_stage as u64,
            ),
            (
                storage + uniforms,
                "max_bindings_per_bind_group",
                limits.max_bindings_per_bind_group as u64,
            ),
            (
                params_bytes as u64,
                "max_uniform_buffer_binding_size",
                limits.max_uniform_buffer_binding_size,
            ),
        ] {
            if needed > limit {
                return Err(Error::LimitExceeded {
                    what: kernel.purpose(),
                    needed,
                    limit_name,
                    limit,
                });
            }
        }
        Ok(())
    }

    fn compile_step(
        &self,
        step: Step,
        workgroups: [u32; 3],
        planned: Option<Planned>,
        contiguous: Option<ContiguousRun>,
    ) -> CompiledStep {
        match (step, planned) {
            (
                Step::Dispatch {
                    kernel,
                    entry,
                    params,
                    grid: _,
                    placement,
                },
                Some((windowing, passes)),
            ) => {
                let pipeline = self.pipelines.get(
                    &self.device,
                    kernel,
                    windowing,
                    entry,
                    params.pipeline_constants(),
                    self.workgroup_size,
                );
                let uniform = |contents: &[u8]| {
                    self.device
                        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: Some("dml-wgsl params"),
                            contents,
                            usage: wgpu::BufferUsages::UNIFORM,
                        })
                };
                let passes = passes
                    .into_iter()
                    .map(|pass| CompiledPass {
                        first: pass.first,
                        windows: pass.params.map(|p| uniform(bytemuck::bytes_of(&p))),
                    })
                    .collect();
                CompiledStep::Dispatch {
                    kernel,
                    windowing,
                    pipeline,
                    params: uniform(params.bytes()),
                    workgroups,
                    placement,
                    passes,
                    contiguous,
                }
            }
            (Step::Clear(role), _) => CompiledStep::Clear(role),
            (Step::Dispatch { .. }, None) => unreachable!("every dispatch step is planned"),
        }
    }

    /// Runs `desc` on `inputs` (each tensor's bytes, little-endian, laid out by its
    /// `TensorDesc`, at least its size; in the order of the desc's fields) and returns the
    /// output tensor's bytes (its full size; bytes no element covers are zero).
    ///
    /// On native targets this waits for the GPU on the calling thread; in a browser it yields.
    pub async fn run(&self, desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<Vec<u8>> {
        let operator = self.compile(desc)?;
        operator.check_input_count(inputs.len())?;
        for (t, data) in operator.inputs.iter().zip(inputs) {
            if (data.len() as u64) < t.bytes {
                return Err(Error::InputTooSmall {
                    tensor: t.tensor,
                    given: data.len() as u64,
                    required: t.bytes,
                });
            }
        }
        let out_of_memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffers = operator
            .inputs
            .iter()
            .zip(inputs)
            .map(|(t, data)| {
                self.device
                    .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some(t.tensor),
                        contents: &data[..t.bytes as usize],
                        usage: storage,
                    })
            })
            .collect::<Vec<_>>();
        let bytes = operator.output.bytes;
        let output = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("output"),
            size: bytes,
            // COPY_DST: a contiguous copy may go by copy command (see CopyMethod).
            usage: storage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("dml-wgsl run"),
            });
        let bindings = buffers
            .iter()
            .map(|b| b.as_entire_buffer_binding())
            .collect::<Vec<_>>();
        operator.record(&mut encoder, &bindings, output.as_entire_buffer_binding())?;
        encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, bytes);
        let status = operator.copy_status(&mut encoder);
        self.queue.submit([encoder.finish()]);
        if let Some(e) = validation.pop().await {
            return Err(Error::Wgpu(e.to_string()));
        }
        if let Some(e) = out_of_memory.pop().await {
            return Err(Error::Wgpu(e.to_string()));
        }
        if let Some(status) = status {
            operator.decode_status(&read_back(&self.device, &status).await?)?;
        }
        read_back(&self.device, &readback).await
    }

    /// [`Context::run`], blocking until the result is back. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_blocking(&self, desc: &OperatorDesc, inputs: &[&[u8]]) -> Result<Vec<u8>> {
        pollster::block_on(self.run(desc, inputs))
    }
}

/// The adapter `Context::new` opens.
async fn select_adapter(backends: wgpu::Backends) -> Result<wgpu::Adapter> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = backends;
    let instance = &wgpu::Instance::new(descriptor);
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let adapters = instance.enumerate_adapters(backends).await;
        let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
        return adapters
            .into_iter()
            .find(|a| {
                a.get_info()
                    .name
                    .to_lowercase()
                    .contains(&wanted.to_lowercase())
            })
            .ok_or_else(|| {
                Error::NoAdapter(format!(
                    "WGPU_ADAPTER_NAME={wanted:?} matches none of {names:?}"
                ))
            });
    }
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env()
                .unwrap_or(wgpu::PowerPreference::HighPerformance),
            ..Default::default()
        })
        .await
        .map_err(|e| Error::NoAdapter(format!("{e} ({NO_ADAPTER_HINT})")))
}

#[cfg(not(target_arch = "wasm32"))]
const NO_ADAPTER_HINT: &str =
    "on Debian, `apt-get install mesa-vulkan-drivers` provides the lavapipe CPU adapter";
#[cfg(target_arch = "wasm32")]
const NO_ADAPTER_HINT: &str = "the browser offers no WebGPU adapter; Chromium offers its CPU \
     adapter (SwiftShader) when started with --enable-unsafe-webgpu";

/// The run of bytes a copy step moves, where it is one contiguous run between whole bindings
/// (every window of a split tensor bound at once, so the copy covers the run).
fn contiguous_run(step: &Step) -> Option<ContiguousRun> {
    match step {
        Step::Dispatch {
            kernel: Kernel::StridedCopy(unit),
            params: Parameters::StridedCopy(params),
            ..
        } => params.contiguous_run(unit.bytes()),
        _ => None,
    }
}

fn copy_state(method: CopyMethod) -> u8 {
    match method {
        CopyMethod::Kernel => COPY_KERNEL,
        CopyMethod::CopyBufferToBuffer => COPY_COMMAND,
    }
}

/// The value of a future that is ready at once (native devices pop error scopes at once);
/// `None` if it is not (the browser answers later, and reports errors itself).
pub(crate) fn ready<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut context) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// The bytes of a `MAP_READ` buffer, once the GPU is done with it.
pub(crate) async fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<Vec<u8>> {
    map_read(device, buffer).await?;
    let data = buffer
        .get_mapped_range(..)
        .map_err(|e| Error::Readback(e.to_string()))?
        .to_vec();
    buffer.unmap();
    Ok(data)
}

/// Maps `buffer` for reading and waits until it is mapped.
async fn map_read(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<()> {
    type Shared = Arc<Mutex<(Option<Result<(), wgpu::BufferAsyncError>>, Option<Waker>)>>;
    let shared: Shared = Arc::default();
    let callback_state = shared.clone();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let mut state = callback_state.lock().unwrap_or_else(|p| p.into_inner());
        state.0 = Some(result);
        if let Some(waker) = state.1.take() {
            waker.wake();
        }
    });
    // Native devices deliver map callbacks only when polled; the browser does it by itself.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::Readback(e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    std::future::poll_fn(|cx| {
        let mut state = shared.lock().unwrap_or_else(|p| p.into_inner());
        match state.0.take() {
            Some(result) => Poll::Ready(result.map_err(|e| Error::Readback(e.to_string()))),
            None => {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await
}
