//! Scratch probe (issue 28): ScatterElements of 2-byte elements along axis 0, in place, by
//! 16-bit stores (`enable f16;`, `array<f16>`) against the word compare-exchange the library
//! uses today, on the narrow sweep's shapes. GPU time of the kernel alone (timestamps around
//! its pass), median of 30 runs; both checked bit-exact against the host.
#![cfg(not(target_arch = "wasm32"))]

use wgpu::util::DeviceExt;

const SHADER_F16: &str = r#"
enable f16;
struct P { count: u32, columns: u32, rows: u32, wide: u32, tile: u32, dense_rows: u32, row_groups: u32, pad: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> upd: array<f16>;
@group(0) @binding(3) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let i = g.x + g.y * n.x * 256u;
    if i >= p.count { return; }
    let j = i % p.columns;
    let r = idx[i << p.wide];
    if p.wide == 1u && idx[2u * i + 1u] != 0u { return; }
    if r < p.rows { out[r * p.columns + j] = upd[i]; }
}
"#;

const SHADER_F16_TILED: &str = r#"
enable f16;
struct P { count: u32, columns: u32, rows: u32, wide: u32, tile: u32, dense_rows: u32, row_groups: u32, pad: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> upd: array<f16>;
@group(0) @binding(3) var<storage, read_write> out: array<f16>;

fn group_index(t: u32) -> u32 {
    if p.tile == 0u { return t; }
    let per_block = p.dense_rows * p.tile;
    let block = t / per_block;
    let rest = t - block * per_block;
    let row = rest / p.tile;
    return row * p.row_groups + block * p.tile + (rest - row * p.tile);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let t = g.x + g.y * n.x * 256u;
    if t >= p.dense_rows * p.row_groups { return; }
    let group = group_index(t);
    let row = group / p.row_groups;
    let first = row * p.columns + (group - row * p.row_groups) * 2u;
    let end = min(first + 2u, (row + 1u) * p.columns);
    for (var i = first; i < end; i += 1u) {
        let j = i % p.columns;
        let r = idx[i << p.wide];
        if p.wide == 1u && idx[2u * i + 1u] != 0u { continue; }
        if r < p.rows { out[r * p.columns + j] = upd[i]; }
    }
}
"#;

const SHADER_WORDS_TILED: &str = r#"
struct P { count: u32, columns: u32, rows: u32, wide: u32, tile: u32, dense_rows: u32, row_groups: u32, pad: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> upd: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<atomic<u32>>;

fn group_index(t: u32) -> u32 {
    if p.tile == 0u { return t; }
    let per_block = p.dense_rows * p.tile;
    let block = t / per_block;
    let rest = t - block * per_block;
    let row = rest / p.tile;
    return row * p.row_groups + block * p.tile + (rest - row * p.tile);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let t = g.x + g.y * n.x * 256u;
    if t >= p.dense_rows * p.row_groups { return; }
    let group = group_index(t);
    let row = group / p.row_groups;
    let first = row * p.columns + (group - row * p.row_groups) * 2u;
    let end = min(first + 2u, (row + 1u) * p.columns);
    for (var i = first; i < end; i += 1u) {
        let j = i % p.columns;
        let r = idx[i << p.wide];
        if p.wide == 1u && idx[2u * i + 1u] != 0u { continue; }
        if r >= p.rows { continue; }
        let value = (upd[i / 2u] >> ((i % 2u) * 16u)) & 0xffffu;
        let e = r * p.columns + j;
        let shift = (e % 2u) * 16u;
        let mask = 0xffffu << shift;
        var old = atomicLoad(&out[e / 2u]);
        loop {
            let s = atomicCompareExchangeWeak(&out[e / 2u], old, (old & ~mask) | (value << shift));
            if s.exchanged { break; }
            old = s.old_value;
        }
    }
}
"#;

const SHADER_WORDS: &str = r#"
struct P { count: u32, columns: u32, rows: u32, wide: u32, tile: u32, dense_rows: u32, row_groups: u32, pad: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> idx: array<u32>;
@group(0) @binding(2) var<storage, read> upd: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<atomic<u32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let i = g.x + g.y * n.x * 256u;
    if i >= p.count { return; }
    let j = i % p.columns;
    let r = idx[i << p.wide];
    if p.wide == 1u && idx[2u * i + 1u] != 0u { return; }
    if r >= p.rows { return; }
    let value = (upd[i / 2u] >> ((i % 2u) * 16u)) & 0xffffu;
    let e = r * p.columns + j;
    let shift = (e % 2u) * 16u;
    let mask = 0xffffu << shift;
    var old = atomicLoad(&out[e / 2u]);
    loop {
        let s = atomicCompareExchangeWeak(&out[e / 2u], old, (old & ~mask) | (value << shift));
        if s.exchanged { break; }
        old = s.old_value;
    }
}
"#;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
}

fn padded(bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    while v.len() % 4 != 0 {
        v.push(0);
    }
    v
}

fn main() {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(descriptor);
    let adapter = pollster::block_on(
        instance.request_adapter(&wgpu::RequestAdapterOptions::default()),
    )
    .expect("adapter");
    let features = wgpu::Features::SHADER_F16 | wgpu::Features::TIMESTAMP_QUERY;
    assert!(adapter.features().contains(features), "no f16 or timestamps");
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("device");
    eprintln!("adapter: {}", adapter.get_info().name);
    let pipeline = |text: &str| {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(text.into()),
        });
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        })
    };
    let kernels = [
        ("f16", pipeline(SHADER_F16), false),
        ("words", pipeline(SHADER_WORDS), false),
        ("f16_tiled", pipeline(SHADER_F16_TILED), true),
        ("words_tiled", pipeline(SHADER_WORDS_TILED), true),
    ];
    let period = queue.get_timestamp_period() as f64;
    let reps = 30;
    let mut rng = Rng(7);
    for pattern in ["rows", "diag"] {
        for rows in [4096u32, 4095] {
            for columns in 2048u32..2052 {
                for wide in [0u32, 1] {
                    let dense_rows = rows / 2;
                    let count = dense_rows * columns;
                    // p: the first dense_rows entries of a random permutation of 0..rows.
                    let mut perm: Vec<u32> = (0..rows).collect();
                    for k in (1..rows as usize).rev() {
                        perm.swap(k, rng.next() as usize % (k + 1));
                    }
                    let mut index = Vec::with_capacity(count as usize * 2);
                    for i in 0..dense_rows {
                        for j in 0..columns {
                            let r = if pattern == "rows" { perm[i as usize] } else { (perm[i as usize] + j) % rows };
                            index.push(r);
                            if wide == 1 {
                                index.push(0);
                            }
                        }
                    }
                    let input: Vec<u8> = (0..rows * columns * 2).map(|_| rng.next() as u8).collect();
                    let updates: Vec<u8> = (0..count * 2).map(|_| rng.next() as u8).collect();
                    let mut expected = input.clone();
                    for i in 0..count as usize {
                        let j = i % columns as usize;
                        let r = index[i << wide] as usize;
                        let e = r * columns as usize + j;
                        expected[2 * e..2 * e + 2].copy_from_slice(&updates[2 * i..2 * i + 2]);
                    }
                    let init = |contents: &[u8], usage| {
                        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                            label: None,
                            contents,
                            usage,
                        })
                    };
                    let s = wgpu::BufferUsages::STORAGE;
                    let row_groups = columns.div_ceil(2);
                    // The library's column blocks of 128 units where rows are whole blocks.
                    let tile = if row_groups % 64 == 0 { 64 } else { 0 };
                    let params = init(bytemuck::cast_slice(&[count, columns, rows, wide, tile, dense_rows, row_groups, 0]), wgpu::BufferUsages::UNIFORM);
                    let idx = init(bytemuck::cast_slice(&index), s);
                    let upd = init(&padded(&updates), s);
                    let original = init(&padded(&input), wgpu::BufferUsages::COPY_SRC);
                    let size = padded(&input).len() as u64;
                    let out = device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size,
                        usage: s | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    });
                    let readback = device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size,
                        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    });
                    let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: None,
                        ty: wgpu::QueryType::Timestamp,
                        count: 2,
                    });
                    let resolved = device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size: 16,
                        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    });
                    let times = device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size: 16,
                        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    });
                    let groups = count.div_ceil(256);
                    let (x, y) = if groups > 65535 { (65535, groups.div_ceil(65535)) } else { (groups, 1) };
                    let mut line = format!("{{\"shape\":\"sweep_scatter_inplace_f16_{pattern}_{rows}x{columns}_{}\"", if wide == 1 { "i64" } else { "i32" });
                    for (name, kernel, tiled) in &kernels {
                        let layout = kernel.get_bind_group_layout(0);
                        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                            label: None,
                            layout: &layout,
                            entries: &[
                                wgpu::BindGroupEntry { binding: 0, resource: params.as_entire_binding() },
                                wgpu::BindGroupEntry { binding: 1, resource: idx.as_entire_binding() },
                                wgpu::BindGroupEntry { binding: 2, resource: upd.as_entire_binding() },
                                wgpu::BindGroupEntry { binding: 3, resource: out.as_entire_binding() },
                            ],
                        });
                        let mut samples = Vec::new();
                        for rep in 0..reps + 3 {
                            let mut encoder = device.create_command_encoder(&Default::default());
                            encoder.copy_buffer_to_buffer(&original, 0, &out, 0, size);
                            {
                                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                                    label: None,
                                    timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                                        query_set: &queries,
                                        beginning_of_pass_write_index: Some(0),
                                        end_of_pass_write_index: Some(1),
                                    }),
                                });
                                pass.set_pipeline(kernel);
                                pass.set_bind_group(0, &group, &[]);
                                if *tiled {
                                    let groups = (dense_rows * row_groups).div_ceil(256);
                                    let (x, y) = if groups > 65535 { (65535, groups.div_ceil(65535)) } else { (groups, 1) };
                                    pass.dispatch_workgroups(x, y, 1);
                                } else {
                                    pass.dispatch_workgroups(x, y, 1);
                                }
                            }
                            encoder.resolve_query_set(&queries, 0..2, &resolved, 0);
                            encoder.copy_buffer_to_buffer(&resolved, 0, &times, 0, 16);
                            if rep == 0 {
                                encoder.copy_buffer_to_buffer(&out, 0, &readback, 0, size);
                            }
                            queue.submit([encoder.finish()]);
                            times.slice(..).map_async(wgpu::MapMode::Read, |_| {});
                            if rep == 0 {
                                readback.slice(..).map_async(wgpu::MapMode::Read, |_| {});
                            }
                            device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                            let t: Vec<u64> = bytemuck::cast_slice(&times.slice(..).get_mapped_range().unwrap()).to_vec();
                            times.unmap();
                            if rep == 0 {
                                let got = readback.slice(..).get_mapped_range().unwrap()[..expected.len()].to_vec();
                                readback.unmap();
                                let bad = got.iter().zip(&expected).filter(|(a, b)| a != b).count();
                                line += &format!(",\"{name}_mismatched_bytes\":{bad}");
                            }
                            if rep >= 3 {
                                samples.push((t[1] - t[0]) as f64 * period / 1e6);
                            }
                        }
                        samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
                        line += &format!(",\"{name}_ms\":{:.4}", samples[samples.len() / 2]);
                    }
                    println!("{line}}}");
                }
            }
        }
    }
}
