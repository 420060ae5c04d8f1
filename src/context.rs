//! `Context`: a device, its queue and the pipeline cache; `compile` and `run`.

use std::sync::Mutex;

use wgpu::util::DeviceExt;

use crate::compiled::{
    CompiledOperator, CompiledPass, CompiledStep, PLACEHOLDER_BYTES, TensorBinding,
};
pub use crate::copy_method::CopyMethod;
use crate::copy_method::{self, CopyMethodCell};
use crate::error::{Error, Result};
use crate::kernels::params::{ContiguousRun, Parameters};
use crate::kernels::{Kernel, ROLES, Role, Windowing};
use crate::lowering::{BindingFacts, DeviceFacts, Step};
use crate::ops::{OperatorDesc, SliceDesc};
use crate::pipeline::PipelineCache;
use crate::readback::read_back;
use crate::status::STATUS_BYTES;
use crate::tensor::{DataType, TensorDesc};
use crate::windows::{Pass, WindowPlan};

/// A dispatch step's windowing and its dispatches.
type Planned = (Windowing, Vec<Pass>);

/// Threads per workgroup, lowered if the device allows fewer.
const WORKGROUP_SIZE: u32 = 256;
/// Threads of a `scatter_copy_rows` workgroup where the device allows (its row of workgroup
/// memory caps the workgroups an SM holds: more threads each keep more loads in flight).
const ROW_THREADS: u32 = 1024;

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
    copy_method: CopyMethodCell,
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
            copy_method: CopyMethodCell::default(),
        }
    }

    /// How this context's operators move contiguous runs of bytes (see [`CopyMethod`]): as
    /// set by [`Context::set_copy_method`], else measured now if not yet (both ways, a few
    /// milliseconds on a CPU adapter, waiting for the device to finish its queued work), once
    /// per context. The browser cannot wait: there the kernel is used unless set otherwise.
    pub fn copy_method(&self) -> CopyMethod {
        self.copy_method.get(|| {
            copy_method::measure(&self.device, &self.queue, &self.limits, |bytes| {
                let tensor = TensorDesc::new(DataType::UInt32, &[bytes / 4]);
                let slice = SliceDesc::new(tensor.clone(), tensor, &[0], &[bytes / 4], &[1]);
                self.compile(&slice.into()).ok()
            })
        })
    }

    /// Chooses how operators compiled from now on move contiguous runs of bytes, instead of
    /// measuring (operators compiled before keep their method).
    pub fn set_copy_method(&self, method: CopyMethod) {
        self.copy_method.set(method);
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
        // Each role's bytes: the caller's tensors in the desc's order, the output, the
        // status; lowering adds its scratch.
        let mut bytes = [0; ROLES];
        let input_roles = desc.input_roles();
        for (role, t) in input_roles.iter().zip(&tensors) {
            bytes[role.index()] = t.bytes;
        }
        bytes[Role::Output.index()] = output.bytes;
        bytes[Role::Status.index()] = STATUS_BYTES;
        // The copy method first (measured once a context, where an operator has a run to
        // copy): where this device copies faster by kernel, a scatter may fuse its copy into
        // its own kernel.
        let copy_method = desc.copies_contiguous_run().then(|| self.copy_method());
        let facts = DeviceFacts {
            unit_alignment: limits.min_storage_buffer_offset_alignment.min(16),
            workgroup_size: self.workgroup_size,
            row_threads: ROW_THREADS
                .min(limits.max_compute_invocations_per_workgroup)
                .min(limits.max_compute_workgroup_size_x)
                .max(1),
            max_workgroup_storage_bytes: limits.max_compute_workgroup_storage_size,
            max_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            copies_in_kernels: copy_method == Some(CopyMethod::Kernel),
            per_element: false,
            bindings: Some(BindingFacts {
                bytes,
                max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
                min_storage_buffer_offset_alignment: limits.min_storage_buffer_offset_alignment,
                max_storage_buffers_per_shader_stage: limits.max_storage_buffers_per_shader_stage,
            }),
        };
        let lowered = desc.lower(&facts)?;
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
        if lowered.zero_indices_bytes > 0 {
            bytes[Role::Indices.index()] = lowered.zero_indices_bytes;
        }
        bytes[Role::Winners.index()] = lowered.scratch_bytes;
        bytes[Role::Heads.index()] = lowered.scratch_bytes;
        bytes[Role::Links.index()] = lowered.links_bytes;
        let plan = WindowPlan::new(bytes, limits)?;
        let passes = self.plan_passes(&lowered.steps, &plan)?;
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
        // An empty tensor that a kernel still binds (every index out of range) is bound to
        // this instead: wgpu refuses zero-sized bindings.
        let binds_empty = lowered.steps.iter().any(|step| match step {
            Step::Dispatch { kernel, .. } => kernel.bindings().iter().any(|b| match b.role {
                Role::Input | Role::Indices | Role::Updates | Role::Output => {
                    bytes[b.role.index()] == 0
                }
                _ => false,
            }),
            Step::Clear(_) => false,
        });
        // Contiguous runs by copy command, where this device runs those faster.
        let by_command = copy_method == Some(CopyMethod::CopyBufferToBuffer);
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
            input_roles,
            output,
            storage_alignment: limits.min_storage_buffer_offset_alignment,
            status: lowered
                .index_report
                .as_ref()
                .map(|_| own_buffer("dml-wgsl status", STATUS_BYTES)),
            placeholder: binds_empty.then(|| own_buffer("dml-wgsl placeholder", PLACEHOLDER_BYTES)),
            scratch: (lowered.scratch_bytes > 0)
                .then(|| own_buffer("dml-wgsl scratch", lowered.scratch_bytes)),
            links: (lowered.links_bytes > 0)
                .then(|| own_buffer("dml-wgsl links", lowered.links_bytes)),
            // New buffers hold zeros.
            zero_indices: (lowered.zero_indices_bytes > 0)
                .then(|| own_buffer("dml-wgsl zero indices", lowered.zero_indices_bytes)),
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
    /// output tensor's bytes (its full size; bytes no element covers are zero). An empty
    /// tensor (a size of 0) has size 0: its input may be an empty slice, and an empty output
    /// comes back as no bytes.
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
        // An empty output has no bytes to read back (its buffer is zero-sized, never bound).
        let bytes = operator.output.bytes;
        let output = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("output"),
            size: bytes,
            // COPY_DST: a contiguous copy may go by copy command (see CopyMethod).
            usage: storage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let readback = (bytes > 0).then(|| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
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
        if let Some(readback) = &readback {
            encoder.copy_buffer_to_buffer(&output, 0, readback, 0, bytes);
        }
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
        match readback {
            Some(readback) => read_back(&self.device, &readback).await,
            None => Ok(Vec::new()),
        }
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
