//! What building pipelines costs: a context's first `compile` of each operator (a fresh
//! process each, for a cold driver), a compile again of the same desc (cached), compiles as
//! a tensor grows (a decoder's sequence, every length), a second process given the first's
//! pipeline cache, and `Context::precompile` against compiling one by one. Wall clock on the
//! CPU: compiling is CPU work (the driver's compiler), whatever the adapter.
//!
//! ```text
//! cargo bench --bench compile -- list
//! cargo bench --bench compile -- cold NAME [--cache-in FILE] [--cache-out FILE] [--cached-runs N]
//! cargo bench --bench compile -- resize NAME [--step S] [--max N]
//! cargo bench --bench compile -- all [--cache-in FILE] [--cache-out FILE]
//! cargo bench --bench compile -- precompile
//! ```
//! Each prints one JSON object a line; `--log` (any mode) also prints the library's debug log
//! to stderr: each pipeline built and its milliseconds. `scripts/compile_bench.py` runs every mode in fresh
//! processes and makes the tables of `BENCHMARKS.md`; on NVIDIA's driver set
//! `__GL_SHADER_DISK_CACHE=0` so that its own disk cache does not hide the compiles.
// Native adapters only; no main in wasm32.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use dml_wgsl::{
    Context, DataType, DuplicateMode, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    Reduction, ScatterElementsDesc, ScatterNdDesc, Slice1Desc, SliceDesc, TensorDesc,
};

/// The length a cold compile uses; `resize` grows it from 1.
const LENGTH: u32 = 1024;
/// The longest sequence `resize` reaches by default.
const MAX_LENGTH: u32 = 4096;
/// Compiles of an already compiled desc, timed for the cached figure.
const CACHED_RUNS: usize = 200;

/// Every operator, and the scatter reductions' paths (each type class and duplicate mode).
const NAMES: [&str; 22] = [
    "slice",
    "slice1",
    "gather",
    "gather_elements",
    "gather_nd",
    "scatter_elements",
    "scatter_nd",
    "scatter_add_f32",
    "scatter_add_f32_dense",
    "scatter_add_f32_in_order",
    "scatter_mul_f32",
    "scatter_mul_f32_in_order",
    "scatter_min_f32",
    "scatter_min_f32_in_order",
    "scatter_max_f32",
    "scatter_max_f32_in_order",
    "scatter_add_i32",
    "scatter_add_i64",
    "scatter_max_f16",
    "scatter_max_f16_in_order",
    "scatter_nd_add_f32",
    "scatter_nd_add_f32_in_order",
];

/// `name`'s desc at sequence length `n` (at least 1): shapes a decoder meets, with `n` the
/// length that grows (a cache of 8 heads of 64, a table of 4096 rows of 64).
fn desc(name: &str, n: u32) -> OperatorDesc {
    let f32s = |sizes: &[u32]| TensorDesc::new(DataType::Float32, sizes);
    let indices = |sizes: &[u32]| TensorDesc::new(DataType::Int64, sizes);
    let k = n.min(16);
    let reduction = match name.split('_').nth(1) {
        Some("add") => Reduction::Add,
        Some("mul") => Reduction::Mul,
        Some("min") => Reduction::Min,
        Some("max") => Reduction::Max,
        _ => Reduction::None,
    };
    let duplicates = if name.ends_with("_in_order") {
        DuplicateMode::InOrder
    } else {
        DuplicateMode::AnyUpdate
    };
    match name {
        "slice" => SliceDesc::new(
            f32s(&[8, MAX_LENGTH, 64]),
            f32s(&[8, n, 64]),
            &[0, 0, 0],
            &[8, n, 64],
            &[1, 1, 1],
        )
        .into(),
        "slice1" => Slice1Desc::new(
            f32s(&[8, n, 64]),
            f32s(&[8, n, 64]),
            &[0, 0, 0],
            &[8, n, 64],
            &[1, -1, 1],
        )
        .into(),
        "gather" => {
            GatherDesc::new(f32s(&[4096, 64]), indices(&[1, n]), f32s(&[n, 64]), 0, 2).into()
        }
        "gather_elements" => GatherElementsDesc::new(
            f32s(&[8, n, 64]),
            indices(&[8, n, 64]),
            f32s(&[8, n, 64]),
            1,
        )
        .into(),
        "gather_nd" => {
            GatherNdDesc::new(f32s(&[n, 64]), indices(&[n, 1]), f32s(&[n, 64]), 2, 2, 0).into()
        }
        // Along the inner axis: rows of n elements, copied in the scatter's own kernel where
        // the device copies faster by kernel.
        "scatter_elements" => ScatterElementsDesc::new(
            f32s(&[64, n]),
            indices(&[64, k]),
            f32s(&[64, k]),
            f32s(&[64, n]),
            1,
        )
        .into(),
        "scatter_nd" | "scatter_nd_add_f32" | "scatter_nd_add_f32_in_order" => ScatterNdDesc::new(
            f32s(&[n, 64]),
            indices(&[k, 1]),
            f32s(&[k, 64]),
            f32s(&[n, 64]),
            2,
            2,
        )
        .with_reduction(reduction)
        .with_duplicates(duplicates)
        .into(),
        // As many updates as targets: Float32 Add by the device's f32 atomics where it has them
        // (a screen, the atomics, the compare-exchange pass for what they refuse).
        "scatter_add_f32_dense" => ScatterElementsDesc::new(
            f32s(&[n, 64]),
            indices(&[n, 64]),
            f32s(&[n, 64]),
            f32s(&[n, 64]),
            0,
        )
        .with_reduction(Reduction::Add)
        .into(),
        _ => {
            let data_type = match name.split('_').nth(2) {
                Some("f16") => DataType::Float16,
                Some("i32") => DataType::Int32,
                Some("i64") => DataType::Int64,
                _ => DataType::Float32,
            };
            let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
            ScatterElementsDesc::new(
                tensor(&[n, 64]),
                indices(&[k, 64]),
                tensor(&[k, 64]),
                tensor(&[n, 64]),
                0,
            )
            .with_reduction(reduction)
            .with_duplicates(duplicates)
            .into()
        }
    }
}

