//! A context's pipelines: each kernel variant is compiled once per context, on first use or
//! ahead of it, several at once on native targets.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::kernels::params::PipelineConstants;
use crate::kernels::{Entry, Kernel, Windowing};

/// A compiled entry point and its kernel's explicit bind-group layout.
#[derive(Debug)]
pub(crate) struct Pipeline {
    pub pipeline: wgpu::ComputePipeline,
    pub bind_group_layout: wgpu::BindGroupLayout,
}

/// One entry point's shader module with its kernel's explicit layouts.
#[derive(Debug)]
struct Module {
    module: wgpu::ShaderModule,
    bind_group_layout: wgpu::BindGroupLayout,
    layout: wgpu::PipelineLayout,
}

/// What identifies a pipeline: the kernel variant, its windowing, the entry point and the
/// pipeline constants' values (`Parameters::pipeline_constants`, small bounded sets only).
pub(crate) type PipelineKey = (Kernel, Windowing, Entry, PipelineConstants);

/// A quick hasher for the maps a compile looks its pipelines and uniforms up in (keys our
/// own code makes, so no defence against chosen collisions is needed; std's SipHash of the
/// keys' names was a tenth of a cached compile).
#[derive(Default)]
pub(crate) struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FastHash = std::hash::BuildHasherDefault<FastHasher>;

/// A value built once by whichever thread asks first; others asking meanwhile wait for it.
type Cell<T> = Arc<OnceLock<T>>;

#[derive(Debug, Default)]
struct Entries {
    modules: HashMap<(Kernel, Windowing, Entry), Cell<Arc<Module>>, FastHash>,
    pipelines: HashMap<PipelineKey, Cell<Arc<Pipeline>>, FastHash>,
}

/// The pipelines of a context: built lazily, each once, shared between threads. The map's
/// lock is held only to find a pipeline's cell, never while a pipeline is built, so different
/// pipelines build at once on different threads ([`Pipelines::build_all`]).
#[derive(Debug)]
pub(crate) struct Pipelines {
    entries: Mutex<Entries>,
    /// The driver's cache of compiled pipelines, where the device has one (wgpu's
    /// `Features::PIPELINE_CACHE`): every pipeline is created through it.
    driver_cache: Option<wgpu::PipelineCache>,
    workgroup_size: u32,
}

impl Pipelines {
    pub fn new(driver_cache: Option<wgpu::PipelineCache>, workgroup_size: u32) -> Pipelines {
        Pipelines {
            entries: Mutex::default(),
            driver_cache,
            workgroup_size,
        }
    }

