//! The reference workloads of `shared/bench/WORKLOADS.md`, run through the public API
//! (`compile` + `record`) on the default adapter, timed on the GPU with timestamp queries.
//!
//! ```text
//! cargo bench --bench bench -- [--quick] [--reps N] [--json PATH] [--only NAME[,NAME..]]
//! ```
//! Prints a table and, with `--json`, writes one JSON object a line with the fields of
//! `torch_peer.py` (`workload`, `ms`, `bytes`, `GBps`, `impl`, `adapter`) plus
//! `roof_fraction`. `--quick` shrinks every tensor so that a CPU adapter finishes in seconds.
// Native adapters only; no main in wasm32.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::time::Instant;

use dml_wgsl::{
    CompiledOperator, Context, DataType, DuplicateMode, GatherElementsDesc, OperatorDesc,
    ScatterElementsDesc, ScatterNdDesc, SliceDesc, TensorDesc,
};
use wgpu::util::DeviceExt;

struct Options {
    quick: bool,
    reps: usize,
    json: Option<String>,
    only: Option<Vec<String>>,
    /// Runs the whole suite this many times in one process (the last round is reported).
    repeat: usize,
}

fn options() -> Options {
    let mut o = Options {
        quick: false,
        reps: 50,
        json: None,
        only: None,
        repeat: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--reps" => o.reps = args.next().and_then(|v| v.parse().ok()).expect("--reps N"),
            "--json" => o.json = args.next(),
            "--only" => {
                o.only = args
                    .next()
                    .map(|v| v.split(',').map(str::to_string).collect())
            }
            // `cargo bench` passes --bench; anything else is a mistake worth hearing about.
            "--repeat" => {
                o.repeat = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--repeat N")
            }
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// SplitMix64, seeded: random data, never all zeros.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(n + 8);
        while v.len() < n {
            v.extend_from_slice(&self.next().to_le_bytes());
        }
        v.truncate(n);
        v
    }

    /// The first `k` entries of a random permutation of `0..n`.
    fn permutation_prefix(&mut self, n: u64, k: usize) -> Vec<i64> {
        let mut p: Vec<i64> = (0..n as i64).collect();
        for i in 0..k {
            let j = i + (self.next() % (n - i as u64)) as usize;
            p.swap(i, j);
        }
        p.truncate(k);
        p
    }
}

struct Bench {
    context: Context,
    adapter: String,
    reps: usize,
    timestamps: bool,
    period_ns: f64,
    rows: Vec<Row>,
    inputs: std::cell::RefCell<std::collections::HashMap<String, wgpu::Buffer>>,
    output: std::cell::RefCell<Option<wgpu::Buffer>>,
}

struct Row {
    workload: String,
    ms: f64,
    bytes: u64,
    implementation: String,
    note: String,
}

impl Row {
    fn gbps(&self) -> f64 {
        self.bytes as f64 / (self.ms * 1e-3) / 1e9
    }
}

/// Buffers bound to one operator: inputs, then the output.
struct Bound {
    inputs: Vec<wgpu::Buffer>,
    output: Option<wgpu::Buffer>,
}

impl Bench {
    /// The input buffer called `name`, created from `data` on first use and kept: every
    /// buffer is allocated once, as an application's long-lived tensors are. (Freeing and
    /// reallocating hundreds of MiB between workloads made later scattered workloads run
    /// several times slower on the H200 than the same workload run first.)
    fn input(&self, name: &str, data: &[u8]) -> wgpu::Buffer {
        let mut cache = self.inputs.borrow_mut();
        if let Some(b) = cache.get(name)
            && b.size() == data.len().div_ceil(4) as u64 * 4
        {
            return b.clone();
        }
        let b = self.buffer(data);
        cache.insert(name.to_string(), b.clone());
        b
    }

    /// One output buffer for every workload, grown when one needs more.
    fn output(&self, size: u64) -> wgpu::Buffer {
        let mut output = self.output.borrow_mut();
        match output.as_ref() {
            Some(b) if b.size() >= size => b.clone(),
            _ => {
                let b = self.empty(size);
                *output = Some(b.clone());
                b
            }
        }
    }

