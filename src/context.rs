//! `Context`: a device, its queue and the pipeline cache; `compile` and `run`.

use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use crate::compiled::{
    CompiledOperator, CompiledPass, CompiledStep, PLACEHOLDER_BYTES, TensorBinding, Uniforms,
};
use crate::context_options::ContextOptions;
pub use crate::copy_method::CopyMethod;
use crate::copy_method::{self, CopyMethodCell};
use crate::error::{Error, Result};
use crate::kernels::params::{ContiguousRun, Parameters};
use crate::kernels::{Kernel, ROLES, Role, Windowing};
use crate::lowering::{BindingFacts, DeviceFacts, Lowered, Step};
use crate::ops::{OperatorDesc, SliceDesc};
use crate::pipeline::{self, Pipeline, PipelineKey, Pipelines};
use crate::readback::read_back;
use crate::shared::{Scratch, Shared, storage_buffer};
use crate::status::STATUS_BYTES;
use crate::tensor::{DataType, TensorDesc};
use crate::windows::{Pass, WindowPlan};

/// A dispatch step's windowing and its dispatches.
type Planned = (Windowing, Vec<Pass>);

/// A desc lowered and checked, before anything is created on the device.
struct Prepared {
    tensors: Vec<TensorBinding>,
    output: TensorBinding,
    input_roles: &'static [Role],
    copy_method: Option<CopyMethod>,
    lowered: Lowered,
    plan: WindowPlan,
    /// Each step's windowing and dispatches (`None` for clears).
    passes: Vec<Option<Planned>>,
    workgroups: Vec<[u32; 3]>,
    /// Whether a kernel binds an empty tensor (bound to a placeholder instead).
    binds_empty: bool,
}

impl Prepared {
    /// The pipeline of every dispatch step.
    fn pipeline_keys(&self) -> Vec<PipelineKey> {
        self.lowered
            .steps
            .iter()
            .zip(&self.passes)
            .filter_map(|(step, planned)| match (step, planned) {
                (
                    Step::Dispatch {
                        kernel,
                        entry,
                        params,
                        ..
                    },
                    Some((windowing, _)),
                ) => Some((*kernel, *windowing, *entry, params.pipeline_constants())),
                _ => None,
            })
            .collect()
    }
}

/// Threads per workgroup, lowered if the device allows fewer.
const WORKGROUP_SIZE: u32 = 256;
/// Threads of a `scatter_copy_rows` workgroup where the device allows (its row of workgroup
/// memory caps the workgroups an SM holds: more threads each keep more loads in flight).
const ROW_THREADS: u32 = 1024;

/// A wgpu device and queue with this library's compiled kernels.
///
/// Cheap to share between threads (`&Context` is enough); kernels are compiled on first use
/// (several at once) or ahead of it ([`Context::precompile`])
/// and cached for the context's lifetime.
#[derive(Debug)]
pub struct Context {
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    workgroup_size: u32,
    pipelines: Pipelines,
    /// Whether the driver cache took the bytes the context was made with.
    cache_seeded: bool,
    /// Buffers its operators share (uniforms, scratch).
    shared: Shared,
    copy_method: CopyMethodCell,
}

impl Context {
    /// Opens the default adapter. Honours `WGPU_BACKEND` (for example `vulkan`, `gl`),
    /// `WGPU_ADAPTER_NAME` (a case-insensitive part of the adapter's name; an error if none
    /// matches) and `WGPU_POWER_PREF`. The device gets the adapter's full limits, its
    /// timestamp-query features where the adapter has them (for benchmarks), and its
    /// pipeline cache where it has one (`wgpu::Features::PIPELINE_CACHE`, Vulkan). Then as
    /// [`Context::from_device`].
    pub async fn new() -> Result<Context> {
        Context::new_with(ContextOptions::default()).await
    }

