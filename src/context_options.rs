//! [`ContextOptions`]: how a context is made, beyond its device.

#[cfg(doc)]
use crate::Context;
use crate::copy_method::CopyMethod;

/// How a [`Context`] is made, beyond its device.
///
/// ```no_run
/// # fn main() -> dml_wgsl::Result<()> {
/// use dml_wgsl::{Context, ContextOptions, CopyMethod};
/// // An earlier run's pipelines, saved from `Context::pipeline_cache_data`.
/// let saved = std::fs::read("pipelines.bin").ok();
/// let mut options = ContextOptions::default().with_copy_method(CopyMethod::Kernel);
/// if let Some(bytes) = saved {
///     // SAFETY: the file is this application's own, written from `pipeline_cache_data`.
///     options = unsafe { options.with_pipeline_cache_data(bytes) };
/// }
/// let context = Context::new_blocking_with(options)?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ContextOptions {
    /// How contiguous runs are copied; `None` (the default) measures when the context is made.
    pub copy_method: Option<CopyMethod>,
    /// Bytes of an earlier context's [`Context::pipeline_cache_data`] (set only through the
    /// unsafe [`ContextOptions::with_pipeline_cache_data`]).
    pub(crate) pipeline_cache_data: Option<Vec<u8>>,
    /// Leaves the device's 64-bit integer atomics unused (see
    /// [`ContextOptions::with_int64_atomics`]).
    pub(crate) without_int64_atomics: bool,
    /// Leaves the device's f64 unused (see [`ContextOptions::with_hardware_float64`]).
    pub(crate) without_hardware_float64: bool,
    /// Leaves the device's f32 atomics unused (see [`ContextOptions::with_float32_atomics`]).
    pub(crate) without_float32_atomics: bool,
    /// Stores 2-byte elements by atomics on their words (see
    /// [`ContextOptions::with_half_stores`]).
    pub(crate) without_half_stores: bool,
    /// Plans for a device that bounds loops, or not, whatever the adapter (see
    /// [`ContextOptions::with_bounded_loops`]); `None`: as the adapter says.
    pub(crate) bounded_loops: Option<bool>,
}

impl ContextOptions {
    /// Copies contiguous runs by `method`, without measuring.
    pub fn with_copy_method(mut self, method: CopyMethod) -> ContextOptions {
        self.copy_method = Some(method);
        self
    }

    /// Whether 8-byte reductions use the device's 64-bit atomics where it has them (the
    /// default, `true`): `SHADER_INT64` with `SHADER_INT64_ATOMIC_MIN_MAX` (integer Min and
    /// Max) or `SHADER_INT64_ATOMIC_ALL_OPS` (every 8-byte reduction in any order: integer
    /// Add by `atomicAdd`, Float64 and integer Mul by compare-exchange), requested by
    /// [`Context::new`] and read from the device by [`Context::from_device`]. `false` takes
    /// the path every device has (the in-order sort): the same results for integers and the
    /// same numbers for Float64 Min and Max (which of tied zeros or NaNs stays may differ),
    /// Float64 Add and Mul folded in another order: for tests and comparisons.
    pub fn with_int64_atomics(mut self, enabled: bool) -> ContextOptions {
        self.without_int64_atomics = !enabled;
        self
    }

    /// Whether Float64 Add and Mul reductions use the device's f64 arithmetic where it has it
    /// (the default, `true`): `SHADER_F64` with `SHADER_INT64`, requested by
    /// [`Context::new`] and read from the device by [`Context::from_device`]. Each step
    /// whose operands are normal numbers and whose result is a normal number at least
    /// 2^-1021 in magnitude is the device's correctly rounded `+` or `*` (IEEE's bits, as
    /// for every other step); every other step (zeros, subnormals, infinities, NaNs, results
    /// near or past the range's ends) takes the integer path every device has. The results
    /// are the same bits either way; `false` forces the integer path everywhere, for tests
    /// and comparisons.
    pub fn with_hardware_float64(mut self, enabled: bool) -> ContextOptions {
        self.without_hardware_float64 = !enabled;
        self
    }

