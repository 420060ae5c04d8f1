//! The reference workloads of `shared/bench/WORKLOADS.md`, run through the public API
//! (`compile` + `record`) on the default adapter, timed on the GPU with timestamp queries.
//!
//! ```text
//! cargo bench --bench bench -- [--quick] [--reps N] [--json PATH] [--only NAME[,NAME..]]
//!     [--repeat N] [--copy-method kernel|command|measure] [--sweep] [--collision-sweep]
//!     [--points-sweep] [--without-int64-atomics] [--without-hardware-float64]
//!     [--without-float32-atomics] [--without-half-stores]
//! ```
//! `--without-int64-atomics`, `--without-hardware-float64`, `--without-float32-atomics` and
//! `--without-half-stores` make the context without the device's 64-bit atomics, f64, f32
//! atomics or 16-bit stores (`ContextOptions::with_int64_atomics(false)`,
//! `with_hardware_float64(false)`, `with_float32_atomics(false)`, `with_half_stores(false)`):
//! the paths of devices that lack them.
//! `--copy-method` makes contiguous copies by kernel or by `copy_buffer_to_buffer` instead of
//! what the context measures faster (`dml_wgsl::CopyMethod`).
//! Prints a table and, with `--json`, writes one JSON object a line with the fields of
//! `torch_peer.py` (`workload`, `ms`, `bytes`, `GBps`, `impl`, `adapter`) plus
//! `roof_fraction`. `--quick` shrinks every tensor so that a CPU adapter finishes in seconds.
//!
//! After those, the scatter reductions of `REDUCTIONS` (peer: `bench/torch_reductions.py`),
//! each in the default `DuplicateMode::AnyUpdate` under its name and in
//! `DuplicateMode::InOrder` under `<name>_in_order`. `--only NAME` selects both modes of a
//! reduction workload; `--only NAME_in_order` the in-order one alone.
//!
//! Last, issue 26's collision workloads of `bench/collisions.rs` (peer:
//! `bench/torch_collisions.py`), on data of their own generators.
//!
//! `--sweep` runs the narrow-element sweep of `bench/sweep.rs` instead (peer:
//! `bench/torch_sweep.py`); `--only` selects among its shapes. `--collision-sweep` runs the
//! collision sweep of `bench/collisions.rs` instead (peer: `bench/torch_collisions.py --sweep`).
//! `--points-sweep` runs the points sweep of `bench/points.rs` instead (peer:
//! `bench/torch_points.py`).
// Native adapters only; no main in wasm32.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::time::Instant;

use std::borrow::Cow;

use dml_wgsl::{
    CompiledOperator, Context, ContextOptions, CopyMethod, DataType, DuplicateMode, GatherDesc,
    GatherElementsDesc, OperatorDesc, Reduction, ScatterElementsDesc, ScatterNdDesc, SliceDesc,
    TensorDesc, TensorScatterDesc,
};
use wgpu::util::DeviceExt;

// The tests' seeded generator (and case helpers the benchmark does not need).
#[allow(dead_code)]
#[path = "../tests/common/cases.rs"]
mod cases;
use cases::{Rng, le_bytes};

#[path = "bench/sweep.rs"]
mod sweep;

#[path = "bench/collisions.rs"]
mod collisions;

#[path = "bench/points.rs"]
mod points;

struct Options {
    quick: bool,
    reps: usize,
    json: Option<String>,
    only: Option<Vec<String>>,
    /// Runs the whole suite this many times in one process (the last round is reported).
    repeat: usize,
    /// How contiguous copies are made: measured by the context (`None`), or as chosen.
    copy_method: Option<CopyMethod>,
    /// Runs the narrow-element sweep (`bench/sweep.rs`) instead of the workloads.
    sweep: bool,
    /// Runs the collision sweep (`bench/collisions.rs`) instead of the workloads.
    collision_sweep: bool,
    /// Runs the points sweep (`bench/points.rs`) instead of the workloads.
    points_sweep: bool,
    /// The context's options beyond the copy method (`--without-*`).
    context_options: ContextOptions,
}