    fn buffer(&self, data: &[u8]) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: data,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            })
    }

    fn empty(&self, size: u64) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
    }

    fn wait(&self) {
        self.context
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
    }

    /// Median GPU milliseconds of `record` (warm-up first), by timestamps where the adapter
    /// has them, else by wall clock around submit-and-wait.
    fn time(
        &self,
        mut record: impl FnMut(&mut wgpu::CommandEncoder, Option<wgpu::ComputePassTimestampWrites>),
    ) -> (f64, &'static str) {
        let device = self.context.device();
        let queue = self.context.queue();
        // Warm-up: at least 5 runs and 300 ms of them. The driver lowers the SM clock while
        // the GPU idles (seen on the H200: 1980 MHz down to 400-700 MHz within seconds of the
        // CPU preparing data), and takes a while under load to raise it again.
        let warm_until = Instant::now() + std::time::Duration::from_millis(300);
        let mut warm = 0;
        while warm < 5 || Instant::now() < warm_until {
            let mut encoder = device.create_command_encoder(&Default::default());
            record(&mut encoder, None);
            queue.submit([encoder.finish()]);
            self.wait();
            warm += 1;
        }
        let mut times = Vec::with_capacity(self.reps);
        if self.timestamps {
            let count = 2 * self.reps as u32;
            let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count,
            });
            let resolve = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: count as u64 * 8,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let readback = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: count as u64 * 8,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            for r in 0..self.reps as u32 {
                let mut encoder = device.create_command_encoder(&Default::default());
                record(
                    &mut encoder,
                    Some(wgpu::ComputePassTimestampWrites {
                        query_set: &set,
                        beginning_of_pass_write_index: Some(2 * r),
                        end_of_pass_write_index: Some(2 * r + 1),
                    }),
                );
                queue.submit([encoder.finish()]);
                // One run at a time, as torch_peer.py synchronises after each: a pass's
                // beginning timestamp may otherwise be taken while the previous run still
                // executes, and count part of it.
                self.wait();
            }
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.resolve_query_set(&set, 0..count, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, count as u64 * 8);
            queue.submit([encoder.finish()]);
            readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
            self.wait();
            let ticks: Vec<u64> =
                bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
            for r in 0..self.reps {
                let d = ticks[2 * r + 1].wrapping_sub(ticks[2 * r]);
                times.push(d as f64 * self.period_ns * 1e-6);
            }
        } else {
            for _ in 0..self.reps {
                let start = Instant::now();
                let mut encoder = device.create_command_encoder(&Default::default());
                record(&mut encoder, None);
                queue.submit([encoder.finish()]);
                self.wait();
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        (
            times[times.len() / 2],
            if self.timestamps {
                "gpu timestamps"
            } else {
                "wall clock"
            },
        )
    }

    fn time_operator(
        &self,
        operator: &CompiledOperator,
        bound: &Bound,
        in_place: bool,
    ) -> (f64, &'static str) {
        self.time(|encoder, timestamps| {
            let inputs: Vec<wgpu::BufferBinding> = bound
                .inputs
                .iter()
                .map(|b| b.as_entire_buffer_binding())
                .collect();
            let output = match (&bound.output, in_place) {
                (_, true) => bound.inputs[0].as_entire_buffer_binding(),
                (Some(o), false) => o.as_entire_buffer_binding(),
                (None, false) => unreachable!("an output buffer"),
            };
            operator
                .record_with_timestamps(encoder, &inputs, output, timestamps)
                .expect("record");
        })
    }

    fn push(&mut self, workload: &str, ms: f64, bytes: u64, note: &str) {
        let row = Row {
            workload: workload.to_string(),
            ms,
            bytes,
            implementation: "dml-wgsl".to_string(),
            note: note.to_string(),
        };
        println!(
            "{:32} {:10.4} ms {:9.1} GB/s   {}",
            row.workload,
            row.ms,
            row.gbps(),
            row.note
        );
        self.rows.push(row);
    }

    /// Compiles and times `desc` on buffers holding `inputs`; returns the milliseconds.
    fn operator(
        &mut self,
        name: &str,
        desc: &OperatorDesc,
        inputs: &[(&str, &[u8])],
        bytes: u64,
        in_place: bool,
    ) -> f64 {
        let operator = self.context.compile(desc).expect("compile");
        let bound = Bound {
            inputs: inputs
                .iter()
                .map(|(name, data)| self.input(name, data))
                .collect(),
            output: (!in_place).then(|| self.output(operator.output_size())),
        };
        let (ms, how) = self.time_operator(&operator, &bound, in_place);
        self.push(name, ms, bytes, how);
        ms
    }
}

fn f32_tensor(sizes: &[u32]) -> TensorDesc {
    TensorDesc::new(DataType::Float32, sizes)
}