    fn cells(&self, key: &PipelineKey) -> (Cell<Arc<Module>>, Cell<Arc<Pipeline>>) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let module = entries
            .modules
            .entry((key.0, key.1, key.2))
            .or_default()
            .clone();
        let pipeline = entries.pipelines.entry(*key).or_default().clone();
        (module, pipeline)
    }

    /// The pipeline of `key`, built now if this is its first use (and by one thread only
    /// when several ask at once).
    pub fn get(&self, device: &wgpu::Device, key: &PipelineKey) -> Arc<Pipeline> {
        let (module, pipeline) = self.cells(key);
        pipeline
            .get_or_init(|| {
                let module = module
                    .get_or_init(|| Arc::new(build_module(device, key, self.workgroup_size)))
                    .clone();
                Arc::new(self.build_pipeline(device, key, &module))
            })
            .clone()
    }

    /// The pipelines of `keys`, in their order, building those not built yet on as many
    /// threads as the machine has cores (a driver compiles each pipeline on the thread that
    /// creates it). In a browser, one after another.
    pub fn build_all(&self, device: &wgpu::Device, keys: &[PipelineKey]) -> Vec<Arc<Pipeline>> {
        // The common case, every pipeline built: one lock, no clones of cells.
        let built: Vec<Option<Arc<Pipeline>>> = {
            let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            keys.iter()
                .map(|key| entries.pipelines.get(key).and_then(|c| c.get()).cloned())
                .collect()
        };
        let mut missing: Vec<PipelineKey> = Vec::new();
        for (key, pipeline) in keys.iter().zip(&built) {
            if pipeline.is_none() && !missing.contains(key) {
                missing.push(*key);
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        if missing.len() > 1 {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let next = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..threads.min(missing.len()) {
                    scope.spawn(|| {
                        while let Some(key) =
                            missing.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                        {
                            self.get(device, key);
                        }
                    });
                }
            });
        }
        keys.iter()
            .zip(built)
            .map(|(key, pipeline)| pipeline.unwrap_or_else(|| self.get(device, key)))
            .collect()
    }

    fn build_pipeline(
        &self,
        device: &wgpu::Device,
        key: &PipelineKey,
        module: &Module,
    ) -> Pipeline {
        let (kernel, windowing, entry, constants) = key;
        let label = format!("{} {}", kernel.windowed_label(windowing), entry.name());
        log::debug!("building pipeline {label} {:?}", constants.entries());
        #[cfg(not(target_arch = "wasm32"))]
        let start = std::time::Instant::now();
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: Some(&module.layout),
            module: &module.module,
            entry_point: Some(entry.name()),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants.entries(),
                // Every kernel writes the workgroup memory it reads first (each thread its
                // own slots before the first barrier; thread 0 a workgroup's shared values
                // before `workgroupUniformLoad`; the long folds only the entries the loaders
                // stored). The zero fill would cost each workgroup a barrier, and naga writes
                // it for GL as one array constructor an element long, which Mesa's GLSL
                // compiler took 47 s to build for a 2048-entry array.
                zero_initialize_workgroup_memory: false,
            },
            cache: self.driver_cache.as_ref(),
        });
        #[cfg(not(target_arch = "wasm32"))]
        log::debug!(
            "built pipeline {label} in {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
        Pipeline {
            pipeline,
            bind_group_layout: module.bind_group_layout.clone(),
        }
    }

    /// The driver cache's bytes, where the device has one.
    pub fn driver_cache_data(&self) -> Option<Vec<u8>> {
        Some(seal(&self.driver_cache.as_ref()?.get_data()?))
    }

    /// How many shader modules have been built (for tests of the cache).
    pub fn module_count(&self) -> usize {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .modules
            .values()
            .filter(|m| m.get().is_some())
            .count()
    }

    /// How many pipelines have been built.
    pub fn pipeline_count(&self) -> usize {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .pipelines
            .values()
            .filter(|p| p.get().is_some())
            .count()
    }
}

/// The module of a pipeline's entry point: only the code the entry reaches
/// ([`Kernel::entry_source`]), with the kernel's explicit layouts.
fn build_module(device: &wgpu::Device, key: &PipelineKey, workgroup_size: u32) -> Module {
    let (kernel, windowing, entry, _) = key;
    let (kernel, windowing, entry) = (*kernel, windowing, *entry);
    let label = format!("{} {}", kernel.windowed_label(windowing), entry.name());
    log::debug!("building shader module {label}");
    #[cfg(not(target_arch = "wasm32"))]
    let start = std::time::Instant::now();
    // Every check but one: naga's forced loop bounds (a 64-bit counter in every loop, so that
    // a driver cannot treat an infinite loop as unreachable) cost the H100 5 to 14 % on the
    // scatters and strided slices, and our loops all end. Bounds and division checks stay
    // (turning those off too measured no faster).
    let checks = wgpu::ShaderRuntimeChecks {
        force_loop_bounding: false,
        ..wgpu::ShaderRuntimeChecks::checked()
    };
    // SAFETY: `force_loop_bounding: false` requires that no shader loops for ever. Ours are
    // our own WGSL (`shaders/`, never user code), and each loop ends: counted loops run to a
    // bound read from the parameters (a rank, a tuple size, a unit count); a compare-exchange
    // loop retries only when another thread's exchange succeeded in between (lock-free), or
    // on a weak exchange's spurious failure; the in-order folds take at most FOLD_STEPS
    // updates an invocation (longer runs go on in the next pass).
    let module = unsafe {
        device.create_shader_module_trusted(
            wgpu::ShaderModuleDescriptor {
                label: Some(&label),
                source: wgpu::ShaderSource::Wgsl(
                    kernel.entry_source(entry, workgroup_size, windowing).into(),
                ),
            },
            checks,
        )
    };
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let mut entries = vec![entry(0, wgpu::BufferBindingType::Uniform)];
    let (numbers, windows_binding) = kernel.binding_numbers(windowing);
    for (binding, first) in kernel.windowed_bindings(windowing).iter().zip(numbers) {
        for slot in first..first + windowing.slots(binding.role) {
            let read_only = binding.read_only();
            entries.push(entry(slot, wgpu::BufferBindingType::Storage { read_only }));
        }
    }
    if windowing.partial {
        entries.push(entry(windows_binding, wgpu::BufferBindingType::Uniform));
    }
    let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(&label),
        entries: &entries,
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&label),
        bind_group_layouts: &[Some(&bind_group_layout)],
        immediate_size: 0,
    });
    #[cfg(not(target_arch = "wasm32"))]
    log::debug!(
        "built shader module {label} in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    Module {
        module,
        bind_group_layout,
        layout,
    }
}