fn options() -> Options {
    let mut o = Options {
        quick: false,
        reps: 50,
        json: None,
        only: None,
        repeat: 1,
        copy_method: None,
        sweep: false,
        collision_sweep: false,
        points_sweep: false,
        context_options: ContextOptions::default(),
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
            "--copy-method" => {
                o.copy_method = match args.next().as_deref() {
                    Some("kernel") => Some(CopyMethod::Kernel),
                    Some("command") => Some(CopyMethod::CopyBufferToBuffer),
                    Some("measure") => None,
                    other => panic!("--copy-method kernel|command|measure, not {other:?}"),
                }
            }
            "--sweep" => o.sweep = true,
            "--collision-sweep" => o.collision_sweep = true,
            "--points-sweep" => o.points_sweep = true,
            "--without-int64-atomics" => {
                o.context_options = o.context_options.with_int64_atomics(false)
            }
            "--without-hardware-float64" => {
                o.context_options = o.context_options.with_hardware_float64(false)
            }
            "--without-float32-atomics" => {
                o.context_options = o.context_options.with_float32_atomics(false)
            }
            "--without-half-stores" => {
                o.context_options = o.context_options.with_half_stores(false)
            }
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    o
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

    /// Compiles and times a workload; returns the milliseconds.
    fn operator(&mut self, name: &str, prepared: &Prepared) -> f64 {
        let operator = self.context.compile(&prepared.desc).expect("compile");
        let bound = Bound {
            inputs: prepared
                .inputs
                .iter()
                .map(|(name, data)| self.input(name, data))
                .collect(),
            output: (!prepared.in_place).then(|| self.output(operator.output_size())),
        };
        let (ms, how) = self.time_operator(&operator, &bound, prepared.in_place);
        self.push(name, ms, prepared.bytes, how);
        ms
    }

    fn new(context: Context, reps: usize) -> Bench {
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
        Bench {
            context,
            adapter,
            reps,
            timestamps,
            period_ns,
            rows: Vec::new(),
            inputs: Default::default(),
            output: Default::default(),
        }
    }

    /// copy_buffer_to_buffer of `data`'s bytes, for comparison with the roof copy.
    fn copy_buffer_comparison(&self, data: &[u8]) {
        let features = self.context.device().features();
        if !features.contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS) {
            return;
        }
        let source = self.buffer(data);
        let target = self.empty(data.len() as u64);
        let ms = self.time_copy(&source, &target);
        println!(
            "{:32} {:10.4} ms {:9.1} GB/s   copy_buffer_to_buffer, for comparison",
            "copy_256MiB (copy_buffer)",
            ms,
            2.0 * data.len() as f64 / (ms * 1e-3) / 1e9
        );
    }

    /// One JSON object a line, with the fields of `torch_peer.py` and the roof fraction.
    fn write_json(&self, path: &str, roof_gbps: f64) {
        let mut f = std::fs::File::create(path).expect("json file");
        for r in &self.rows {
            let roof = r.gbps() / roof_gbps;
            writeln!(
                f,
                "{{\"workload\": \"{}\", \"ms\": {}, \"bytes\": {}, \"GBps\": {}, \"impl\": \"{}\", \"adapter\": \"{}\", \"roof_fraction\": {}, \"timing\": \"{}\"}}",
                r.workload,
                r.ms,
                r.bytes,
                r.gbps(),
                r.implementation,
                self.adapter.replace('"', "'"),
                if roof.is_nan() { "null".to_string() } else { format!("{roof:.4}") },
                r.note
            )
            .unwrap();
        }
    }
}

fn f32_tensor(sizes: &[u32]) -> TensorDesc {
    TensorDesc::new(DataType::Float32, sizes)
}

/// The data the workloads share, made once from a seed: an [n, n] Float32 tensor, [k, n]
/// updates, and the index patterns of WORKLOADS.md over a random choice of k rows.
struct Data {
    quick: bool,
    n: u32,
    k: u32,
    rng: Rng,
    a: Vec<u8>,
    updates: Vec<u8>,
    /// k distinct rows of 0..n.
    rows: Vec<i64>,
    rows_index: Vec<u8>,
    diag_index: Vec<u8>,
}

impl Data {
    fn new(quick: bool) -> Data {
        let (n, k) = (shrink(quick, 8192), shrink(quick, 4096));
        let mut rng = Rng::new(0x5EED);
        let a = rng.bytes((n * n * 4) as usize);
        let rows = permutation_prefix(&mut rng, n as u64, k as usize);
        let (nu, ni) = (n as usize, n as i64);
        let rows_index: Vec<i64> = (0..k as usize)
            .flat_map(|i| std::iter::repeat_n(rows[i], nu))
            .collect();
        let diag_index: Vec<i64> = (0..k as usize * nu)
            .map(|at| (rows[at / nu] + (at % nu) as i64) % ni)
            .collect();
        let updates = rng.bytes((k * n * 4) as usize);
        Data {
            quick,
            n,
            k,
            rng,
            a,
            updates,
            rows,
            rows_index: le_bytes::<i64>(&rows_index),
            diag_index: le_bytes::<i64>(&diag_index),
        }
    }

    /// A size of WORKLOADS.md, or a 16th of it with --quick.
    fn s(&self, n: u32) -> u32 {
        shrink(self.quick, n)
    }

    /// The bytes of the roof copy: [n, n] Float32 read and written.
    fn roof_bytes(&self) -> u64 {
        2 * (self.n as u64 * self.n as u64 * 4)
    }

    /// ScatterElements of [k, n] (or [n, k] along axis 1) into [n, n] of `data_type`.
    fn scatter(&self, data_type: DataType, axis: u32, indices: &[u32]) -> OperatorDesc {
        let n = self.n;
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[n, n]),
            TensorDesc::new(DataType::Int64, indices),
            TensorDesc::new(data_type, indices),
            TensorDesc::new(data_type, &[n, n]),
            axis,
        )
        .into()
    }

    /// What a ScatterElements of [k, n] moves: the copy, updates read and written, indices.
    fn scatter_bytes(&self, width: u64) -> u64 {
        let (n, k) = (self.n as u64, self.k as u64);
        2 * n * n * width + 2 * k * n * width + k * n * 8
    }
}

/// `n`, or a 16th of it (at least 1) with --quick: sizes small enough for a CPU adapter.
fn shrink(quick: bool, n: u32) -> u32 {
    if quick { (n / 16).max(1) } else { n }
}

