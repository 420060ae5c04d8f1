//! The pipeline cache: each kernel variant is compiled once per context, on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::kernels::params::PipelineConstants;
use crate::kernels::{Entry, Kernel, Windowing};

/// A compiled entry point and the explicit bind-group layout shared by its module's entries.
#[derive(Debug)]
pub(crate) struct Pipeline {
    pub pipeline: wgpu::ComputePipeline,
    pub bind_group_layout: wgpu::BindGroupLayout,
}

/// One shader module with its explicit layouts.
#[derive(Debug)]
struct Module {
    module: wgpu::ShaderModule,
    bind_group_layout: wgpu::BindGroupLayout,
    layout: wgpu::PipelineLayout,
}

#[derive(Debug, Default)]
struct Entries {
    modules: HashMap<(Kernel, Windowing), Module>,
    /// Keyed also by the pipeline constants' values (`Parameters::pipeline_constants`).
    pipelines: HashMap<(Kernel, Windowing, Entry, PipelineConstants), Arc<Pipeline>>,
}

/// Lazily built, insert-once, shared between threads.
#[derive(Debug, Default)]
pub(crate) struct PipelineCache {
    entries: Mutex<Entries>,
}

impl PipelineCache {
    /// The pipeline for `kernel`'s `entry` under `windowing` with `constants`, built now if
    /// this is its first use. Building happens under the lock, so two threads asking at once
    /// build it only once.
    pub fn get(
        &self,
        device: &wgpu::Device,
        kernel: Kernel,
        windowing: Windowing,
        entry: Entry,
        constants: PipelineConstants,
        workgroup_size: u32,
    ) -> Arc<Pipeline> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let key = (kernel, windowing, entry, constants);
        if let Some(p) = entries.pipelines.get(&key) {
            return p.clone();
        }
        let module = entries
            .modules
            .entry((kernel, windowing))
            .or_insert_with(|| build_module(device, kernel, &windowing, workgroup_size));
        let label = format!("{} {}", kernel.windowed_label(&windowing), entry.name());
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
            cache: None,
        });
        let pipeline = Arc::new(Pipeline {
            pipeline,
            bind_group_layout: module.bind_group_layout.clone(),
        });
        entries.pipelines.insert(key, pipeline.clone());
        pipeline
    }

    /// How many shader modules have been built (for tests of the cache).
    pub fn module_count(&self) -> usize {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.modules.len()
    }
}

fn build_module(
    device: &wgpu::Device,
    kernel: Kernel,
    windowing: &Windowing,
    workgroup_size: u32,
) -> Module {
    let label = kernel.windowed_label(windowing);
    log::debug!("building shader module {label}");
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
                    kernel.windowed_source(workgroup_size, windowing).into(),
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
    for (binding, first) in kernel.bindings().iter().zip(numbers) {
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
    Module {
        module,
        bind_group_layout,
        layout,
    }
}
