//! The pipeline cache: each kernel variant is compiled once per context, on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::shaders::Kernel;

/// A compiled kernel and the explicit bind-group layout it was built with.
#[derive(Debug)]
pub(crate) struct Pipeline {
    pub pipeline: wgpu::ComputePipeline,
    pub bind_group_layout: wgpu::BindGroupLayout,
}

/// Lazily built, insert-once, shared between threads.
#[derive(Debug, Default)]
pub(crate) struct PipelineCache {
    entries: Mutex<HashMap<Kernel, Arc<Pipeline>>>,
}

impl PipelineCache {
    /// The pipeline for `kernel`, built now if this is its first use. Building happens under
    /// the lock, so two threads asking at once still build it only once.
    pub fn get(&self, device: &wgpu::Device, kernel: Kernel, workgroup_size: u32) -> Arc<Pipeline> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .entry(kernel)
            .or_insert_with(|| Arc::new(build(device, kernel, workgroup_size)))
            .clone()
    }

    /// How many variants have been built (for tests of the cache).
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

fn build(device: &wgpu::Device, kernel: Kernel, workgroup_size: u32) -> Pipeline {
    let label = kernel.label();
    log::debug!("building pipeline {label}");
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(&label),
        source: wgpu::ShaderSource::Wgsl(kernel.source(workgroup_size).into()),
    });
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }];
    for (i, binding) in kernel.bindings().iter().enumerate() {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: i as u32 + 1,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage {
                    read_only: binding.read_only(),
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        });
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
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(&label),
        layout: Some(&layout),
        module: &module,
        entry_point: Some(kernel.entry_point()),
        compilation_options: wgpu::PipelineCompilationOptions::default(),
        cache: None,
    });
    Pipeline {
        pipeline,
        bind_group_layout,
    }
}