/// Times each of a sweep's `shapes` that `wanted` names, on data of one seeded generator.
fn run_shapes<S>(
    b: &mut Bench,
    shapes: Vec<S>,
    wanted: impl Fn(&str) -> bool,
    name: impl Fn(&S) -> String,
    prepare: impl Fn(&S, &mut Rng) -> Prepared<'static>,
) {
    let mut rng = Rng::new(0x5EED);
    for shape in shapes {
        let name = name(&shape);
        if !wanted(&name) {
            continue;
        }
        // Every shape's buffers share names: drop the last shape's first.
        b.inputs.borrow_mut().clear();
        let prepared = prepare(&shape, &mut rng);
        b.operator(&name, &prepared);
    }
}

/// The first `k` entries of a random permutation of `0..n`.
fn permutation_prefix(rng: &mut Rng, n: u64, k: usize) -> Vec<i64> {
    let mut p: Vec<i64> = (0..n as i64).collect();
    for i in 0..k {
        let j = i + rng.range(0, n - 1 - i as u64) as usize;
        p.swap(i, j);
    }
    p.truncate(k);
    p
}

/// A workload ready to time: the operator, its inputs by buffer name (each name's buffer is
/// made once and kept), the bytes it moves as WORKLOADS.md counts them, and whether the
/// output is bound to the input's own buffer (in place).
struct Prepared<'d> {
    desc: OperatorDesc,
    inputs: Vec<(&'static str, Cow<'d, [u8]>)>,
    bytes: u64,
    in_place: bool,
}

impl<'d> Prepared<'d> {
    fn new(desc: OperatorDesc, inputs: &[(&'static str, &'d [u8])], bytes: u64) -> Self {
        Prepared {
            desc,
            inputs: inputs
                .iter()
                .map(|&(name, data)| (name, Cow::Borrowed(data)))
                .collect(),
            bytes,
            in_place: false,
        }
    }
}

/// Float32 slice of `input` with `offsets`, `sizes` and `strides`.
fn slice(input: &[u32], offsets: &[u32], sizes: &[u32], strides: &[u32]) -> OperatorDesc {
    SliceDesc::new(
        f32_tensor(input),
        f32_tensor(sizes),
        offsets,
        sizes,
        strides,
    )
    .into()
}

/// Makes a workload from the shared data.
type Prepare = fn(&mut Data) -> Prepared<'_>;

