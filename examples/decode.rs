//! An application that owns its wgpu device and records operators into its own command
//! encoder each step, on its own buffers, with no host round trip: the shape of a language
//! model's decoding loop. Each step embeds the step's tokens (a Gather of rows from an
//! embedding table) and appends them to a key/value cache (a TensorScatter at each sequence's
//! length, in place). Out-of-range tokens would be reported by `check_status`, read once
//! every `CHECK_EVERY` steps; at the end the cache is read back once and compared with
//! `dml_wgsl::reference`.
//!
//! `cargo run --release --example decode` (on a machine without a GPU, lavapipe:
//! `apt-get install mesa-vulkan-drivers`).
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::time::{Duration, Instant};

use dml_wgsl::{
    Context, DataType, GatherDesc, OperatorDesc, TensorDesc, TensorScatterDesc, reference,
};
use half::f16;
use wgpu::util::DeviceExt;

/// The model's sizes: a batch of sequences, each step one token a sequence.
const VOCABULARY: u32 = 4096;
const WIDTH: u32 = 256;
const BATCH: u32 = 4;
const STEPS: u32 = 64;
const CHECK_EVERY: u32 = 16;

fn main() {
    env_logger::init();
    // The application's own device: the library only borrows it.
    let (device, queue, adapter_info) = pollster::block_on(open_device());
    let timestamps = device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
    let context = Context::from_device(device.clone(), queue.clone());
    println!(
        "adapter: {} ({:?}, {:?})",
        adapter_info.name, adapter_info.backend, adapter_info.device_type
    );

    // The embedding table [vocabulary, width] of f16, and the cache [batch, steps, width].
    let table: Vec<f16> = (0..VOCABULARY * WIDTH)
        .map(|i| f16::from_f32((i as u64 * 7919 % 65521) as f32 / 65521.0 - 0.5))
        .collect();
    let f16_tensor = |sizes: &[u32]| TensorDesc::new(DataType::Float16, sizes);
    // embedded[b, :] = table[tokens[b], :]: tokens [1, batch] of u32, one index dimension.
    let embed: OperatorDesc = GatherDesc::new(
        f16_tensor(&[VOCABULARY, WIDTH]),
        TensorDesc::new(DataType::UInt32, &[1, BATCH]),
        f16_tensor(&[BATCH, WIDTH]),
        0,
        1,
    )
    .into();
    // cache[b, lengths[b], :] = embedded[b, :]: the embedded rows are the updates
    // [batch, 1, width], written along the sequence axis at each sequence's length.
    let append: OperatorDesc = TensorScatterDesc::new(
        f16_tensor(&[BATCH, STEPS, WIDTH]),
        f16_tensor(&[BATCH, 1, WIDTH]),
        Some(TensorDesc::new(DataType::Int64, &[BATCH])),
        f16_tensor(&[BATCH, STEPS, WIDTH]),
        1,
    )
    .into();
    let embed_op = context.compile(&embed).expect("compile the embedding");
    let append_op = context.compile(&append).expect("compile the cache append");

    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
    let table_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("embedding table"),
        contents: bytemuck::cast_slice(&table),
        usage: storage,
    });
    let buffer = |label, size: u64, usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    let tokens = buffer("tokens", embed_op.input_sizes()[1], storage);
    let lengths = buffer("lengths", append_op.input_sizes()[2], storage);
    let embedded = buffer("embedded", embed_op.output_size(), storage);
    let cache = buffer(
        "cache",
        append_op.output_size(),
        storage | wgpu::BufferUsages::COPY_SRC,
    );

    // Timestamps of each step's two operators: one query pair a step.
    let queries = timestamps.then(|| {
        device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("steps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2 * STEPS,
        })
    });

    let mut history: Vec<Vec<u32>> = Vec::new();
    let mut recording = Vec::new();
    let wall = Instant::now();
    for step in 0..STEPS {
        // The step's tokens (a model would sample them on the GPU; here they are made up).
        let step_tokens: Vec<u32> = (0..BATCH)
            .map(|b| (step * 131 + b * 977 + 17) % VOCABULARY)
            .collect();
        let step_lengths = vec![step as i64; BATCH as usize];
        queue.write_buffer(&tokens, 0, bytemuck::cast_slice(&step_tokens));
        queue.write_buffer(&lengths, 0, bytemuck::cast_slice(&step_lengths));
        history.push(step_tokens);

        let start = Instant::now();
        let mut encoder = device.create_command_encoder(&Default::default());
        let writes = |index: Option<u32>| {
            queries
                .as_ref()
                .map(|set| wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: index.filter(|i| i % 2 == 0),
                    end_of_pass_write_index: index.filter(|i| i % 2 == 1),
                })
        };
        embed_op
            .record_with_timestamps(
                &mut encoder,
                &[
                    table_buffer.as_entire_buffer_binding(),
                    tokens.as_entire_buffer_binding(),
                ],
                embedded.as_entire_buffer_binding(),
                writes(Some(2 * step)),
            )
            .expect("record the embedding");
        // In place: the cache is the scatter's input and output, so nothing is copied.
        append_op
            .record_with_timestamps(
                &mut encoder,
                &[
                    cache.as_entire_buffer_binding(),
                    embedded.as_entire_buffer_binding(),
                    lengths.as_entire_buffer_binding(),
                ],
                cache.as_entire_buffer_binding(),
                writes(Some(2 * step + 1)),
            )
            .expect("record the cache append");
        recording.push(start.elapsed());
        queue.submit([encoder.finish()]);

        if (step + 1) % CHECK_EVERY == 0 {
            embed_op.check_status_blocking().expect("tokens in range");
            append_op
                .check_status_blocking()
                .expect("lengths within the cache");
            println!(
                "step {:3}: {BATCH} tokens embedded and cached, indices in range",
                step + 1
            );
        }
    }
    let cached = read(&device, &queue, &cache);
    let elapsed = wall.elapsed();

    // The same steps on the CPU, through the reference semantics.
    let mut expected = vec![0u8; append_op.output_size() as usize];
    for (step, step_tokens) in history.iter().enumerate() {
        let rows = reference::run(
            &embed,
            &[
                bytemuck::cast_slice(&table),
                bytemuck::cast_slice(step_tokens),
            ],
        )
        .expect("reference embedding");
        let step_lengths = vec![step as i64; BATCH as usize];
        expected = reference::run(
            &append,
            &[&expected, &rows, bytemuck::cast_slice(&step_lengths)],
        )
        .expect("reference cache append");
    }
    assert!(cached == expected, "the cache differs from the reference");

    println!(
        "{STEPS} steps of {BATCH} tokens: the cache [{BATCH}, {STEPS}, {WIDTH}] of f16 equals the reference"
    );
    println!(
        "CPU, recording both operators: median {:.1} us a step",
        median(&mut recording).as_secs_f64() * 1e6
    );
    match queries {
        Some(set) => {
            let gpu = gpu_times(
                &device,
                &queue,
                &set,
                context.queue().get_timestamp_period(),
            );
            println!(
                "GPU, both operators: median {:.1} us a step (timestamp queries)",
                gpu * 1e6
            );
        }
        None => println!("GPU time: the adapter has no timestamp queries"),
    }
    println!(
        "wall clock, all steps with their checks and the final read: {:.1} ms",
        elapsed.as_secs_f64() * 1e3
    );
}