fn milliseconds(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

struct Options {
    mode: String,
    name: Option<String>,
    cache_in: Option<String>,
    cache_out: Option<String>,
    step: u32,
    max: u32,
    cached_runs: usize,
}

/// The library's log lines on stderr (`--log`).
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.target().starts_with("dml_wgsl")
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            eprintln!("{}", record.args());
        }
    }

    fn flush(&self) {}
}

fn options() -> Options {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut o = Options {
        mode: args.next().unwrap_or_else(|| "list".into()),
        name: None,
        cache_in: None,
        cache_out: None,
        step: 1,
        max: MAX_LENGTH,
        cached_runs: CACHED_RUNS,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} takes a value"));
        match arg.as_str() {
            "--cache-in" => o.cache_in = Some(value()),
            "--cache-out" => o.cache_out = Some(value()),
            "--step" => o.step = value().parse().expect("--step N"),
            "--max" => o.max = value().parse().expect("--max N"),
            "--cached-runs" => o.cached_runs = value().parse().expect("--cached-runs N"),
            "--log" => {
                log::set_logger(&StderrLog).expect("one logger");
                log::set_max_level(log::LevelFilter::Debug);
            }
            name if !name.starts_with("--") && o.name.is_none() => o.name = Some(name.into()),
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// A context (with the pipeline cache read from `cache_in`), and the milliseconds it took,
/// the copy method's measurement included.
fn open(cache_in: Option<&str>) -> (Context, f64) {
    let data = cache_in.map(|path| std::fs::read(path).expect("the cache file"));
    let start = Instant::now();
    let context = api::open(data).expect("an adapter");
    context.copy_method();
    (context, milliseconds(start))
}

fn save_cache(context: &Context, cache_out: Option<&str>) -> Option<usize> {
    let path = cache_out?;
    let data = api::cache_data(context)?;
    std::fs::write(path, &data).expect("the cache file written");
    Some(data.len())
}

fn adapter(context: &Context) -> String {
    let info = context.adapter_info();
    format!("{} ({:?})", info.name, info.backend)
}

fn json_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

fn json_option<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or("null".into(), |v| v.to_string())
}

fn main() {
    let o = options();
    match o.mode.as_str() {
        "list" => NAMES.iter().for_each(|name| println!("{name}")),
        "cold" => {
            let name = o.name.as_deref().expect("cold NAME");
            let (context, context_ms) = open(o.cache_in.as_deref());
            let desc = desc(name, LENGTH);
            let start = Instant::now();
            context.compile(&desc).expect("compiles");
            let first_ms = milliseconds(start);
            let pipelines = api::pipelines(&context);
            // Each operator dropped in the timed span, as an application that compiles on
            // every call would: its drop counts too.
            let cached: Vec<f64> = (0..o.cached_runs)
                .map(|_| {
                    let start = Instant::now();
                    context.compile(&desc).expect("compiles");
                    milliseconds(start) * 1e3
                })
                .collect();
            let cached_mean_us = cached.iter().sum::<f64>() / cached.len().max(1) as f64;
            let cached_max_us = cached.iter().copied().fold(0.0, f64::max);
            let cached_us = median(cached);
            let cache_bytes = save_cache(&context, o.cache_out.as_deref());
            println!(
                "{{\"mode\":\"cold\",\"name\":\"{name}\",\"adapter\":{},\"context_ms\":{context_ms:.3},\
                 \"first_ms\":{first_ms:.3},\"cached_us\":{cached_us:.2},\
                 \"cached_mean_us\":{cached_mean_us:.2},\"cached_max_us\":{cached_max_us:.2},\
                 \"pipelines\":{},\
                 \"cache_in\":{},\"cache_bytes\":{}}}",
                json_string(&adapter(&context)),
                json_option(pipelines),
                o.cache_in.is_some(),
                json_option(cache_bytes),
            );
        }
        "resize" => {
            let name = o.name.as_deref().expect("resize NAME");
            let (context, _) = open(None);
            let start = Instant::now();
            context.compile(&desc(name, 1)).expect("compiles");
            let first_ms = milliseconds(start);
            let pipelines_before = api::pipelines(&context);
            let mut times = Vec::new();
            let mut slow = 0;
            for n in (2..=o.max).step_by(o.step.max(1) as usize) {
                let start = Instant::now();
                context.compile(&desc(name, n)).expect("compiles");
                let ms = milliseconds(start);
                // Well past a cached compile's microseconds: a pipeline was built.
                slow += usize::from(ms > 1.0);
                times.push(ms);
            }
            let built = api::pipelines(&context)
                .zip(pipelines_before)
                .map(|(after, before)| after - before);
            let count = times.len();
            let total: f64 = times.iter().sum();
            let max = times.iter().copied().fold(0.0, f64::max);
            println!(
                "{{\"mode\":\"resize\",\"name\":\"{name}\",\"adapter\":{},\"first_ms\":{first_ms:.3},\
                 \"compiles\":{count},\"step\":{},\"pipelines_built\":{},\"over_1ms\":{slow},\
                 \"total_ms\":{total:.3},\"max_ms\":{max:.3},\"median_us\":{:.2}}}",
                json_string(&adapter(&context)),
                o.step,
                json_option(built),
                median(times) * 1e3,
            );
        }
        "all" => {
            let (context, context_ms) = open(o.cache_in.as_deref());
            let start = Instant::now();
            for name in NAMES {
                context.compile(&desc(name, LENGTH)).expect("compiles");
            }
            let total_ms = milliseconds(start);
            let cache_bytes = save_cache(&context, o.cache_out.as_deref());
            println!(
                "{{\"mode\":\"all\",\"adapter\":{},\"context_ms\":{context_ms:.3},\
                 \"total_ms\":{total_ms:.3},\"pipelines\":{},\"cache_in\":{},\"cache_bytes\":{}}}",
                json_string(&adapter(&context)),
                json_option(api::pipelines(&context)),
                o.cache_in.is_some(),
                json_option(cache_bytes),
            );
        }
        "precompile" => {
            let (context, context_ms) = open(o.cache_in.as_deref());
            let descs: Vec<OperatorDesc> = NAMES.iter().map(|name| desc(name, LENGTH)).collect();
            let start = Instant::now();
            let supported = api::precompile(&context, &descs);
            let total_ms = milliseconds(start);
            // Every compile after it should be a lookup.
            let start = Instant::now();
            for desc in &descs {
                context.compile(desc).expect("compiles");
            }
            let after_ms = milliseconds(start);
            println!(
                "{{\"mode\":\"precompile\",\"adapter\":{},\"supported\":{supported},\
                 \"context_ms\":{context_ms:.3},\"total_ms\":{total_ms:.3},\
                 \"compiles_after_ms\":{after_ms:.3},\"pipelines\":{}}}",
                json_string(&adapter(&context)),
                json_option(api::pipelines(&context)),
            );
        }
        other => panic!("unknown mode {other} (list, cold, resize, all, precompile)"),
    }
}

/// The calls this benchmark makes beyond `compile` (a build from before they existed
/// replaces this module with one that answers `None`).
mod api {
    use dml_wgsl::{Context, ContextOptions, OperatorDesc};

    pub fn open(cache_data: Option<Vec<u8>>) -> dml_wgsl::Result<Context> {
        let mut options = ContextOptions::default();
        if let Some(data) = cache_data {
            // SAFETY: the file an earlier run of this benchmark wrote from
            // `pipeline_cache_data` (`--cache-out`).
            options = unsafe { options.with_pipeline_cache_data(data) };
        }
        Context::new_blocking_with(options)
    }

    pub fn pipelines(context: &Context) -> Option<usize> {
        Some(context.compiled_pipeline_count())
    }

    pub fn cache_data(context: &Context) -> Option<Vec<u8>> {
        context.pipeline_cache_data()
    }

    /// Whether the build has `precompile` (it panics on an error, as `compile` here does).
    pub fn precompile(context: &Context, descs: &[OperatorDesc]) -> bool {
        context.precompile(descs).expect("precompiles");
        true
    }
}
