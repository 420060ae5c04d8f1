//! The options an operator takes beyond DirectML's members: how duplicate scatter targets
//! resolve, how updates combine, and what an out-of-range index does. A leaf module: it
//! imports nothing of the crate, so every other module may use it.

/// In what order a scatter applies several updates aimed at one output element (DirectML
/// leaves this undefined).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DuplicateMode {
    /// Any order, for speed. With no [`Reduction`] the element ends equal to exactly one of
    /// the updates aimed at it, which one unspecified; never a mix of bytes from several
    /// (1- and 2-byte elements are stored by compare-exchange on their 32-bit word, or 2-byte
    /// ones by 16-bit stores where the context can, see
    /// [`ContextOptions::with_half_stores`](crate::ContextOptions::with_half_stores); 4-byte
    /// elements by single-word stores, and 8-byte elements take the [`DuplicateMode::InOrder`]
    /// path, since a plain 8-byte store could tear). With a reduction every update is
    /// combined exactly once (by atomics: WGSL's own for integer Add, Min and Max, a
    /// compare-exchange loop otherwise; never lost to a race):
    /// integer results, and Min and Max of any type, equal the in-order result (except that
    /// where equal values of different bits tie, +0.0 and -0.0, or several NaNs, which one
    /// stays is unspecified); float Add and Mul may round differently, as the order and
    /// grouping of the operations differ (updates of one workgroup aimed at one element are
    /// combined with each other first, then into the element: `x + (u1 + u2)`, each step
    /// rounded as the type says; where the output has at most 2048 units, a workgroup's
    /// updates are combined in bins of the whole output first; float Add and Mul, and every
    /// other reduction by compare-exchange, onto at most 16,384 units (Float32 Add that the
    /// f32 atomics take, 4096), combine a thread's
    /// consecutive updates of one element first, bin a range of the output a workgroup, and
    /// where the workgroups are at most 2048 (and times the units at most 2^22) combine their
    /// bins with each other, in a tree, before the element (where the workgroups would be more
    /// and every workgroup's bins would take updates, a thread takes more, up to 1024, to keep
    /// them that few); Float32 Add onto larger outputs, and already past 4096 units
    /// (rows of 64 or more units onto more than 2048), where the device has f32 atomics, adds each update by one `atomicAdd` and the updates
    /// whose values those may get wrong after all the others: see
    /// [`crate::ContextOptions::with_float32_atomics`]). 8-byte elements take 64-bit
    /// atomics where the device has them (see [`crate::ContextOptions::with_int64_atomics`]):
    /// integer Add, Min and Max one of WGSL's own an update; Float64 and integer Mul a
    /// compare-exchange loop, after a thread's consecutive updates aimed at one element, then
    /// a workgroup's, are combined (and, where the output has at most 8192 units and the
    /// workgroups are as few as above, the workgroups' results are combined with each other,
    /// in a tree, before the element);
    /// without them 8-byte elements take the `InOrder` path's sort here too, but a target's
    /// run of more than 64 updates is folded on a workgroup's threads, each every 256th
    /// update or so, and their results in a tree (grouped, not one after another: Float64 Add
    /// and Mul round as that grouping does). Rows of 64 or more units sharing one index
    /// tuple that land on aligned blocks of the output (ScatterND's rows, `index_add_`;
    /// 8-byte rows of two or more units where the device has no 64-bit atomics) are reduced
    /// by rows: each block's rows linked into a list and folded along it, one row after
    /// another in the list's (unspecified) order, which is faster than a compare-exchange an
    /// update; but where the rows average more than 512 a block onto at most 4096 units (more
    /// than 16 for Float32 Add that the f32 atomics take, onto any output) they go element by
    /// element as above (a list is walked one row at a time).
    #[default]
    AnyUpdate,
    /// The updates apply in the updates tensor's row-major order, exactly as
    /// [`crate::reference`] computes, bit for bit: with no reduction the last update wins;
    /// with one, the result is the sequential fold `((x op u0) op u1) ..`. Costs more passes
    /// and scratch: with no reduction, a claim pass and 4 bytes per output unit; with one,
    /// a stable radix sort of the updates by target and a fold of each target's run (8
    /// bytes per output unit, and 16 per update plus about 0.3 for the sort's counts).
    /// Where rows of units share one index tuple and land on aligned blocks of the output
    /// (ScatterND's rows), the rows are sorted by the row they land on (16 bytes per row of
    /// updates) and each unit's column folded. No invocation folds more than 4096 updates in
    /// one dispatch: longer runs (hundreds of thousands of updates on one target) fold over
    /// several passes, exactly. Where the sort's scratch passes one binding
    /// (`max_storage_buffer_binding_size`), or the workgroup is no power of two of at least
    /// 32 threads, `compile` refuses with [`crate::Error::LimitExceeded`]. Integer reductions of 1- to 4-byte
    /// elements cost nothing extra: their bits do not depend on the order (wrap-around Add
    /// and Mul, Min and Max), so they take the default mode's path and give the in-order
    /// result; so do 8-byte integer reductions where the device has 64-bit atomics. Float Min
    /// and Max of 2 and 4 bytes take it too, with a pass before and one
    /// after that give tied zeros (+0.0, -0.0) and NaNs the bits of the first in order (4
    /// bytes per output unit): over the updates where they are fewer than the output's
    /// units, else over the output's units, each zero or NaN update claiming its unit as
    /// the default mode's pass places it; by rows of 64 or more units, the default mode's
    /// row lists (4 bytes per row of updates), each zero or NaN claiming its unit by its
    /// row, and a pass after that stores the first of each unit's class (4 bytes per output
    /// unit), where the lists average at most 64 rows and the output has at most 4 units an
    /// update unit (else the sort).
    InOrder,
}