fn main() {
    env_logger::init();
    let o = options();
    let context = Context::new_blocking().expect("an adapter");
    let info = context.adapter_info();
    let adapter = format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type);
    let timestamps = context
        .device()
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    let period_ns = context.queue().get_timestamp_period() as f64;
    println!(
        "adapter: {adapter}; timing: {}",
        if timestamps {
            "GPU timestamp queries"
        } else {
            "wall clock (no timestamp queries)"
        }
    );
    let mut b = Bench {
        context,
        adapter,
        reps: o.reps,
        timestamps,
        period_ns,
        rows: Vec::new(),
        inputs: Default::default(),
        output: Default::default(),
    };
    let wanted = |name: &str| {
        o.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|w| w == name))
    };
    // Sizes: WORKLOADS.md's, or a 16th per dimension with --quick.
    let s = |n: u32| if o.quick { (n / 16).max(1) } else { n };
    let mut rng = Rng(0x5EED);
    let n = s(8192);
    let a = rng.bytes((n * n * 4) as usize);
    let e4 = |v: &[i64]| -> Vec<u8> { bytemuck::cast_slice(v).to_vec() };

    let mut roof_ms = f64::NAN;
    for round in 0..o.repeat {
        if round > 0 {
            println!("\nround {}", round + 1);
            b.rows.clear();
        }
        // The roof: the same bytes copied by this library's widest kernel and by copy_buffer_to_buffer.
        if wanted("copy_256MiB") {
            let full = OperatorDesc::Slice(SliceDesc {
                input: f32_tensor(&[n, n]),
                output: f32_tensor(&[n, n]),
                offsets: vec![0, 0],
                sizes: vec![n, n],
                strides: vec![1, 1],
            });
            roof_ms = b.operator(
                "copy_256MiB",
                &full,
                &[("a", &a)],
                2 * (n * n * 4) as u64,
                false,
            );
            if b.context
                .device()
                .features()
                .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
            {
                let source = b.buffer(&a);
                let target = b.empty((n * n * 4) as u64);
                let ms = b.time_copy(&source, &target);
                println!(
                    "{:32} {:10.4} ms {:9.1} GB/s   copy_buffer_to_buffer, for comparison",
                    "copy_256MiB (copy_buffer)",
                    ms,
                    2.0 * (n * n * 4) as f64 / (ms * 1e-3) / 1e9
                );
            }
        }

        let slice = |input: &[u32], offsets: &[u32], sizes: &[u32], strides: &[u32]| {
            OperatorDesc::Slice(SliceDesc {
                input: f32_tensor(input),
                output: f32_tensor(sizes),
                offsets: offsets.to_vec(),
                sizes: sizes.to_vec(),
                strides: strides.to_vec(),
            })
        };
        if wanted("slice_contig") {
            let (r, c) = (s(6144), s(7168));
            let d = slice(&[n, n], &[s(1024), s(512)], &[r, c], &[1, 1]);
            b.operator(
                "slice_contig",
                &d,
                &[("a", &a)],
                2 * (r * c * 4) as u64,
                false,
            );
        }
        if wanted("slice_strided") {
            let m = s(4096);
            let d = slice(&[n, n], &[1, 1], &[m, m], &[2, 2]);
            b.operator(
                "slice_strided",
                &d,
                &[("a", &a)],
                2 * (m * m * 4) as u64,
                false,
            );
        }
        if wanted("slice_nchw_crop") {
            let (batch, channels) = (s(64), s(256));
            let x = rng.bytes((batch * channels * 56 * 56 * 4) as usize);
            let d = slice(
                &[batch, channels, 56, 56],
                &[0, 0, 1, 1],
                &[batch, channels, 54, 54],
                &[1, 1, 1, 1],
            );
            b.operator(
                "slice_nchw_crop",
                &d,
                &[("nchw", &x)],
                2 * (batch * channels * 54 * 54 * 4) as u64,
                false,
            );
        }

        // ScatterElements along axis 0 of [n, n]: indices [k, n].
        let k = s(4096);
        let p = rng.permutation_prefix(n as u64, k as usize);
        let rows_index: Vec<i64> = (0..k as usize)
            .flat_map(|i| std::iter::repeat_n(p[i], n as usize))
            .collect();
        let n_usize = n as usize;
        let diag_index: Vec<i64> = (0..k as usize * n_usize)
            .map(|at| (p[at / n_usize] + (at % n_usize) as i64) % n as i64)
            .collect();
        let updates = rng.bytes((k * n * 4) as usize);
        let scatter = |data_type: DataType, axis: u32, indices: &[u32]| {
            OperatorDesc::ScatterElements(ScatterElementsDesc {
                input: TensorDesc::new(data_type, &[n, n]),
                indices: TensorDesc::new(DataType::Int64, indices),
                updates: TensorDesc::new(data_type, indices),
                output: TensorDesc::new(data_type, &[n, n]),
                axis,
                duplicates: DuplicateMode::AnyUpdate,
            })
        };
        let scatter_bytes = |width: u64| {
            2 * (n * n) as u64 * width + 2 * (k * n) as u64 * width + (k * n) as u64 * 8
        };
        if wanted("scatter_elements_rows") {
            let d = scatter(DataType::Float32, 0, &[k, n]);
            b.operator(
                "scatter_elements_rows",
                &d,
                &[
                    ("a", &a),
                    ("rows_index", &e4(&rows_index)),
                    ("updates", &updates),
                ],
                scatter_bytes(4),
                false,
            );
        }
        if wanted("scatter_elements_diag") {
            let d = scatter(DataType::Float32, 0, &[k, n]);
            b.operator(
                "scatter_elements_diag",
                &d,
                &[
                    ("a", &a),
                    ("diag_index", &e4(&diag_index)),
                    ("updates", &updates),
                ],
                scatter_bytes(4),
                false,
            );
        }
        if wanted("scatter_elements_rows_inplace") {
            let d = scatter(DataType::Float32, 0, &[k, n]);
            let bytes = 2 * (k * n) as u64 * 4 + (k * n) as u64 * 8;
            b.operator(
                "scatter_elements_rows_inplace",
                &d,
                &[
                    ("a_inplace", &a),
                    ("rows_index", &e4(&rows_index)),
                    ("updates", &updates),
                ],
                bytes,
                true,
            );
        }
        if wanted("scatter_elements_axis1") {
            // idx[i, j] = (p[j] + i) mod n over [n, k]: the transpose of the diagonal pattern.
            let axis1: Vec<i64> = (0..n as i64)
                .flat_map(|i| p.iter().map(move |&pj| (pj + i) % n as i64))
                .collect();
            let d = scatter(DataType::Float32, 1, &[n, k]);
            b.operator(
                "scatter_elements_axis1",
                &d,
                &[
                    ("a", &a),
                    ("axis1_index", &e4(&axis1)),
                    ("updates", &updates),
                ],
                scatter_bytes(4),
                false,
            );
        }
        if wanted("scatter_nd_rows") {
            let (rows, width, picked) = (s(262144), 256u32, s(65536));
            let input = rng.bytes((rows * width * 4) as usize);
            let ids = rng.permutation_prefix(rows as u64, picked as usize);
            let rows_updates = rng.bytes((picked * width * 4) as usize);
            let d = OperatorDesc::ScatterNd(ScatterNdDesc {
                input: f32_tensor(&[rows, width]),
                indices: TensorDesc::new(DataType::Int64, &[picked, 1]),
                updates: f32_tensor(&[picked, width]),
                output: f32_tensor(&[rows, width]),
                input_dimension_count: 2,
                indices_dimension_count: 2,
                duplicates: DuplicateMode::AnyUpdate,
            });
            let bytes =
                2 * (rows * width * 4) as u64 + 2 * (picked * width * 4) as u64 + picked as u64 * 8;
            b.operator(
                "scatter_nd_rows",
                &d,
                &[
                    ("nd_input", &input),
                    ("nd_ids", &e4(&ids)),
                    ("nd_updates", &rows_updates),
                ],
                bytes,
                false,
            );
        }
        if wanted("scatter_nd_points") {
            let points = (n as u64 * n as u64 / 16) as usize;
            let flat = rng.permutation_prefix(n as u64 * n as u64, points);
            let pairs: Vec<i64> = flat
                .iter()
                .flat_map(|&f| [f / n as i64, f % n as i64])
                .collect();
            let point_updates = rng.bytes(points * 4);
            let d = OperatorDesc::ScatterNd(ScatterNdDesc {
                input: f32_tensor(&[n, n]),
                indices: TensorDesc::new(DataType::Int64, &[points as u32, 2]),
                updates: f32_tensor(&[points as u32]),
                output: f32_tensor(&[n, n]),
                input_dimension_count: 2,
                indices_dimension_count: 2,
                duplicates: DuplicateMode::AnyUpdate,
            });
            let bytes = 2 * (n * n * 4) as u64 + 2 * points as u64 * 4 + 2 * points as u64 * 8;
            b.operator(
                "scatter_nd_points",
                &d,
                &[
                    ("a", &a),
                    ("points", &e4(&pairs)),
                    ("point_updates", &point_updates),
                ],
                bytes,
                false,
            );
        }
        if wanted("gather_elements_diag") {
            let d = OperatorDesc::GatherElements(GatherElementsDesc {
                input: f32_tensor(&[n, n]),
                indices: TensorDesc::new(DataType::Int64, &[k, n]),
                output: f32_tensor(&[k, n]),
                axis: 0,
            });
            let bytes = 2 * (k * n * 4) as u64 + (k * n) as u64 * 8;
            b.operator(
                "gather_elements_diag",
                &d,
                &[("a", &a), ("diag_index", &e4(&diag_index))],
                bytes,
                false,
            );
        }
        for (data_type, name, width) in [
            (DataType::UInt8, "scatter_elements_rows_u8", 1u32),
            (DataType::Float16, "scatter_elements_rows_f16", 2),
        ] {
            if wanted(name) {
                let d = scatter(data_type, 0, &[k, n]);
                let input = &a[..(n * n * width) as usize];
                let narrow = &updates[..(k * n * width) as usize];
                b.operator(
                    name,
                    &d,
                    &[
                        (name, input),
                        ("rows_index", &e4(&rows_index)),
                        (
                            if width == 1 {
                                "updates_u8"
                            } else {
                                "updates_f16"
                            },
                            narrow,
                        ),
                    ],
                    scatter_bytes(width as u64),
                    false,
                );
            }
        }
        if wanted("slice_tiny_64x64") {
            b.tiny();
        }
    }
    // The fraction of the copy roof, and the JSON lines.
    if let Some(path) = &o.json {
        let mut f = std::fs::File::create(path).expect("json file");
        for r in &b.rows {
            let roof = if roof_ms.is_nan() {
                f64::NAN
            } else {
                r.gbps() / (2.0 * (n * n * 4) as f64 / (roof_ms * 1e-3) / 1e9)
            };
            writeln!(
                f,
                "{{\"workload\": \"{}\", \"ms\": {}, \"bytes\": {}, \"GBps\": {}, \"impl\": \"{}\", \"adapter\": \"{}\", \"roof_fraction\": {}, \"timing\": \"{}\"}}",
                r.workload,
                r.ms,
                r.bytes,
                r.gbps(),
                r.implementation,
                b.adapter.replace('"', "'"),
                if roof.is_nan() { "null".to_string() } else { format!("{roof:.4}") },
                r.note
            )
            .unwrap();
        }
    }
    if !roof_ms.is_nan() {
        let roof = 2.0 * (n * n * 4) as f64 / (roof_ms * 1e-3) / 1e9;
        println!("\nfraction of the copy roof ({roof:.1} GB/s):");
        for r in &b.rows {
            println!("{:32} {:6.1} %", r.workload, 100.0 * r.gbps() / roof);
        }
    }
}