/// The workloads of WORKLOADS.md, in order (slice_tiny_64x64 is `Bench::tiny`).
const WORKLOADS: &[(&str, Prepare)] = &[
    ("copy_256MiB", |d| {
        let n = d.n;
        let bytes = d.roof_bytes();
        Prepared::new(
            slice(&[n, n], &[0, 0], &[n, n], &[1, 1]),
            &[("a", &d.a)],
            bytes,
        )
    }),
    ("slice_contig", |d| {
        let (r, c) = (d.s(6144), d.s(7168));
        let desc = slice(&[d.n, d.n], &[d.s(1024), d.s(512)], &[r, c], &[1, 1]);
        Prepared::new(desc, &[("a", &d.a)], 2 * (r * c * 4) as u64)
    }),
    ("slice_strided", |d| {
        let m = d.s(4096);
        let desc = slice(&[d.n, d.n], &[1, 1], &[m, m], &[2, 2]);
        Prepared::new(desc, &[("a", &d.a)], 2 * (m * m * 4) as u64)
    }),
    ("slice_nchw_crop", |d| {
        let (batch, channels) = (d.s(64), d.s(256));
        let x = d.rng.bytes((batch * channels * 56 * 56 * 4) as usize);
        let desc = slice(
            &[batch, channels, 56, 56],
            &[0, 0, 1, 1],
            &[batch, channels, 54, 54],
            &[1, 1, 1, 1],
        );
        let bytes = 2 * (batch * channels * 54 * 54 * 4) as u64;
        let mut prepared = Prepared::new(desc, &[], bytes);
        prepared.inputs.push(("nchw", Cow::Owned(x)));
        prepared
    }),
    ("scatter_elements_rows", |d| {
        let desc = d.scatter(DataType::Float32, 0, &[d.k, d.n]);
        let inputs = [
            ("a", &d.a[..]),
            ("rows_index", &d.rows_index),
            ("updates", &d.updates),
        ];
        Prepared::new(desc, &inputs, d.scatter_bytes(4))
    }),
    ("scatter_elements_diag", |d| {
        let desc = d.scatter(DataType::Float32, 0, &[d.k, d.n]);
        let inputs = [
            ("a", &d.a[..]),
            ("diag_index", &d.diag_index),
            ("updates", &d.updates),
        ];
        Prepared::new(desc, &inputs, d.scatter_bytes(4))
    }),
    ("scatter_elements_rows_inplace", |d| {
        let desc = d.scatter(DataType::Float32, 0, &[d.k, d.n]);
        let (k, n) = (d.k as u64, d.n as u64);
        let inputs = [
            ("a_inplace", &d.a[..]),
            ("rows_index", &d.rows_index),
            ("updates", &d.updates),
        ];
        let mut prepared = Prepared::new(desc, &inputs, 2 * k * n * 4 + k * n * 8);
        prepared.in_place = true;
        prepared
    }),
    ("scatter_elements_axis1", |d| {
        // idx[i, j] = (rows[j] + i) mod n over [n, k]: the transpose of the diagonal pattern.
        let ni = d.n as i64;
        let axis1: Vec<i64> = (0..ni)
            .flat_map(|i| d.rows.iter().map(move |&r| (r + i) % ni))
            .collect();
        let desc = d.scatter(DataType::Float32, 1, &[d.n, d.k]);
        let mut prepared = Prepared::new(desc, &[("a", &d.a)], d.scatter_bytes(4));
        prepared
            .inputs
            .push(("axis1_index", Cow::Owned(le_bytes::<i64>(&axis1))));
        prepared.inputs.push(("updates", Cow::Borrowed(&d.updates)));
        prepared
    }),
    ("scatter_nd_rows", |d| {
        let (rows, width, picked) = (d.s(262144), 256u32, d.s(65536));
        let input = d.rng.bytes((rows * width * 4) as usize);
        let ids = permutation_prefix(&mut d.rng, rows as u64, picked as usize);
        let updates = d.rng.bytes((picked * width * 4) as usize);
        let desc = ScatterNdDesc::new(
            f32_tensor(&[rows, width]),
            TensorDesc::new(DataType::Int64, &[picked, 1]),
            f32_tensor(&[picked, width]),
            f32_tensor(&[rows, width]),
            2,
            2,
        );
        let bytes =
            2 * (rows * width * 4) as u64 + 2 * (picked * width * 4) as u64 + picked as u64 * 8;
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("nd_input", Cow::Owned(input)),
            ("nd_ids", Cow::Owned(le_bytes::<i64>(&ids))),
            ("nd_updates", Cow::Owned(updates)),
        ];
        prepared
    }),
    ("scatter_nd_points", |d| {
        let n = d.n;
        let points = (n as u64 * n as u64 / 16) as usize;
        let flat = permutation_prefix(&mut d.rng, n as u64 * n as u64, points);
        let pairs: Vec<i64> = flat
            .iter()
            .flat_map(|&f| [f / n as i64, f % n as i64])
            .collect();
        let point_updates = d.rng.bytes(points * 4);
        let desc = ScatterNdDesc::new(
            f32_tensor(&[n, n]),
            TensorDesc::new(DataType::Int64, &[points as u32, 2]),
            f32_tensor(&[points as u32]),
            f32_tensor(&[n, n]),
            2,
            2,
        );
        let bytes = d.roof_bytes() + 2 * points as u64 * 4 + 2 * points as u64 * 8;
        let mut prepared = Prepared::new(desc.into(), &[("a", &d.a)], bytes);
        prepared
            .inputs
            .push(("points", Cow::Owned(le_bytes::<i64>(&pairs))));
        prepared
            .inputs
            .push(("point_updates", Cow::Owned(point_updates)));
        prepared
    }),
    ("gather_elements_diag", |d| {
        let (n, k) = (d.n, d.k);
        let desc = GatherElementsDesc::new(
            f32_tensor(&[n, n]),
            TensorDesc::new(DataType::Int64, &[k, n]),
            f32_tensor(&[k, n]),
            0,
        );
        let bytes = 2 * (k * n * 4) as u64 + (k * n) as u64 * 8;
        let inputs = [("a", &d.a[..]), ("diag_index", &d.diag_index)];
        Prepared::new(desc.into(), &inputs, bytes)
    }),
    ("scatter_elements_rows_u8", |d| {
        narrow_rows(d, DataType::UInt8)
    }),
    ("gather_rows_table", gather_rows_table),
    ("scatter_elements_rows_f16", |d| {
        narrow_rows(d, DataType::Float16)
    }),
    ("scatter_elements_rows_i8_odd", |d| {
        odd_rows(d, DataType::Int8, false)
    }),
    ("scatter_elements_rows_f16_odd", |d| {
        odd_rows(d, DataType::Float16, false)
    }),
    ("gather_elements_rows_i8_odd", |d| {
        odd_rows(d, DataType::Int8, true)
    }),
    ("gather_elements_rows_f16_odd", |d| {
        odd_rows(d, DataType::Float16, true)
    }),
];

/// The decode-step appends, after everything else: workloads draw their data from one seeded
/// stream in order, so new ones go last and leave the others' data as it was.
const DECODE_WORKLOADS: &[(&str, Prepare)] = &[
    ("decode_step_3d_scatter_nd", |d| {
        decode_step(d, &[16, 2048, 4096], false)
    }),
    ("decode_step_3d_tensor_scatter", |d| {
        decode_step(d, &[16, 2048, 4096], true)
    }),
    ("decode_step_4d_scatter_nd", |d| {
        decode_step(d, &[8, 32, 2048, 128], false)
    }),
    ("decode_step_4d_tensor_scatter", |d| {
        decode_step(d, &[8, 32, 2048, 128], true)
    }),
];