#[allow(non_upper_case_globals)]
impl DuplicateMode {
    /// The earlier name of [`DuplicateMode::InOrder`] (with no reduction, the last update wins).
    pub const LastWins: DuplicateMode = DuplicateMode::InOrder;
}

/// How a scatter combines each update with the output element it targets (ONNX's
/// `reduction`, PyTorch's `scatter_reduce_` and `index_add_`; DirectML has none): after
/// `output = input`, `output[t] = output[t] op update`.
///
/// * Integers (8 to 64 bits, signed and unsigned): two's-complement wrap-around on overflow.
/// * Float32: IEEE single precision, round to nearest even, subnormals kept. Float64: IEEE
///   double (emulated with 32-bit integers, WebGPU has no f64; where the device has f64, a
///   step of normal numbers with a normal result takes it, the same bits: see
///   [`crate::ContextOptions::with_hardware_float64`]). Float16: each
///   step computed in f32 and rounded to f16 (nearest even), as numpy and ONNX's reference do.
///   BFloat16: the same, rounded to bfloat16 (nearest even; overflow to infinity, subnormals
///   kept).
/// * NaN: Add and Mul give the current value's NaN if it is one, else the update's, with the
///   quiet bit set; an invalid operation (inf - inf, 0 * inf) gives the positive quiet NaN
///   with an empty payload (`0x7fc00000` in f32, `0x7e00` in f16, `0x7fc0` in bfloat16). Min
///   and Max propagate NaN: a NaN current value stays, and a NaN update replaces a number
///   (bits kept as they are).
/// * Min and Max compare values as numbers of their type (floats as IEEE numbers, not bit
///   patterns): an update replaces the current value only when strictly smaller (larger), so
///   +0.0 and -0.0 tie and the current value stays.
/// * Order: see [`DuplicateMode`]; `InOrder` is exact for every type and reduction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reduction {
    /// The update replaces the element (DirectML's scatter).
    #[default]
    None,
    Add,
    Mul,
    Min,
    Max,
}

impl Reduction {
    /// Every reduction that combines (all but `None`): the list the kernel registry and the
    /// tests share.
    #[doc(hidden)]
    pub const COMBINING: [Reduction; 4] = [
        Reduction::Add,
        Reduction::Mul,
        Reduction::Min,
        Reduction::Max,
    ];
}

/// What an index outside its dimension does, in every operator with indices (Gather,
/// GatherElements, GatherND, ScatterElements, ScatterND). DirectML leaves it undefined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutOfRange {
    /// The element is left alone (a scatter skips the update, a gather writes zero), and
    /// [`crate::Context::run`] (or [`crate::CompiledOperator::check_status`]) reports the first
    /// one in the indices' row-major order as [`crate::Error::IndexOutOfRange`].
    #[default]
    Report,
    /// The index is clamped into `[0, n)` (`n` the size of the dimension it indexes) after a
    /// signed negative index is counted from the end: `v < 0` becomes `max(v + n, 0)`, and
    /// `v >= n` becomes `n - 1`, comparing 64-bit indices whole. Nothing is reported. This is
    /// what WebNN implementations and DirectML's drivers do, so graphs ported from them get
    /// the same outputs. An empty dimension (`n = 0`) has nothing to clamp to: where indices
    /// are used on one, the descriptor is refused (`Error::ZeroSize`).
    Clamp,
}
