//! `Context`: a device, its queue and the pipeline cache; `compile` and `run`.

use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

mod planning;

use crate::compiled::{CompiledOperator, OperatorPlan};
use crate::context_options::ContextOptions;
pub use crate::copy_method::CopyMethod;
use crate::copy_method::{self, CopyMethodCell};
use crate::error::{Error, Result};
use crate::lowering::Int64Atomics;
use crate::ops::{OperatorDesc, SliceDesc};
use crate::pipeline::{self, PipelineKey, Pipelines};
use crate::readback::read_back;
use crate::shared::{Scratch, Shared};
use crate::tensor::{DataType, TensorDesc};

/// Threads per workgroup, lowered if the device allows fewer.
const WORKGROUP_SIZE: u32 = 256;
/// Threads of a row kernel's workgroup (`scatter_copy_rows`, `scatter_rows_in_place`) where the device allows (its row of workgroup
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
    /// The 64-bit integer atomics the device has and the options allow.
    int64_atomics: Int64Atomics,
    /// Whether Float64 Add and Mul use the device's f64 (it has it and the options allow).
    hardware_float64: bool,
    /// Whether Float32 Add may use the device's f32 atomics (it has them and the options
    /// allow).
    float32_atomics: bool,
    /// Whether written 2-byte outputs store an element by one 16-bit store (the device has
    /// `SHADER_F16` and the options allow).
    half_stores: bool,
    /// Whether the device may end an invocation's loops after a budget of iterations
    /// (`DeviceFacts::bounded_loops`).
    bounded_loops: bool,
}