/// A decoder's cache append, in place: one new position per batch entry (its own length) into
/// a Float16 cache `[batch, .., length, width]` (sequence axis second to last), as ScatterND
/// (index tuples of every leading coordinate and the position, as `examples/decode.rs` did) or
/// as TensorScatter (one write index per entry). Bytes: the updates read and written, and the
/// indices read.
fn decode_step<'d>(d: &mut Data, cache: &[u32], tensor_scatter: bool) -> Prepared<'d> {
    let mut cache = cache.to_vec();
    let axis = cache.len() - 2;
    cache[axis] = d.s(cache[axis]);
    let batch = cache[0];
    let width = *cache.last().unwrap();
    let mut step = cache.clone();
    step[axis] = 1;
    let rows: u32 = step[..axis].iter().product();
    let positions: Vec<i64> = (0..batch as i64)
        .map(|b| (b * 37 + 5) % cache[axis] as i64)
        .collect();
    let f16 = |sizes: &[u32]| TensorDesc::new(DataType::Float16, sizes);
    let updates = d.rng.bytes((rows * width * 2) as usize);
    let (desc, indices): (OperatorDesc, Vec<i64>) = if tensor_scatter {
        let desc = TensorScatterDesc::new(
            f16(&cache),
            f16(&step),
            Some(TensorDesc::new(DataType::Int64, &[batch])),
            f16(&cache),
            axis as u32,
        );
        (desc.into(), positions)
    } else {
        // Every row's tuple: its leading coordinates, then its entry's position.
        let leading = &cache[..axis];
        let mut tuples = Vec::new();
        for row in 0..rows {
            let mut coordinate = vec![0u32; axis];
            let mut rest = row;
            for k in (0..axis).rev() {
                coordinate[k] = rest % leading[k];
                rest /= leading[k];
            }
            tuples.extend(coordinate.iter().map(|&c| c as i64));
            tuples.push(positions[coordinate[0] as usize]);
        }
        let tuple = axis as u32 + 1;
        let desc = ScatterNdDesc::new(
            f16(&cache),
            TensorDesc::new(DataType::Int64, &[rows, tuple]),
            f16(&[rows, width]),
            f16(&cache),
            cache.len() as u32,
            2,
        );
        (desc.into(), tuples)
    };
    let bytes = 2 * updates.len() as u64 + indices.len() as u64 * 8;
    let total: u64 = cache.iter().map(|&c| c as u64).product::<u64>() * 2;
    let mut prepared = Prepared::new(desc, &[], bytes);
    let index = Cow::Owned(le_bytes::<i64>(&indices));
    let cache_name = if axis == 1 { "cache_3d" } else { "cache_4d" };
    prepared.inputs = if tensor_scatter {
        vec![
            (cache_name, Cow::Owned(d.rng.bytes(total as usize))),
            ("step_updates", Cow::Owned(updates)),
            ("step_positions", index),
        ]
    } else {
        vec![
            (cache_name, Cow::Owned(d.rng.bytes(total as usize))),
            ("step_tuples", index),
            ("step_updates", Cow::Owned(updates)),
        ]
    };
    prepared.in_place = true;
    prepared
}

/// Scatter reductions, timed in both duplicate modes (`run_reductions`); the peer is
/// `bench/torch_reductions.py`, whose docstring has the same table. Out of place: the output
/// buffer is not the input's, so every run copies `output = input` and then reduces.
///
/// Bytes counted (WORKLOADS.md's rule, reductions reading each update once):
/// `2 × input + updates + indices` — the `output = input` copy as one read and one write of
/// the input, the updates read once, the indices read once; the reduction's read-modify-write
/// of each target is not counted extra (nor the in-order mode's scratch).
///
/// | name | operator | shapes | peer |
/// | --- | --- | --- | --- |
/// | scatter_add_rows | ScatterND, Add | f32 table [65536, 512]; indices [131072, 1] uniform in 0..65536 (repeats); updates [131072, 512] | `index_add_(0, ..)` |
/// | scatter_add_heavy | ScatterElements axis 0, Add | f32 input [1024]; indices [4194304] over 16 distinct targets; updates [4194304] | `scatter_add_(0, ..)` |
/// | scatter_max_i32 | ScatterElements axis 0, Max | i32 input [4096, 4096]; indices [4096, 4096] uniform in 0..4096; updates i32 [4096, 4096] | `scatter_reduce_(0, .., "amax")` |
///
/// `--quick` divides the large sizes by 16 (rows of the table and of the updates, the heavy
/// updates, the i32 rows), the widths and the 16 heavy targets stay.
const REDUCTIONS: &[(&str, Prepare)] = &[
    ("scatter_add_rows", |d| {
        let (rows, width, picked) = (d.s(65536), 512u32, d.s(131072));
        let table = unit_floats(&mut d.rng, (rows * width) as usize);
        let ids: Vec<i64> = (0..picked)
            .map(|_| d.rng.range(0, rows as u64 - 1) as i64)
            .collect();
        let updates = unit_floats(&mut d.rng, (picked * width) as usize);
        let desc = ScatterNdDesc::new(
            f32_tensor(&[rows, width]),
            TensorDesc::new(DataType::Int64, &[picked, 1]),
            f32_tensor(&[picked, width]),
            f32_tensor(&[rows, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Add);
        let bytes = reduction_bytes(
            rows as u64 * width as u64 * 4,
            picked as u64 * width as u64 * 4,
            picked as u64 * 8,
        );
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("add_rows_table", Cow::Owned(table)),
            ("add_rows_ids", Cow::Owned(le_bytes::<i64>(&ids))),
            ("add_rows_updates", Cow::Owned(updates)),
        ];
        prepared
    }),
    ("scatter_add_heavy", |d| {
        let (size, count, targets) = (1024u32, d.s(4194304), 16usize);
        let input = unit_floats(&mut d.rng, size as usize);
        let chosen = permutation_prefix(&mut d.rng, size as u64, targets);
        let ids: Vec<i64> = (0..count)
            .map(|_| chosen[d.rng.range(0, targets as u64 - 1) as usize])
            .collect();
        let updates = unit_floats(&mut d.rng, count as usize);
        let desc = ScatterElementsDesc::new(
            f32_tensor(&[size]),
            TensorDesc::new(DataType::Int64, &[count]),
            f32_tensor(&[count]),
            f32_tensor(&[size]),
            0,
        )
        .with_reduction(Reduction::Add);
        let bytes = reduction_bytes(size as u64 * 4, count as u64 * 4, count as u64 * 8);
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("add_heavy_input", Cow::Owned(input)),
            ("add_heavy_ids", Cow::Owned(le_bytes::<i64>(&ids))),
            ("add_heavy_updates", Cow::Owned(updates)),
        ];
        prepared
    }),
    // Random bytes are random Int32 values over the whole range.
    ("scatter_max_i32", |d| {
        max_rows(
            d,
            DataType::Int32,
            |rng, n| rng.bytes(n * 4),
            ["max_i32_input", "max_i32_ids", "max_i32_updates"],
        )
    }),
    // The same pattern on Float32: in order, floats go through the ordered lists (integers
    // need not: their bits do not depend on the order).
    ("scatter_max_f32", |d| {
        max_rows(
            d,
            DataType::Float32,
            unit_floats,
            ["max_f32_input", "max_f32_ids", "max_f32_updates"],
        )
    }),
];