/// The device's driver pipeline cache where it has one (`Features::PIPELINE_CACHE`), seeded
/// with `data` (from [`seal`]) where the device takes it; and whether it did.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn driver_cache(
    device: &wgpu::Device,
    data: Option<&[u8]>,
) -> (Option<wgpu::PipelineCache>, bool) {
    if !device.features().contains(wgpu::Features::PIPELINE_CACHE) {
        return (None, false);
    }
    let create = |data: Option<&[u8]>| {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        // SAFETY: `ContextOptions::with_pipeline_cache_data`, an unsafe fn, is the only way
        // bytes get here, and its caller promised they are what `pipeline_cache_data` (our
        // header over `PipelineCache::get_data`) returned; `open` checked our header and its
        // checksum. wgpu checks its own header against this adapter, its driver and its
        // format, and without `fallback` refuses bytes that do not match with a validation
        // error, caught here.
        let cache = unsafe {
            device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                label: Some("dml-wgsl pipelines"),
                data,
                fallback: false,
            })
        };
        pollster::block_on(scope.pop()).is_none().then_some(cache)
    };
    match data
        .and_then(open)
        .and_then(|payload| create(Some(payload)))
    {
        Some(seeded) => (Some(seeded), true),
        None => (create(None), false),
    }
}

/// No pipeline cache in a browser (WebGPU has none).
#[cfg(target_arch = "wasm32")]
pub(crate) fn driver_cache(
    _: &wgpu::Device,
    _: Option<&[u8]>,
) -> (Option<wgpu::PipelineCache>, bool) {
    (None, false)
}

/// The start of the bytes `Context::pipeline_cache_data` hands out: a name and a version.
const SEAL_MAGIC: [u8; 8] = *b"DMLWGPC1";
/// The magic, the payload's length and its checksum.
const SEAL_BYTES: usize = 8 + 8 + 8;

/// wgpu's cache bytes behind a header of ours: a magic, their length and a checksum, so that
/// truncated or damaged bytes never reach the driver.
pub(crate) fn seal(payload: &[u8]) -> Vec<u8> {
    let mut sealed = Vec::with_capacity(SEAL_BYTES + payload.len());
    sealed.extend_from_slice(&SEAL_MAGIC);
    sealed.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    sealed.extend_from_slice(&checksum(payload).to_le_bytes());
    sealed.extend_from_slice(payload);
    sealed
}

/// The payload of `sealed` if its header holds: `None` for anything else.
// A browser has no pipeline cache to seed.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub(crate) fn open(sealed: &[u8]) -> Option<&[u8]> {
    let (header, payload) = sealed.split_at_checked(SEAL_BYTES)?;
    let word = |k: usize| u64::from_le_bytes(header[k..k + 8].try_into().expect("8 bytes"));
    (header[..8] == SEAL_MAGIC && word(8) == payload.len() as u64 && word(16) == checksum(payload))
        .then_some(payload)
}

/// 64-bit FNV-1a: catches damage, not forgery.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_cache_bytes_open_to_their_payload_and_damaged_ones_do_not() {
        let payload: Vec<u8> = (0..200u32).map(|k| (k * 7 + 3) as u8).collect();
        let sealed = seal(&payload);
        assert_eq!(open(&sealed), Some(payload.as_slice()));
        assert_eq!(open(&seal(&[])), Some(&[][..]));
        // Truncated, extended, a payload byte or a header byte changed, nothing at all.
        assert_eq!(open(&sealed[..sealed.len() - 1]), None);
        assert_eq!(open(&[sealed.as_slice(), &[0]].concat()), None);
        for at in [0, 9, 17, SEAL_BYTES, sealed.len() - 1] {
            let mut damaged = sealed.clone();
            damaged[at] ^= 0x10;
            assert_eq!(open(&damaged), None, "byte {at} changed");
        }
        assert_eq!(open(&[]), None);
        assert_eq!(open(&sealed[..SEAL_BYTES - 1]), None);
    }
}
