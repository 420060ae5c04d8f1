//! The reference workloads of `shared/bench/WORKLOADS.md`, run through the public API
//! (`compile` + `record`) on the default adapter, timed on the GPU with timestamp queries.
//!
//! ```text
//! cargo bench --bench bench -- [--quick] [--reps N] [--json PATH] [--only NAME[,NAME..]]
//!     [--repeat N] [--copy-method kernel|command|measure] [--sweep] [--collision-sweep]
//!     [--in-place] [--points-sweep] [--without-int64-atomics] [--without-hardware-float64]
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
//! collision sweep of `bench/collisions.rs` instead (peer: `bench/torch_collisions.py --sweep`);
//! with `--in-place`, each shape's output bound to its input, named `<name>_inplace` (peer:
//! `--sweep --in-place`; `--only` takes the names without the suffix).
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

#[path = "bench/timing.rs"]
mod timing;
use timing::*;

#[path = "bench/decode.rs"]
mod decode;
use decode::*;

#[path = "bench/reductions.rs"]
mod reductions;
use reductions::*;

#[path = "bench/rows.rs"]
mod rows;
use rows::*;

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
    /// `--in-place`: the collision sweep with each output bound to its input.
    in_place: bool,
    /// Runs the points sweep (`bench/points.rs`) instead of the workloads.
    points_sweep: bool,
    /// `--profile`: each operator's dispatches timed one by one, printed under its row.
    profile: bool,
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
        in_place: false,
        points_sweep: false,
        profile: false,
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
            "--in-place" => o.in_place = true,
            "--points-sweep" => o.points_sweep = true,
            "--profile" => o.profile = true,
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
    b.profile = o.profile;
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
        collisions::run(
            &mut b,
            &collisions::sweep(o.quick),
            wanted,
            true,
            o.in_place,
        );
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
        collisions::run(
            &mut b,
            &collisions::workloads(o.quick),
            wanted,
            false,
            false,
        );
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
