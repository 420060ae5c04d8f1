//! Scratch diagnostic (issue 27): the driver's build time of WGSL modules read from files, one
//! at a time in this process. Each file starts with `// probe-entry: NAME` and
//! `// probe-constants: A=1 B=2`. Prints `PROBE <file> <module ms> <pipeline ms> <error>`.
#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(descriptor);
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .expect("adapter");
    let wanted = wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX
        | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
        | wgpu::Features::SHADER_F64
        | wgpu::Features::SHADER_FLOAT32_ATOMIC;
    let (device, _queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: adapter.features() & wanted,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("device");
    eprintln!("adapter: {}", adapter.get_info().name);
    let build = |text: &str, entry: &str, constants: &[(String, f64)]| -> (f64, f64, String) {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let start = Instant::now();
        let checks = wgpu::ShaderRuntimeChecks {
            force_loop_bounding: false,
            ..wgpu::ShaderRuntimeChecks::checked()
        };
        let module = unsafe {
            device.create_shader_module_trusted(
                wgpu::ShaderModuleDescriptor {
                    label: None,
                    source: wgpu::ShaderSource::Wgsl(text.into()),
                },
                checks,
            )
        };
        let module_ms = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let constants: Vec<(&str, f64)> = constants.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        let _pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        let pipeline_ms = start.elapsed().as_secs_f64() * 1e3;
        let error = pollster::block_on(scope.pop())
            .map(|e| e.to_string().replace('\n', " "))
            .unwrap_or_default();
        (module_ms, pipeline_ms, error)
    };
    // The compiler loaded and warm, as after a context's own first pipeline.
    build("@compute @workgroup_size(64) fn main() {}", "main", &[]);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let mut entry = String::new();
        let mut constants = Vec::new();
        for line in text.lines().take(2) {
            if let Some(e) = line.strip_prefix("// probe-entry: ") {
                entry = e.trim().to_string();
            }
            if let Some(c) = line.strip_prefix("// probe-constants: ") {
                for pair in c.split_whitespace() {
                    let (n, v) = pair.split_once('=').expect("A=1");
                    constants.push((n.to_string(), v.parse::<f64>().expect("number")));
                }
            }
        }
        let (module_ms, pipeline_ms, error) = build(&text, &entry, &constants);
        let naga_ms = naga_time(&text, &entry, &constants);
        let name = std::path::Path::new(&file)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        println!(
            "PROBE\t{name}\t{module_ms:.2}\t{pipeline_ms:.2}\t{naga_ms:.2}\t{}",
            &error[..error.len().min(300)]
        );
    }
}

/// What wgpu does on the CPU when it builds the pipeline (the overrides, SPIR-V), timed alone.
fn naga_time(text: &str, entry: &str, constants: &[(String, f64)]) -> f64 {
    let Ok(module) = naga::front::wgsl::parse_str(text) else {
        return -1.0;
    };
    let Ok(info) = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module) else {
        return -1.0;
    };
    let constants: naga::back::PipelineConstants = constants.iter().cloned().collect();
    let start = Instant::now();
    let Ok((module, info)) =
        naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants)
    else {
        return -1.0;
    };
    let options = naga::back::spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.to_string(),
    };
    let _ = naga::back::spv::write_vec(
        &module,
        &info,
        &naga::back::spv::Options::default(),
        Some(&options),
    );
    start.elapsed().as_secs_f64() * 1e3
}