// In a browser wgpu's handles are not Send: one thread uses the context there.
#[cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
impl Context {
    /// Opens the default adapter. Honours `WGPU_BACKEND` (for example `vulkan`, `gl`),
    /// `WGPU_ADAPTER_NAME` (a case-insensitive part of the adapter's name; an error if none
    /// matches) and `WGPU_POWER_PREF`. The device gets the adapter's full limits, its
    /// timestamp-query features where the adapter has them (for benchmarks), and its
    /// pipeline cache where it has one (`wgpu::Features::PIPELINE_CACHE`, Vulkan), and its
    /// 64-bit integer atomics where it has them (`SHADER_INT64` with
    /// `SHADER_INT64_ATOMIC_MIN_MAX` or `SHADER_INT64_ATOMIC_ALL_OPS`: 8-byte integer Min and
    /// Max, or Add, reduce by one atomic an update instead of the in-order path), and f64
    /// where it has it (`SHADER_F64` with `SHADER_INT64`: Float64 Add and Mul compute there where it gives
    /// IEEE's bits, see [`ContextOptions::with_hardware_float64`]), and f32 atomics where it
    /// has them (`SHADER_FLOAT32_ATOMIC`: see [`ContextOptions::with_float32_atomics`]), and
    /// 16-bit storage where it has it (`SHADER_F16`: see [`ContextOptions::with_half_stores`]). Then as
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
            | wgpu::Features::PIPELINE_CACHE
            | wgpu::Features::SHADER_INT64
            | wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX
            | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
            | wgpu::Features::SHADER_F64
            | wgpu::Features::SHADER_FLOAT32_ATOMIC
            | wgpu::Features::SHADER_F16;
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
        let device_features = device.features();
        let adapter = device.adapter_info();
        let vulkan = adapter.backend == wgpu::Backend::Vulkan;
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
            int64_atomics: if options.without_int64_atomics {
                Int64Atomics::None
            } else {
                Int64Atomics::of(device_features)
            },
            hardware_float64: !options.without_hardware_float64
                && device_features
                    .contains(wgpu::Features::SHADER_F64 | wgpu::Features::SHADER_INT64),
            float32_atomics: !options.without_float32_atomics
                && device_features.contains(wgpu::Features::SHADER_FLOAT32_ATOMIC),
            // Vulkan only: there a 16-bit store through an f16 view is a 16-bit store and moves
            // the bits as they are, which the tests check on lavapipe and NVIDIA. DX12's raw
            // buffers, Metal and browsers (whose WebGPU validates two bindings of one buffer
            // in a dispatch its own way) are untested.
            half_stores: !options.without_half_stores
                && vulkan
                && device_features.contains(wgpu::Features::SHADER_F16),
            bounded_loops: options
                .bounded_loops
                .unwrap_or_else(|| adapter_bounds_loops(&adapter)),
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
                // Not remembered: an application does not compile these descs.
                let plan = self.make_plan(self.prepare(&slice.into()).ok()?).ok()?;
                Some(self.operator_from(Arc::new(plan)))
            })
        })
    }

    /// Chooses how operators compiled from now on move contiguous runs of bytes, instead of
    /// what was measured (operators compiled before keep their method).
    pub fn set_copy_method(&self, method: CopyMethod) {
        self.copy_method.set(method);
    }

    /// Builds every pipeline the operators of `descs` need, natively on several threads at
    /// once (a driver compiles a pipeline on the thread that asks for it), and makes and
    /// remembers their plans (uniform buffers included; see [`Context::compile`]), so that a
    /// `compile` of any of them afterwards only looks it up while it is remembered. Pipelines depend on
    /// the data types, ranks, index formats and options of a desc and on its layout class,
    /// never on a size as such: the class is what sizes select among a kernel's entry
    /// points and lowerings (an inner size a multiple of 4 or of 1024 units walks blocks or
    /// rows, other sizes single units; a single row or update lowers to simpler kernels;
    /// tensors past the binding limit are bound as windows; a scatter that takes a workgroup
    /// a row has a pipeline per power of two of row length, up to 4096 units, then per
    /// 1024). A desc covers every size of its class: precompile one at each class an
    /// application meets. Each desc is
    /// validated as by `compile`; the first error is returned (the pipelines of the others
    /// are still built). In a browser, the pipelines are built one after another.
    pub fn precompile(&self, descs: &[OperatorDesc]) -> Result<()> {
        let mut prepared = Vec::new();
        let mut first_error = None;
        for desc in descs {
            if self.remembered_plan(desc).is_some() {
                continue;
            }
            match self.prepare(desc) {
                Ok(planned) => prepared.push((desc, planned)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        let keys: Vec<PipelineKey> = prepared
            .iter()
            .flat_map(|(_, planned)| planned.pipeline_keys())
            .collect();
        self.pipelines.build_all(&self.device, &keys);
        for (desc, planned) in prepared {
            match self.make_plan(planned) {
                Ok(plan) => self.shared.remember(desc, Arc::new(plan)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// How many descs' plans this context remembers (see [`Context::compile`]).
    pub fn remembered_plan_count(&self) -> usize {
        self.shared.plan_count()
    }

    /// Forgets every remembered plan (see [`Context::compile`]) with its uniform buffers, and
    /// lets go of the scratch buffers no operator holds. Pipelines are kept (they never depend
    /// on sizes), and so are operators compiled before.
    pub fn release_unused_memory(&self) {
        self.shared.release();
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

    /// Whether this context stores 2-byte scatter elements by 16-bit stores (see
    /// [`ContextOptions::with_half_stores`]). A test hook, not part of the API.
    #[doc(hidden)]
    pub fn uses_half_stores(&self) -> bool {
        self.half_stores
    }

    /// Whether this context plans for a device that bounds loops (see
    /// [`ContextOptions::with_bounded_loops`]). A test hook, not part of the API.
    #[doc(hidden)]
    pub fn bounds_loops(&self) -> bool {
        self.bounded_loops
    }

    /// How many shader modules this context has built so far: one a kernel variant's entry
    /// point (each holds only the code its entry point reaches).
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
    ///
    /// The context remembers the plans of up to 512 descs it compiled or precompiled last
    /// (when full, it forgets the half least recently compiled): their steps, pipelines,
    /// uniforms and placeholders, all that depends on the desc alone. A compile of an equal
    /// desc looks its plan up (a plan that copies contiguous runs, only while the copy method
    /// is the one it was made with) and creates only what is the operator's own: its slot of
    /// status words (one in 64 such compiles makes a buffer of slots) and, where the context
    /// let it go, the shared scratch. Every operator still records and reports on its own.
    /// [`Context::release_unused_memory`] forgets the plans.
    pub fn compile(&self, desc: &OperatorDesc) -> Result<CompiledOperator> {
        Ok(self.operator_from(self.operator_plan(desc)?))
    }

    /// An operator of `plan`, with what is its own.
    fn operator_from(&self, plan: Arc<OperatorPlan>) -> CompiledOperator {
        CompiledOperator {
            device: self.device.clone(),
            queue: self.queue.clone(),
            status: plan
                .index_report
                .as_ref()
                .map(|_| self.shared.status_slot(&self.device)),
            scratch: (plan.scratch_bytes > 0).then(|| {
                self.shared
                    .scratch(&self.device, Scratch::PerOutput, plan.scratch_bytes)
            }),
            links: (plan.links_bytes > 0).then(|| {
                self.shared
                    .scratch(&self.device, Scratch::Links, plan.links_bytes)
            }),
            plan,
            bind_groups: Mutex::default(),
        }
    }

    /// The plan of `desc`: remembered from a compile of an equal desc (with the same copy
    /// method), or made now and remembered.
    fn operator_plan(&self, desc: &OperatorDesc) -> Result<Arc<OperatorPlan>> {
        if let Some(plan) = self.remembered_plan(desc) {
            return Ok(plan);
        }
        let plan = Arc::new(self.make_plan(self.prepare(desc)?)?);
        self.shared.remember(desc, plan.clone());
        Ok(plan)
    }

    /// The plan remembered for `desc`, where it still fits the context.
    fn remembered_plan(&self, desc: &OperatorDesc) -> Option<Arc<OperatorPlan>> {
        // Checked with no lock held: the copy method may be measured, compiling.
        self.shared.plan(desc).filter(|plan| self.is_current(plan))
    }

    /// Whether a remembered plan still fits the context: a plan that copies contiguous runs
    /// chose its way by the copy method, which `set_copy_method` may have changed.
    fn is_current(&self, plan: &OperatorPlan) -> bool {
        plan.copy_method
            .is_none_or(|method| method == self.copy_method())
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
        for (t, data) in operator.plan.inputs.iter().zip(inputs) {
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
            .plan
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
        let bytes = operator.plan.output.bytes;
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

/// Whether the adapter may end an invocation's loops after a budget of iterations in all
/// (`DeviceFacts::bounded_loops`): Mesa's llvmpipe and lavapipe do (gallivm's loop limiter),
/// and any adapter not known to be a GPU may (CPU adapters, and browsers, whose WebGPU does
/// not say what the adapter is), so only a discrete or integrated GPU of another driver
/// is taken not to.
fn adapter_bounds_loops(adapter: &wgpu::AdapterInfo) -> bool {
    bounds_loops(
        adapter.device_type,
        [&adapter.name, &adapter.driver, &adapter.driver_info],
    )
}

/// [`adapter_bounds_loops`] by the adapter's device type and `names`: its name, driver and
/// driver information.
fn bounds_loops(device_type: wgpu::DeviceType, names: [&str; 3]) -> bool {
    let gpu = matches!(
        device_type,
        wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu
    );
    let software = ["llvmpipe", "lavapipe", "softpipe", "swiftshader"]
        .iter()
        .any(|software| {
            names
                .iter()
                .any(|name| name.to_lowercase().contains(software))
        });
    !gpu || software
}

// Native adapters (lavapipe in CI); the browser's tests are tests/web.rs.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::ops::GatherElementsDesc;

    fn context(method: CopyMethod) -> Context {
        Context::new_blocking_with(ContextOptions::default().with_copy_method(method))
            .expect("an adapter (lavapipe in CI)")
    }

    fn gather_elements() -> OperatorDesc {
        let tensor = |data_type| TensorDesc::new(data_type, &[3, 5, 4]);
        GatherElementsDesc::new(
            tensor(DataType::Float16),
            tensor(DataType::Int64),
            tensor(DataType::Float16),
            1,
        )
        .into()
    }

    /// A copy of one contiguous run (the copy method chooses how it is recorded).
    fn contiguous_slice() -> OperatorDesc {
        let tensor = TensorDesc::new(DataType::UInt32, &[256]);
        SliceDesc::new(tensor.clone(), tensor, &[0], &[256], &[1]).into()
    }

    #[test]
    fn only_gpus_of_drivers_other_than_mesas_software_ones_walk_loops_unbounded() {
        use wgpu::DeviceType as D;
        // lavapipe (Vulkan) and llvmpipe (GL) as wgpu reports them.
        assert!(bounds_loops(
            D::Cpu,
            [
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                "llvmpipe",
                "Mesa 22.3.6 (LLVM 15.0.6)"
            ]
        ));
        assert!(bounds_loops(
            D::Cpu,
            ["llvmpipe (LLVM 15.0.6, 256 bits)", "", ""]
        ));
        // A GPU the name calls software, a browser's adapter that says nothing, a virtual GPU.
        assert!(bounds_loops(D::DiscreteGpu, ["SwiftShader Device", "", ""]));
        assert!(bounds_loops(D::Other, ["", "", ""]));
        assert!(bounds_loops(D::VirtualGpu, ["virgl", "", ""]));
        assert!(!bounds_loops(
            D::DiscreteGpu,
            ["NVIDIA H200", "NVIDIA", "580.159.04"]
        ));
        assert!(!bounds_loops(
            D::IntegratedGpu,
            ["AMD Radeon Graphics (RADV RENOIR)", "radv", "Mesa 24.2"]
        ));
        // The adapter the tests run on.
        let context = context(CopyMethod::Kernel);
        let adapter = context.adapter_info();
        let bounded = adapter_bounds_loops(&adapter);
        assert_eq!(context.bounds_loops(), bounded);
        if adapter.device_type == D::Cpu {
            assert!(bounded, "{adapter:?}");
        }
    }

    #[test]
    fn an_equal_desc_compiled_again_shares_its_plan_but_not_its_status_slot() {
        let context = context(CopyMethod::Kernel);
        let first = context.compile(&gather_elements()).unwrap();
        let again = context.compile(&gather_elements()).unwrap();
        assert!(Arc::ptr_eq(&first.plan, &again.plan));
        let (a, b) = (
            first.status.as_ref().unwrap(),
            again.status.as_ref().unwrap(),
        );
        assert!(!(Arc::ptr_eq(&a.buffer, &b.buffer) && a.offset == b.offset));
        // Another desc has a plan of its own.
        let other = context.compile(&contiguous_slice()).unwrap();
        assert!(!Arc::ptr_eq(&first.plan, &other.plan));
        assert_eq!(context.remembered_plan_count(), 2);
    }

    #[test]
    fn a_plan_that_copies_runs_is_made_again_when_the_copy_method_changes() {
        let context = context(CopyMethod::CopyBufferToBuffer);
        let copying = context.compile(&contiguous_slice()).unwrap();
        let gathering = context.compile(&gather_elements()).unwrap();
        context.set_copy_method(CopyMethod::Kernel);
        let copying_again = context.compile(&contiguous_slice()).unwrap();
        assert!(!Arc::ptr_eq(&copying.plan, &copying_again.plan));
        assert_eq!(copying_again.plan.copy_method, Some(CopyMethod::Kernel));
        // The new plan replaced the old one; a desc that copies no run keeps its plan.
        let third = context.compile(&contiguous_slice()).unwrap();
        assert!(Arc::ptr_eq(&copying_again.plan, &third.plan));
        let gathering_again = context.compile(&gather_elements()).unwrap();
        assert!(Arc::ptr_eq(&gathering.plan, &gathering_again.plan));
        assert_eq!(context.remembered_plan_count(), 2);
    }
}