/// ScatterElements Max along axis 0 of a [4096, 4096] tensor of 4-byte `data_type` values
/// (`values` draws n of them as bytes), indices uniform in 0..4096: the `scatter_max_*`
/// workloads, their inputs named `names`.
fn max_rows<'a>(
    d: &mut Data,
    data_type: DataType,
    values: fn(&mut Rng, usize) -> Vec<u8>,
    names: [&'static str; 3],
) -> Prepared<'a> {
    let (rows, columns) = (d.s(4096), 4096u32);
    let elements = rows as usize * columns as usize;
    let input = values(&mut d.rng, elements);
    let ids: Vec<i64> = (0..elements)
        .map(|_| d.rng.range(0, rows as u64 - 1) as i64)
        .collect();
    let updates = values(&mut d.rng, elements);
    let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
    let desc = ScatterElementsDesc::new(
        tensor(&[rows, columns]),
        TensorDesc::new(DataType::Int64, &[rows, columns]),
        tensor(&[rows, columns]),
        tensor(&[rows, columns]),
        0,
    )
    .with_reduction(Reduction::Max);
    let bytes = reduction_bytes(
        elements as u64 * 4,
        elements as u64 * 4,
        elements as u64 * 8,
    );
    let mut prepared = Prepared::new(desc.into(), &[], bytes);
    prepared.inputs = vec![
        (names[0], Cow::Owned(input)),
        (names[1], Cow::Owned(le_bytes::<i64>(&ids))),
        (names[2], Cow::Owned(updates)),
    ];
    prepared
}

/// The bytes a scatter reduction moves, as `REDUCTIONS` counts them: the `output = input` copy
/// (one read and one write of the input), the updates and the indices each read once.
fn reduction_bytes(input: u64, updates: u64, indices: u64) -> u64 {
    2 * input + updates + indices
}

/// `n` Float32 values uniform in (0, 1] (as `torch.rand`, never zero), as bytes: whole
/// numbers for Add, where random bit patterns would be NaNs, infinities and subnormals.
fn unit_floats(rng: &mut Rng, n: usize) -> Vec<u8> {
    let values: Vec<f32> = (0..n)
        .map(|_| ((rng.next_u64() >> 40) + 1) as f32 / (1u64 << 24) as f32)
        .collect();
    bytemuck::cast_slice(&values).to_vec()
}

/// The same scatter with its updates applied in order.
fn in_order(desc: &OperatorDesc) -> OperatorDesc {
    match desc.clone() {
        OperatorDesc::ScatterElements(d) => d.with_duplicates(DuplicateMode::InOrder).into(),
        OperatorDesc::ScatterNd(d) => d.with_duplicates(DuplicateMode::InOrder).into(),
        other => unreachable!("not a scatter: {other:?}"),
    }
}

/// Each wanted workload of `REDUCTIONS`: the default mode under its name (when `wanted`
/// names it), then `DuplicateMode::InOrder` under `<name>_in_order` (when `wanted` names either)
/// on the same buffers, with the in-order time over the default's printed.
fn run_reductions(b: &mut Bench, data: &mut Data, wanted: impl Fn(&str) -> bool) {
    for &(name, prepare) in REDUCTIONS {
        let in_order_name = format!("{name}_in_order");
        if !wanted(name) && !wanted(&in_order_name) {
            continue;
        }
        let mut prepared = prepare(data);
        time_both_modes(b, name, &mut prepared, wanted(name));
    }
}