/// An adapter and a device the application opens itself, with timestamps where it can.
async fn open_device() -> (wgpu::Device, wgpu::Queue, wgpu::AdapterInfo) {
    // Vulkan, Metal, DX12 or WebGPU unless WGPU_BACKEND says otherwise (GL, say).
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
    let instance = wgpu::Instance::new(descriptor);
    let adapter = instance
        .request_adapter(&Default::default())
        .await
        .expect("an adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("the application's device"),
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            ..Default::default()
        })
        .await
        .expect("a device");
    (device, queue, adapter.get_info())
}

/// Copies `buffer` out and maps it: the application's one read of the cache.
fn read(device: &wgpu::Device, queue: &wgpu::Queue, buffer: &wgpu::Buffer) -> Vec<u8> {
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, buffer.size());
    queue.submit([encoder.finish()]);
    readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let data = readback.get_mapped_range(..).expect("mapped").to_vec();
    readback.unmap();
    data
}

/// The median seconds from each step's first pass's beginning to its second pass's end.
fn gpu_times(device: &wgpu::Device, queue: &wgpu::Queue, set: &wgpu::QuerySet, period: f32) -> f64 {
    let bytes = 2 * STEPS as u64 * 8;
    let resolve = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("timestamps"),
        size: bytes,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.resolve_query_set(set, 0..2 * STEPS, &resolve, 0);
    queue.submit([encoder.finish()]);
    let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&read(device, queue, &resolve));
    let mut steps: Vec<Duration> = ticks
        .chunks(2)
        .map(|t| Duration::from_nanos((t[1].wrapping_sub(t[0]) as f64 * period as f64) as u64))
        .collect();
    median(&mut steps).as_secs_f64()
}

fn median(values: &mut [Duration]) -> Duration {
    values.sort();
    values[values.len() / 2]
}