    /// Whether Float32 Add reductions in any order use the device's f32 atomics where it has
    /// them (the default, `true`): wgpu's `SHADER_FLOAT32_ATOMIC` (Vulkan's
    /// `VK_EXT_shader_atomic_float`, Metal), requested by [`Context::new`] and read from the
    /// device by [`Context::from_device`]. Taken where the output is past the workgroup bins
    /// (more than 4096 elements, where four ranges of bins measured slower than the atomics;
    /// for rows of 64 or more elements, more than 2048), the
    /// updates are at least a quarter of its elements, and no tensor is split into windows. Values safe for the device's atomic add are zeros and
    /// finite numbers of at least 2^-102 in magnitude: every sum of them is zero or a normal
    /// number, and the device's correctly rounded sum of those is the IEEE bits of the
    /// compare-exchange path. (That assumes the device's atomic add rounds to nearest even, as
    /// NVIDIA's `atom.add.f32` does, and CPU drivers such as lavapipe: Vulkan leaves the
    /// rounding of its float atomics to the implementation; `tests/scatter_float_add.rs`
    /// checks an adapter's bits.) A pass
    /// first reads the output: where all its values are safe, each update whose value is
    /// takes one `atomicAdd`, and the others (NaNs, infinities, subnormals, tiny numbers) are
    /// added after them by compare-exchange (an order of the updates, as any order allows);
    /// where an output value is not safe, every update is added by compare-exchange.
    /// `false` forces the compare-exchange path, for tests and comparisons.
    pub fn with_float32_atomics(mut self, enabled: bool) -> ContextOptions {
        self.without_float32_atomics = !enabled;
        self
    }

    /// Whether scatters of 2-byte units (Float16, BFloat16, Int16, UInt16, and the pairs of
    /// 1-byte elements ScatterND moves together) store each element that does not fill its
    /// output word by one 16-bit store where the device can (wgpu's `SHADER_F16`, which
    /// [`Context::new`](crate::Context::new) requests, on Vulkan: NVIDIA's and Mesa's drivers
    /// have it; not on GL, DX12, Metal or in browsers, where it is untested): the updates and
    /// the output are then bound a second time as `f16` arrays, and the element is moved
    /// through them as bits, never computed with. Otherwise (and with `false`, for tests and
    /// comparisons) such an element is stored by atomics on the 4-byte word it shares with
    /// a neighbour (an `atomicAnd` and an `atomicOr`; a compare-exchange where a duplicate
    /// target came between them). Tensors bound as windows take the atomics too. The
    /// results are the same bits either way; on an H200 the scatters whose elements land in
    /// other rows than their neighbours' (the narrow sweep's `diag` class) take about 30 %
    /// less time with 16-bit stores than with the atomics.
    pub fn with_half_stores(mut self, enabled: bool) -> ContextOptions {
        self.without_half_stores = !enabled;
        self
    }

    /// Whether the context plans for a device that may end an invocation's loops after a
    /// budget of iterations in all, as Mesa's llvmpipe and lavapipe do (65535 a SIMD vector
    /// of invocations, silently). By default the adapter decides: a discrete or integrated
    /// GPU of another driver is taken not to; Mesa's software drivers, CPU adapters and
    /// adapters that do not say what they are (browsers') are taken to. Where it does, the
    /// reductions by rows that copy 16 bytes a thread as they fold walk a run or list of
    /// updates at most 1024 rows (narrow units; 2048 for 4-byte ones) in their first pass,
    /// the rest in later passes (float Min and Max in order walk so on every device), and
    /// results are the same bits either way. `true` plans so on any device (a pass more for
    /// tables of 1024 to 4096 rows of updates on a GPU);
    /// `false` plans as for a GPU, walking up to 4096 rows a part: on a device that bounds
    /// loops, runs and lists of more than about 1000 rows may then lose updates (for tests
    /// and comparisons only).
    pub fn with_bounded_loops(mut self, bounded: bool) -> ContextOptions {
        self.bounded_loops = Some(bounded);
        self
    }

    /// Seeds the device's pipeline cache with `data` from [`Context::pipeline_cache_data`]
    /// of an earlier context on the same adapter and driver: pipelines it holds are not
    /// compiled again by the driver. Bytes the device cannot use (another adapter, driver or
    /// wgpu version; bytes truncated or damaged, which a checksum catches) are ignored and the
    /// cache starts empty ([`Context::pipeline_cache_seeded`] says which); on a device
    /// without a pipeline cache they are ignored too.
    ///
    /// # Safety
    ///
    /// `data` must be bytes that [`Context::pipeline_cache_data`] returned (read back from
    /// where the application saved them). They go to the driver as they are, as wgpu's
    /// `Device::create_pipeline_cache` requires: the checksum catches damage, not bytes made
    /// on purpose to pass it, which could make the driver misbehave. Never load them from a
    /// source you would not run code from.
    pub unsafe fn with_pipeline_cache_data(mut self, data: Vec<u8>) -> ContextOptions {
        self.pipeline_cache_data = Some(data);
        self
    }
}