/// `prepared` in the default mode under `name` (when `default`), then in
/// `DuplicateMode::InOrder` under `<name>_in_order` on the same buffers, with the in-order time
/// over the default's printed.
fn time_both_modes(b: &mut Bench, name: &str, prepared: &mut Prepared, default: bool) {
    let default_ms = default.then(|| b.operator(name, prepared));
    prepared.desc = in_order(&prepared.desc);
    let in_order_ms = b.operator(&format!("{name}_in_order"), prepared);
    if let Some(default_ms) = default_ms {
        println!(
            "{:32} {:10.2}x the default mode's time (target: at most 3x)",
            "  in order / default",
            in_order_ms / default_ms
        );
    }
}

/// Gather of the k rows of `Data::rows` from the [n, n] Float32 table (an embedding lookup).
/// Also timed on devices whose binding limit splits the table (see `split_devices`).
fn gather_rows_table(d: &mut Data) -> Prepared<'_> {
    let (n, k) = (d.n, d.k);
    let desc = GatherDesc::new(
        f32_tensor(&[n, n]),
        TensorDesc::new(DataType::Int64, &[1, k]),
        f32_tensor(&[k, n]),
        0,
        2,
    );
    let bytes = 2 * (k * n * 4) as u64 + k as u64 * 8;
    let mut prepared = Prepared::new(desc.into(), &[("a", &d.a)], bytes);
    prepared
        .inputs
        .push(("table_rows", Cow::Owned(le_bytes::<i64>(&d.rows))));
    prepared
}

/// gather_rows_table again on devices of the same adapter whose
/// `max_storage_buffer_binding_size` is lowered (the table and output split into windows):
/// every window bound at once, and windows bound a slab at a time (8 storage buffers a
/// stage, WebGPU's default). (row name, binding limit, storage buffers a stage).
const SPLIT_DEVICES: &[(&str, u64, Option<u32>)] = &[
    ("gather_rows_table_windows", 64 << 20, None),
    ("gather_rows_table_slabs", 32 << 20, Some(8)),
];

/// A context on the default adapter with its binding limit lowered as `SPLIT_DEVICES` says.
fn split_device(binding_limit: u64, storage: Option<u32>) -> Context {
    pollster::block_on(async {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .expect("an adapter");
        let mut limits = adapter.limits();
        limits.max_storage_buffer_binding_size =
            binding_limit.min(limits.max_storage_buffer_binding_size);
        if let Some(storage) = storage {
            limits.max_storage_buffers_per_shader_stage = storage;
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                required_features: adapter.features()
                    & (wgpu::Features::TIMESTAMP_QUERY
                        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS),
                required_limits: limits,
                ..Default::default()
            })
            .await
            .expect("a device");
        Context::from_device(device, queue)
    })
}

/// scatter_elements_rows on 1- or 2-byte elements: the same bytes, read as narrower ones.
fn narrow_rows(d: &mut Data, data_type: DataType) -> Prepared<'_> {
    let width = data_type.size_in_bytes();
    let (n, k) = (d.n, d.k);
    let desc = d.scatter(data_type, 0, &[k, n]);
    let names = if width == 1 {
        ["scatter_elements_rows_u8", "updates_u8"]
    } else {
        ["scatter_elements_rows_f16", "updates_f16"]
    };
    let inputs = [
        (names[0], &d.a[..(n * n * width) as usize]),
        ("rows_index", &d.rows_index),
        (names[1], &d.updates[..(k * n * width) as usize]),
    ];
    Prepared::new(desc, &inputs, d.scatter_bytes(width as u64))
}

/// Narrow rows whose bytes are not whole words: rows of `ODD_ROW` Int8 or Float16 elements.
/// ScatterElements along axis 0 of [k, ODD_ROW] updates into [n, ODD_ROW] with
/// `idx[i, j] = p[i]` (as scatter_elements_rows; bytes by the same formula), or
/// GatherElements along axis 0 of the same [k, ODD_ROW] indices from an [n, ODD_ROW] input
/// (bytes: the k rows read, the output written, the indices read). Peer:
/// `bench/torch_narrow.py`.
const ODD_ROW: u32 = 4097;

fn odd_rows(d: &mut Data, data_type: DataType, gather: bool) -> Prepared<'_> {
    let width = data_type.size_in_bytes() as u64;
    let (n, k, c) = (d.n, d.k, ODD_ROW);
    let index: Vec<i64> = (0..k as usize)
        .flat_map(|i| std::iter::repeat_n(d.rows[i], c as usize))
        .collect();
    let (k64, c64) = (k as u64, c as u64);
    let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
    let (desc, bytes): (OperatorDesc, u64) = if gather {
        let desc = GatherElementsDesc::new(
            tensor(&[n, c]),
            TensorDesc::new(DataType::Int64, &[k, c]),
            tensor(&[k, c]),
            0,
        );
        (desc.into(), 2 * k64 * c64 * width + k64 * c64 * 8)
    } else {
        let desc = ScatterElementsDesc::new(
            tensor(&[n, c]),
            TensorDesc::new(DataType::Int64, &[k, c]),
            tensor(&[k, c]),
            tensor(&[n, c]),
            0,
        );
        let n64 = n as u64;
        (
            desc.into(),
            2 * n64 * c64 * width + 2 * k64 * c64 * width + k64 * c64 * 8,
        )
    };
    let mut prepared = Prepared::new(desc, &[], bytes);
    let input = Cow::Owned(d.rng.bytes(tensor_bytes(n, c, width)));
    let (input_name, updates_name) = if width == 1 {
        ("odd_i8_input", "odd_i8_updates")
    } else {
        ("odd_f16_input", "odd_f16_updates")
    };
    prepared.inputs = vec![
        (input_name, input),
        ("odd_rows_index", Cow::Owned(le_bytes::<i64>(&index))),
    ];
    if !gather {
        let updates = Cow::Owned(d.rng.bytes(tensor_bytes(k, c, width)));
        prepared.inputs.push((updates_name, updates));
    }
    prepared
}