impl Bench {
    /// copy_buffer_to_buffer between encoder timestamps.
    fn time_copy(&self, source: &wgpu::Buffer, target: &wgpu::Buffer) -> f64 {
        let device = self.context.device();
        let queue = self.context.queue();
        let count = 2 * self.reps as u32;
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let resolve = self.empty_with(
            count as u64 * 8,
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        );
        let readback = self.empty_with(
            count as u64 * 8,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        for r in 0..self.reps as u32 {
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.write_timestamp(&set, 2 * r);
            encoder.copy_buffer_to_buffer(source, 0, target, 0, source.size());
            encoder.write_timestamp(&set, 2 * r + 1);
            queue.submit([encoder.finish()]);
            self.wait();
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(&set, 0..count, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, count as u64 * 8);
        queue.submit([encoder.finish()]);
        readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        self.wait();
        let ticks: Vec<u64> =
            bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
        let mut times: Vec<f64> = (0..self.reps)
            .map(|r| ticks[2 * r + 1].wrapping_sub(ticks[2 * r]) as f64 * self.period_ns * 1e-6)
            .collect();
        times.sort_by(|a, b| a.total_cmp(b));
        times[times.len() / 2]
    }

    fn empty_with(&self, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.context
            .device()
            .create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size,
                usage,
                mapped_at_creation: false,
            })
    }