    /// [`Context::new`] with `options`.
    pub async fn new_with(options: ContextOptions) -> Result<Context> {
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
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES
            | wgpu::Features::PIPELINE_CACHE;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("dml-wgsl"),
                required_features: adapter.features() & wanted,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| Error::RequestDevice(e.to_string()))?;
        Ok(Context::from_device_with(device, queue, options))
    }

    /// [`Context::new`], blocking until the device is open. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new_blocking() -> Result<Context> {
        pollster::block_on(Context::new())
    }

    /// [`Context::new_with`], blocking until the device is open. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new_blocking_with(options: ContextOptions) -> Result<Context> {
        pollster::block_on(Context::new_with(options))
    }

    /// Wraps a device the application already owns, with the default options: its limits
    /// are read from the device, and the copy method is measured now (see
    /// [`Context::from_device_with`]).
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue) -> Context {
        Context::from_device_with(device, queue, ContextOptions::default())
    }

    /// Wraps a device the application already owns. Its limits are read from the device.
    ///
    /// Unless `options` gives a [`CopyMethod`], the context measures which copy is faster
    /// here and now (native targets: it compiles the copy kernel, submits a few copies each
    /// way and waits for the device, which also waits for work already queued on it; a few
    /// milliseconds on a CPU adapter, more where the driver compiles cold). In a browser, which
    /// cannot wait, the kernel is chosen. Where the device was created with
    /// `wgpu::Features::PIPELINE_CACHE`, pipelines are built through a driver pipeline
    /// cache, seeded with `options`' bytes if given (see
    /// [`ContextOptions::with_pipeline_cache_data`]).
    pub fn from_device_with(
        device: wgpu::Device,
        queue: wgpu::Queue,
        options: ContextOptions,
    ) -> Context {
        let limits = device.limits();
        let workgroup_size = WORKGROUP_SIZE
            .min(limits.max_compute_invocations_per_workgroup)
            .min(limits.max_compute_workgroup_size_x)
            .max(1);
        let (driver_cache, cache_seeded) =
            pipeline::driver_cache(&device, options.pipeline_cache_data.as_deref());
        let shared = Shared::new(&limits);
        let context = Context {
            device,
            queue,
            limits,
            workgroup_size,
            pipelines: Pipelines::new(driver_cache, workgroup_size),
            cache_seeded,
            shared,
            copy_method: CopyMethodCell::default(),
        };
        match options.copy_method {
            Some(method) => context.copy_method.set(method),
            None => {
                context.copy_method();
            }
        }
        context
    }

    /// How this context's operators move contiguous runs of bytes (see [`CopyMethod`]): as
    /// given when it was made or set by [`Context::set_copy_method`], else as it measured
    /// when it was made.
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
    /// what was measured (operators compiled before keep their method).
    pub fn set_copy_method(&self, method: CopyMethod) {
        self.copy_method.set(method);
    }

    /// Builds every pipeline the operators of `descs` need, natively on several threads at
    /// once (a driver compiles a pipeline on the thread that asks for it), so that a
    /// `compile` of any of them afterwards only looks its pipelines up. Pipelines depend on
    /// the data types, ranks, index formats and options of a desc and on its layout class,
    /// never on a size as such: the class is what sizes select among a kernel's entry
    /// points and lowerings (an inner size a multiple of 4 or of 1024 units walks blocks or
    /// rows, other sizes single units; a single row or update lowers to simpler kernels;
    /// tensors past the binding limit are bound as windows; a scatter that copies rows in
    /// its kernel has a pipeline per power of two of row length, up to 4096 units, then per
    /// 4096). A desc covers every size of its class: precompile one at each class an
    /// application meets. Each desc is
    /// validated as by `compile`; the first error is returned (the pipelines of the others
    /// are still built). In a browser, the pipelines are built one after another.
    pub fn precompile(&self, descs: &[OperatorDesc]) -> Result<()> {
        let mut keys = Vec::new();
        let mut first_error = None;
        for desc in descs {
            match self.plan(desc) {
                Ok(planned) => keys.extend(planned.pipeline_keys()),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        self.pipelines.build_all(&self.device, &keys);
        first_error.map_or(Ok(()), Err)
    }

    /// The bytes of this context's driver pipeline cache (every pipeline it has built, as
    /// the driver compiled it), for [`ContextOptions::with_pipeline_cache_data`] in a later
    /// run: `None` where the device has no pipeline cache (wgpu's
    /// `Features::PIPELINE_CACHE`: Vulkan has it; Metal, DX12, GL and WebGPU do not), or
    /// where the driver gives no data. The bytes are tied to the adapter, its driver's
    /// version and wgpu's cache format: a context given bytes from another starts with an
    /// empty cache instead. Write them to disk with the adapter's name and driver in the
    /// file's name, as `wgpu::util::pipeline_cache_key` does.
    pub fn pipeline_cache_data(&self) -> Option<Vec<u8>> {
        self.pipelines.driver_cache_data()
    }

    /// Whether this context was made with pipeline cache bytes that its device took (`false`
    /// without bytes, without a pipeline cache on the device, or with bytes from another
    /// adapter, driver or wgpu version, which are ignored).
    pub fn pipeline_cache_seeded(&self) -> bool {
        self.cache_seeded
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

    /// How many pipelines (a kernel variant's entry point with its pipeline constants) this
    /// context has built so far. A compile of a desc whose sizes changed within their layout
    /// class (see [`Context::precompile`]) builds none.
    pub fn compiled_pipeline_count(&self) -> usize {
        self.pipelines.pipeline_count()
    }

    /// Validates `desc` against its rules and this device's limits, and prepares everything
    /// `record` needs except the bind groups (which depend on the caller's buffers).
    ///
    /// A tensor larger than the device's `max_storage_buffer_binding_size` is bound as
    /// several windows of its buffer (see the crate docs); only a tensor past
    /// `max_buffer_size` is refused (`Error::TensorTooLarge`).
    pub fn compile(&self, desc: &OperatorDesc) -> Result<CompiledOperator> {
        let prepared = self.plan(desc)?;
        // Every pipeline missing, at once: a first compile costs its slowest pipeline, not
        // their sum.
        let mut pipelines = self
            .pipelines
            .build_all(&self.device, &prepared.pipeline_keys())
            .into_iter();
        let Prepared {
            tensors,
            output,
            input_roles,
            copy_method,
            lowered,
            plan,
            passes,
            workgroups,
            binds_empty,
        } = prepared;
        // Contiguous runs by copy command, where this device runs those faster.
        let by_command = copy_method == Some(CopyMethod::CopyBufferToBuffer);
        let mut uniforms = Uniforms::new(self.limits.min_uniform_buffer_offset_alignment);
        let steps = lowered
            .steps
            .into_iter()
            .zip(workgroups)
            .zip(passes)
            .map(|((step, workgroups), planned)| {
                let run = contiguous_run(&step).filter(|_| by_command);
                // In the order of `pipeline_keys`: one for each planned dispatch.
                let pipeline = planned.as_ref().and_then(|_| pipelines.next());
                self.compile_step(step, workgroups, planned, run, pipeline, &mut uniforms)
            })
            .collect();
        let own_buffer = |label, size| storage_buffer(&self.device, label, size);
        Ok(CompiledOperator {
            device: self.device.clone(),
            queue: self.queue.clone(),
            steps,
            uniforms: uniforms
                .bytes()
                .map(|bytes| self.shared.uniforms(&self.device, bytes)),
            inputs: tensors,
            input_roles,
            output,
            storage_alignment: self.limits.min_storage_buffer_offset_alignment,
            status: lowered
                .index_report
                .as_ref()
                .map(|_| own_buffer("dml-wgsl status", STATUS_BYTES)),
            placeholder: binds_empty.then(|| own_buffer("dml-wgsl placeholder", PLACEHOLDER_BYTES)),
            scratch: (lowered.scratch_bytes > 0).then(|| {
                let bytes = lowered.scratch_bytes;
                (
                    self.shared.scratch(&self.device, Scratch::PerOutput, bytes),
                    bytes,
                )
            }),
            links: (lowered.links_bytes > 0).then(|| {
                let bytes = lowered.links_bytes;
                (
                    self.shared.scratch(&self.device, Scratch::Links, bytes),
                    bytes,
                )
            }),
            // New buffers hold zeros.
            zero_indices: (lowered.zero_indices_bytes > 0)
                .then(|| own_buffer("dml-wgsl zero indices", lowered.zero_indices_bytes)),
            index_report: lowered.index_report,
            in_place: lowered.in_place,
            windows: plan,
            bind_groups: Mutex::default(),
        })
    }

    /// Everything of `compile` that creates nothing on the device: validation, lowering,
    /// the windows, every limit checked.
    fn plan(&self, desc: &OperatorDesc) -> Result<Prepared> {
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
        Ok(Prepared {
            tensors,
            output,
            input_roles,
            copy_method,
            lowered,
            plan,
            passes,
            workgroups,
            binds_empty,
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
        pipeline: Option<Arc<Pipeline>>,
        uniforms: &mut Uniforms,
    ) -> CompiledStep {
        match (step, planned, pipeline) {
            (
                Step::Dispatch {
                    kernel,
                    entry: _,
                    params,
                    grid: _,
                    placement,
                },
                Some((windowing, passes)),
                Some(pipeline),
            ) => {
                let passes = passes
                    .into_iter()
                    .map(|pass| CompiledPass {
                        first: pass.first,
                        windows: pass.params.map(|p| uniforms.push(bytemuck::bytes_of(&p))),
                    })
                    .collect();
                CompiledStep::Dispatch {
                    kernel,
                    windowing,
                    pipeline,
                    params: uniforms.push(params.bytes()),
                    workgroups,
                    placement,
                    passes,
                    contiguous,
                }
            }
            (Step::Clear(role), _, _) => CompiledStep::Clear(role),
            // `build_all` gives a pipeline for each planned dispatch, in `pipeline_keys`' order.
            (Step::Dispatch { .. }, _, _) => {
                unreachable!("every dispatch step is planned and has its pipeline")
            }
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