fn tensor_bytes(rows: u32, columns: u32, width: u64) -> usize {
    (rows as u64 * columns as u64 * width) as usize
}

fn main() {
    env_logger::init();
    let o = options();
    let context = Context::new_blocking_with(o.context_options.clone()).expect("an adapter");
    match o.copy_method {
        Some(method) => context.set_copy_method(method),
        None => {
            let start = Instant::now();
            let method = context.copy_method();
            println!(
                "contiguous copies: {method:?} (measured in {:.1} ms)",
                start.elapsed().as_secs_f64() * 1e3
            );
        }
    }
    let mut b = Bench::new(context, o.reps);
    let wanted = |name: &str| {
        o.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|w| w == name))
    };
    if o.points_sweep || o.sweep {
        if o.points_sweep {
            run_shapes(
                &mut b,
                points::shapes(),
                wanted,
                |s| s.name(),
                |s, rng| s.prepare(rng),
            );
        } else {
            run_shapes(
                &mut b,
                sweep::shapes(),
                wanted,
                |s| s.name(),
                |s, rng| s.prepare(rng),
            );
        }
        if let Some(path) = &o.json {
            b.write_json(path, f64::NAN);
        }
        return;
    }
    if o.collision_sweep {
        collisions::run(&mut b, &collisions::sweep(o.quick), wanted, true);
        if let Some(path) = &o.json {
            b.write_json(path, f64::NAN);
        }
        return;
    }
    let mut data = Data::new(o.quick);
    let mut roof_ms = f64::NAN;
    for round in 0..o.repeat {
        if round > 0 {
            println!("\nround {}", round + 1);
            b.rows.clear();
        }
        for &(name, prepare) in WORKLOADS.iter().filter(|(name, _)| wanted(name)) {
            let prepared = prepare(&mut data);
            let ms = b.operator(name, &prepared);
            if name == "copy_256MiB" {
                // The roof: the same bytes by this library's widest copy, and by the API's.
                roof_ms = ms;
                b.copy_buffer_comparison(&data.a);
            }
        }
        if wanted("slice_tiny_64x64") {
            b.tiny();
        }
        for &(name, binding_limit, storage) in SPLIT_DEVICES {
            if wanted(name) {
                let mut split = Bench::new(split_device(binding_limit, storage), o.reps);
                let prepared = gather_rows_table(&mut data);
                split.operator(name, &prepared);
                b.rows.append(&mut split.rows);
            }
        }
        run_reductions(&mut b, &mut data, wanted);
        for &(name, prepare) in DECODE_WORKLOADS.iter().filter(|(name, _)| wanted(name)) {
            let prepared = prepare(&mut data);
            b.operator(name, &prepared);
        }
        collisions::run(&mut b, &collisions::workloads(o.quick), wanted, false);
    }
    let roof_gbps = data.roof_bytes() as f64 / (roof_ms * 1e-3) / 1e9;
    if let Some(path) = &o.json {
        b.write_json(path, roof_gbps);
    }
    if !roof_ms.is_nan() {
        println!("\nfraction of the copy roof ({roof_gbps:.1} GB/s):");
        for r in &b.rows {
            println!("{:32} {:6.1} %", r.workload, 100.0 * r.gbps() / roof_gbps);
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
        let desc = slice(&[64, 64], &[0, 0], &[32, 32], &[2, 2]);
        let bytes = 2 * 32 * 32 * 4;
        let mut rng = Rng::new(7);
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
        // Recording alone: `record` of the same operator on the same buffers, 1000 times into
        // one encoder, over 20 rounds; the median round's time per operator. (Submitting and
        // waiting are left out: this is the CPU cost an application pays per operator.)
        let mut rounds: Vec<f64> = (0..20)
            .map(|_| {
                let mut encoder = device.create_command_encoder(&Default::default());
                let start = Instant::now();
                for _ in 0..1000 {
                    operator
                        .record(&mut encoder, std::slice::from_ref(&input), output.clone())
                        .unwrap();
                }
                let per_operator = start.elapsed().as_secs_f64() * 1e3 / 1000.0;
                drop(encoder);
                per_operator
            })
            .collect();
        rounds.sort_by(|a, b| a.total_cmp(b));
        let record_ms = rounds[rounds.len() / 2];
        println!(
            "{:32} {:10.4} ms (CPU: record alone, same buffers, median of 20 rounds of 1000)",
            "slice_tiny_64x64 record", record_ms
        );
        self.rows.push(Row {
            workload: "slice_tiny_64x64_record_cpu".into(),
            ms: record_ms,
            bytes,
            implementation: "dml-wgsl".into(),
            note: "CPU time of record alone".into(),
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