    /// slice_tiny_64x64: GPU time, wall-clock submit-to-done, and 1000 recorded into one encoder.
    fn tiny(&mut self) {
        let desc = OperatorDesc::Slice(SliceDesc {
            input: f32_tensor(&[64, 64]),
            output: f32_tensor(&[32, 32]),
            offsets: vec![0, 0],
            sizes: vec![32, 32],
            strides: vec![2, 2],
        });
        let bytes = 2 * 32 * 32 * 4;
        let mut rng = Rng(7);
        let operator = self.context.compile(&desc).expect("compile");
        let bound = Bound {
            inputs: vec![self.buffer(&rng.bytes(64 * 64 * 4))],
            output: Some(self.empty(32 * 32 * 4)),
        };
        let (ms, how) = self.time_operator(&operator, &bound, false);
        self.push("slice_tiny_64x64", ms, bytes, how);
        let device = self.context.device();
        let queue = self.context.queue();
        let input = bound.inputs[0].as_entire_buffer_binding();
        let output = bound.output.as_ref().unwrap().as_entire_buffer_binding();
        // Wall clock from submit to done, one operator a submission.
        let mut walls: Vec<f64> = (0..self.reps * 4)
            .map(|_| {
                let start = Instant::now();
                let mut encoder = device.create_command_encoder(&Default::default());
                operator
                    .record(&mut encoder, std::slice::from_ref(&input), output.clone())
                    .unwrap();
                queue.submit([encoder.finish()]);
                self.wait();
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        walls.sort_by(|a, b| a.total_cmp(b));
        let wall = walls[walls.len() / 2];
        println!(
            "{:32} {:10.4} ms (wall clock: record, submit, wait)",
            "slice_tiny_64x64 submit-to-done", wall
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_wall".into(),
            ms: wall,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "wall clock submit-to-done".into(),
        });
        // 1000 operators in one encoder, each writing its own output (1000 different tiny
        // results, as an application would record them): GPU time between the first pass's
        // start and the last's end, and wall clock of recording, submitting and waiting.
        const BATCH: u32 = 1000;
        let outputs: Vec<wgpu::Buffer> = (0..BATCH).map(|_| self.empty(32 * 32 * 4)).collect();
        let batch = |timestamps: Option<&wgpu::QuerySet>| {
            let mut encoder = device.create_command_encoder(&Default::default());
            for i in 0..BATCH {
                let writes = timestamps.filter(|_| i == 0 || i == BATCH - 1).map(|set| {
                    wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: (i == 0).then_some(0),
                        end_of_pass_write_index: (i == BATCH - 1).then_some(1),
                    }
                });
                operator
                    .record_with_timestamps(
                        &mut encoder,
                        std::slice::from_ref(&input),
                        outputs[i as usize].as_entire_buffer_binding(),
                        writes,
                    )
                    .unwrap();
            }
            encoder
        };
        let start = Instant::now();
        let encoder = batch(None);
        queue.submit([encoder.finish()]);
        self.wait();
        let wall_each = start.elapsed().as_secs_f64() * 1e3 / BATCH as f64;
        let mut gpu_each = f64::NAN;
        if self.timestamps {
            let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolve = self.empty_with(
                16,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            );
            let readback = self.empty_with(
                16,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            );
            let mut encoder = batch(Some(&set));
            encoder.resolve_query_set(&set, 0..2, &resolve, 0);
            encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16);
            queue.submit([encoder.finish()]);
            readback.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
            self.wait();
            let ticks: Vec<u64> =
                bytemuck::cast_slice(&readback.get_mapped_range(..).unwrap()).to_vec();
            gpu_each =
                ticks[1].wrapping_sub(ticks[0]) as f64 * self.period_ns * 1e-6 / BATCH as f64;
        }
        println!(
            "{:32} {:10.4} ms GPU, {:.4} ms wall (record + submit + wait) per operator",
            "slice_tiny_64x64 x1000 batched", gpu_each, wall_each
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_batched_gpu".into(),
            ms: gpu_each,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "per operator, 1000 in one encoder, gpu timestamps".into(),
        });
        self.rows.push(Row {
            workload: "slice_tiny_64x64_batched_wall".into(),
            ms: wall_each,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "per operator, 1000 in one encoder, wall clock incl. recording".into(),
        });
    }
}
