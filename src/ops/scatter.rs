//! ScatterElements (`DML_SCATTER_OPERATOR_DESC`) and ScatterND (`DML_SCATTER_ND_OPERATOR_DESC`).

use super::index_map::{EntriesByRowShape, Grouping, IndexMap, optimised};
use super::validate::{
    check_dimension_counts, check_elements_axis, check_index_type, check_right_aligned_sizes,
    check_same_kind, check_same_sizes, right_aligned_dimension, tuple_size,
};
use super::{DeviceFacts, InPlace, Lowered, Operator, OutOfRange, Placement, Step, StridedCopy};
use crate::dispatch::Grid;
use crate::error::{Error, Result};
use crate::kernels::{
    Entry, FOLD_STEPS, FoldSpans, Kernel, LONG_RUN, RADIX_ROUNDS, RADIX_TILES, REDUCE_GROUP,
    ReduceOrder, Role, SCAN_ITEMS, SLICE_TILE,
};
use crate::params::{IndexParams, Parameters};
use crate::tensor::TensorDesc;

/// In what order a scatter applies several updates aimed at one output element (DirectML
/// leaves this undefined).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DuplicateMode {
    /// Any order, for speed. With no [`Reduction`] the element ends equal to exactly one of
    /// the updates aimed at it, which one unspecified; never a mix of bytes from several
    /// (1- and 2-byte elements are stored by compare-exchange on their 32-bit word, 4-byte
    /// elements by single-word stores, and 8-byte elements take the [`DuplicateMode::InOrder`]
    /// path, since a plain 8-byte store could tear). With a reduction every update is
    /// combined exactly once (read-modify-write by compare-exchange, never lost to a race):
    /// integer results, and Min and Max of any type, equal the in-order result (except that
    /// where equal values of different bits tie, +0.0 and -0.0, or several NaNs, which one
    /// stays is unspecified); float Add and Mul may round differently, as the order and
    /// grouping of the operations differ (updates of one workgroup aimed at one element are
    /// combined with each other first, then into the element: `x + (u1 + u2)`, each step
    /// rounded as the type says). 8-byte elements take the `InOrder` path here too (no 64-bit
    /// atomics), and so do rows of 64 or more units sharing one index tuple that land on
    /// aligned blocks of the output (ScatterND's rows, `index_add_`): reduced by rows, that
    /// is faster than a compare-exchange an update, and gives the in-order result.
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
    /// result. Float Min and Max of 2 and 4 bytes take it too, with a pass before and one
    /// after that give tied zeros (+0.0, -0.0) and NaNs the bits of the first in order (4
    /// bytes per output unit).
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
///   double (emulated with 32-bit integers on every adapter: WebGPU has no f64). Float16: each
///   step computed in f32 and rounded to f16 (nearest even), as numpy and ONNX's reference do.
/// * NaN: Add and Mul give the current value's NaN if it is one, else the update's, with the
///   quiet bit set; an invalid operation (inf - inf, 0 * inf) gives the positive quiet NaN
///   with an empty payload (`0x7fc00000` in f32). Min and Max propagate NaN: a NaN current
///   value stays, and a NaN update replaces a number (bits kept as they are).
/// * Min and Max compare values as numbers of their type (floats as IEEE numbers, not bit
///   patterns): an update replaces the current value only when strictly smaller (larger), so
///   +0.0 and -0.0 tie and the current value stays.
/// * Order: see [`DuplicateMode`]; `InOrder` is exact for every type and reduction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// The update replaces the element (DirectML's scatter).
    #[default]
    None,
    Add,
    Mul,
    Min,
    Max,
}

/// `DML_SCATTER_OPERATOR_DESC` (ScatterElements): `output = input`, then along `axis`
/// `output[.., indices[c], ..] = updates[c]` for every coordinate `c` of `indices`.
///
/// * `input`, `indices`, `updates` and `output` have the same rank; `output` has the input's
///   sizes and data type, `updates` the input's data type and the indices' sizes.
/// * `indices` is Int32, UInt32, Int64 or UInt64; outside `axis` its sizes are at most the
///   input's (DirectML asks for equality; smaller is accepted, as PyTorch and ONNX do).
/// * An index `v` must lie in `[-n, n)` for signed types (`n` the input's size along `axis`;
///   negatives count from the end) and `[0, n)` for unsigned ones. An out-of-range update is
///   skipped (nothing outside the tensors is ever touched) and `run` reports it as
///   [`Error::IndexOutOfRange`].
/// * Several updates aimed at one element: see [`DuplicateMode`].
/// * `output` may be bound to the input's own buffer range (in place, same layout): the
///   `output = input` copy is then skipped.
///
/// ```
/// use dml_wgsl::{Context, DataType, DuplicateMode, OperatorDesc, ScatterElementsDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // DirectML's 1-D example: two updates aim at element 3; in in-order mode the later one
/// // (7) stays.
/// let desc: OperatorDesc = ScatterElementsDesc::new(
///     TensorDesc::new(DataType::Float32, &[5]), // input
///     TensorDesc::new(DataType::Int32, &[4]),   // indices
///     TensorDesc::new(DataType::Float32, &[4]), // updates
///     TensorDesc::new(DataType::Float32, &[5]), // output
///     0,                                        // axis
/// )
/// .with_duplicates(DuplicateMode::InOrder)
/// .into();
/// let input = [0f32, 1., 2., 3., 4.];
/// let indices = [3i32, 1, -2, 0]; // -2 counts from the end: element 3
/// let updates = [5f32, 6., 7., 8.];
/// let output: Vec<f32> = context.run_typed_blocking(
///     &desc,
///     &[(&input).into(), (&indices).into(), (&updates).into()],
/// )?;
/// assert_eq!(output, [8., 6., 2., 7., 4.]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScatterElementsDesc {
    pub input: TensorDesc,
    pub indices: TensorDesc,
    pub updates: TensorDesc,
    pub output: TensorDesc,
    pub axis: u32,
    /// Beyond DirectML: how each update combines with its target.
    pub reduction: Reduction,
    /// Beyond DirectML: in what order updates aimed at one element apply.
    pub duplicates: DuplicateMode,
    /// Beyond DirectML: what an out-of-range index does.
    pub out_of_range: OutOfRange,
}

impl ScatterElementsDesc {
    /// A scatter with DirectML's members, in `DML_SCATTER_OPERATOR_DESC`'s order, and the
    /// default options beyond DirectML (see [`ScatterElementsDesc::with_duplicates`]).
    pub fn new(
        input: TensorDesc,
        indices: TensorDesc,
        updates: TensorDesc,
        output: TensorDesc,
        axis: u32,
    ) -> ScatterElementsDesc {
        ScatterElementsDesc {
            input,
            indices,
            updates,
            output,
            axis,
            reduction: Reduction::default(),
            duplicates: DuplicateMode::default(),
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same scatter with updates aimed at one element applied in the order `duplicates`
    /// says.
    pub fn with_duplicates(mut self, duplicates: DuplicateMode) -> ScatterElementsDesc {
        self.duplicates = duplicates;
        self
    }

    /// The same scatter with each update combined with its target by `reduction`.
    pub fn with_reduction(mut self, reduction: Reduction) -> ScatterElementsDesc {
        self.reduction = reduction;
        self
    }

    /// The same scatter with out-of-range indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> ScatterElementsDesc {
        self.out_of_range = out_of_range;
        self
    }
}

/// `DML_SCATTER_ND_OPERATOR_DESC`: `output = input`, then `output[indices[b, :], ..] = updates[b, ..]`.
///
/// * Only the last `input_dimension_count` dimensions of `input` and the last
///   `indices_dimension_count` of `indices` are meaningful (each in `[1, rank]`); the leading
///   ones must be 1.
/// * The indices' last size `q` is the tuple size, `1 <= q <= input_dimension_count`; each
///   tuple addresses the first `q` meaningful input dimensions.
/// * `updates` sizes are the indices' meaningful sizes less the last, then the input's last
///   `input_dimension_count - q` sizes, right-aligned: leading 1s added where the updates'
///   rank is larger, cropped where it is smaller.
/// * Ranks may differ between `input`, `indices` and `updates` (the DirectML page's own example
///   uses {8}, {4,1} and {4}); tensors read as right-aligned with leading 1s. `output` has the
///   input's sizes and data type.
/// * Index ranges, out-of-range updates, duplicates and in-place operation as for
///   [`ScatterElementsDesc`], per tuple component.
///
/// ```
/// use dml_wgsl::{Context, DataType, OperatorDesc, ScatterNdDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // Rows 2 and 0 of a 3x2 matrix replaced (1-tuples address rows).
/// let desc: OperatorDesc = ScatterNdDesc::new(
///     TensorDesc::new(DataType::Int64, &[3, 2]), // input
///     TensorDesc::new(DataType::UInt32, &[2, 1]), // indices
///     TensorDesc::new(DataType::Int64, &[2, 2]), // updates
///     TensorDesc::new(DataType::Int64, &[3, 2]), // output
///     2,                                         // input_dimension_count
///     2,                                         // indices_dimension_count
/// )
/// .into();
/// let input = [1i64, 2, 3, 4, 5, 6];
/// let rows = [2u32, 0];
/// let updates = [-5i64, -6, -1, -2];
/// let output: Vec<i64> =
///     context.run_typed_blocking(&desc, &[(&input).into(), (&rows).into(), (&updates).into()])?;
/// assert_eq!(output, [-1, -2, 3, 4, -5, -6]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScatterNdDesc {
    pub input: TensorDesc,
    pub indices: TensorDesc,
    pub updates: TensorDesc,
    pub output: TensorDesc,
    pub input_dimension_count: u32,
    pub indices_dimension_count: u32,
    /// Beyond DirectML: how each update combines with its target.
    pub reduction: Reduction,
    /// Beyond DirectML: in what order updates aimed at one element apply.
    pub duplicates: DuplicateMode,
    /// Beyond DirectML: what an out-of-range index does.
    pub out_of_range: OutOfRange,
}

impl ScatterNdDesc {
    /// A scatter with DirectML's members, in `DML_SCATTER_ND_OPERATOR_DESC`'s order, and
    /// the default options beyond DirectML (see [`ScatterNdDesc::with_duplicates`]).
    pub fn new(
        input: TensorDesc,
        indices: TensorDesc,
        updates: TensorDesc,
        output: TensorDesc,
        input_dimension_count: u32,
        indices_dimension_count: u32,
    ) -> ScatterNdDesc {
        ScatterNdDesc {
            input,
            indices,
            updates,
            output,
            input_dimension_count,
            indices_dimension_count,
            reduction: Reduction::default(),
            duplicates: DuplicateMode::default(),
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same scatter with updates aimed at one element applied in the order `duplicates`
    /// says.
    pub fn with_duplicates(mut self, duplicates: DuplicateMode) -> ScatterNdDesc {
        self.duplicates = duplicates;
        self
    }

    /// The same scatter with each update combined with its target by `reduction`.
    pub fn with_reduction(mut self, reduction: Reduction) -> ScatterNdDesc {
        self.reduction = reduction;
        self
    }

    /// The same scatter with out-of-range indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> ScatterNdDesc {
        self.out_of_range = out_of_range;
        self
    }
}

impl ScatterElementsDesc {
    /// Checks every rule of `DML_SCATTER`.
    pub fn validate(&self) -> Result<()> {
        self.input.validate("input", false)?;
        self.indices.validate("indices", false)?;
        self.updates.validate("updates", false)?;
        self.output.validate("output", true)?;
        check_index_type(&self.indices)?;
        check_same_kind("updates", &self.updates, "input", &self.input)?;
        check_same_kind("output", &self.output, "input", &self.input)?;
        let rank = self.input.rank();
        if self.indices.rank() != rank {
            return Err(Error::RankMismatch {
                tensor: "indices",
                actual: self.indices.rank(),
                expected_from: "input",
                expected: rank,
            });
        }
        check_same_sizes(
            "output",
            &self.output,
            &self.input.sizes,
            "the input's sizes",
        )?;
        check_same_sizes(
            "updates",
            &self.updates,
            &self.indices.sizes,
            "the indices' sizes",
        )?;
        check_elements_axis(&self.input, &self.indices, self.axis)
    }

    fn index_map(&self) -> IndexMap {
        let axis = self.axis as usize;
        let output_strides = self.output.signed_strides();
        let mut indexed_strides = output_strides.clone();
        indexed_strides[axis] = 0;
        IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.updates.sizes.clone(),
            dense_strides: self.updates.signed_strides(),
            indexed_strides,
            indices_strides: self.indices.signed_strides(),
            tuple_stride: 0,
            index_bounds: vec![self.input.sizes[axis]],
            index_strides: vec![output_strides[axis]],
            index_type: self.indices.data_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
        }
    }
}

impl Operator for ScatterElementsDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![
            ("input", &self.input),
            ("indices", &self.indices),
            ("updates", &self.updates),
        ]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        ScatterElementsDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Lowered {
        let positions = (0..self.indices.rank()).map(Some).collect();
        scatter(
            &self.input,
            &self.output,
            &self.updates,
            self.index_map(),
            positions,
            false,
            (self.reduction, self.duplicates),
            device,
        )
    }
}

impl ScatterNdDesc {
    /// Checks every rule of `DML_SCATTER_ND`.
    pub fn validate(&self) -> Result<()> {
        self.input.validate("input", false)?;
        self.indices.validate("indices", false)?;
        self.updates.validate("updates", false)?;
        self.output.validate("output", true)?;
        check_index_type(&self.indices)?;
        check_same_kind("output", &self.output, "input", &self.input)?;
        if self.updates.data_type != self.input.data_type {
            return Err(Error::DataTypeMismatch {
                tensor: "updates",
                actual: self.updates.data_type,
                expected_from: "input",
                expected: self.input.data_type,
            });
        }
        check_same_sizes(
            "output",
            &self.output,
            &self.input.sizes,
            "the input's sizes",
        )?;
        check_dimension_counts(
            &self.input,
            self.input_dimension_count,
            &self.indices,
            self.indices_dimension_count,
        )?;
        let tuple = tuple_size(&self.indices);
        if tuple > self.input_dimension_count {
            return Err(Error::TupleSize {
                value: tuple,
                max: self.input_dimension_count,
            });
        }
        check_right_aligned_sizes(
            "updates",
            &self.updates,
            self.expected_update_sizes(),
            "indices and input (meaningful dimensions)",
            "the indices' leading sizes, then the input's trailing sizes, right-aligned",
        )
    }

    /// The meaningful update sizes: the indices' (less the tuple dimension), then the
    /// input's trailing `input_dimension_count - q`.
    fn expected_update_sizes(&self) -> Vec<u32> {
        let indices_rank = self.indices.rank();
        let batch = &self.indices.sizes
            [indices_rank - self.indices_dimension_count as usize..indices_rank - 1];
        let trailing = (self.input_dimension_count - tuple_size(&self.indices)) as usize;
        let slice = &self.input.sizes[self.input.rank() - trailing..];
        [batch, slice].concat()
    }

    fn index_map(&self) -> IndexMap {
        let output_strides = self.output.signed_strides();
        let indices_strides = self.indices.signed_strides();
        let updates_rank = self.updates.rank();
        let input_rank = self.input.rank();
        let indices_rank = self.indices.rank();
        let tuple = tuple_size(&self.indices) as usize;
        let batch = self.indices_dimension_count as usize - 1;
        let meaningful = self.expected_update_sizes().len();
        let mut indexed_strides = vec![0i64; updates_rank];
        let mut tuple_strides = vec![0i64; updates_rank];
        // Meaningful update dimension p: the indices' batch dimensions, then the input's
        // trailing ones; the updates hold them right-aligned (cropped ones are 1s).
        for p in 0..meaningful {
            let Some(j) = right_aligned_dimension(p, meaningful, updates_rank) else {
                continue;
            };
            if p < batch {
                tuple_strides[j] = indices_strides[indices_rank - 1 - batch + p];
            } else {
                let trailing = meaningful - batch;
                indexed_strides[j] = output_strides[input_rank - trailing + (p - batch)];
            }
        }
        let first = input_rank - self.input_dimension_count as usize;
        IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.updates.sizes.clone(),
            dense_strides: self.updates.signed_strides(),
            indexed_strides,
            indices_strides: tuple_strides,
            tuple_stride: indices_strides[indices_rank - 1],
            index_bounds: self.input.sizes[first..first + tuple].to_vec(),
            index_strides: output_strides[first..first + tuple].to_vec(),
            index_type: self.indices.data_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
        }
    }
}

impl Operator for ScatterNdDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![
            ("input", &self.input),
            ("indices", &self.indices),
            ("updates", &self.updates),
        ]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        ScatterNdDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Lowered {
        // Indices dimension a (less the tuple's) is a batch dimension of the updates (where
        // the updates hold it), or a leading placeholder.
        let indices_rank = self.indices.rank();
        let batch = self.indices_dimension_count as usize - 1;
        let meaningful = self.expected_update_sizes().len();
        let updates_rank = self.updates.rank();
        let positions = (0..indices_rank - 1)
            .map(|a| {
                let p = (a + batch + 1).checked_sub(indices_rank)?;
                right_aligned_dimension(p, meaningful, updates_rank)
            })
            .collect();
        scatter(
            &self.input,
            &self.output,
            &self.updates,
            self.index_map(),
            positions,
            true,
            (self.reduction, self.duplicates),
            device,
        )
    }
}

/// An in-order reduction sorted by target (`shaders/scatter.wgsl`, in-order-reduce section):
/// the (target, position) pairs of the updates, or the (block, position) pairs of slices,
/// sorted stably by a least-significant-digit radix sort, then folded run by run, at most
/// `FOLD_STEPS` steps an invocation a dispatch, longer runs over several passes.
struct SortPlan {
    /// Pairs sorted: updates, or slices.
    count: u32,
    /// Keys: output units (targets), or blocks of `slice_units`.
    units: u32,
    /// Units of a slice; 1 element by element.
    slice_units: u32,
    /// Bits a digit (log2 of the workgroup size), and the passes that cover every key.
    radix_bits: u32,
    passes: u32,
    /// Workgroups of a radix pass, each a tile of `rounds` * workgroup pairs.
    tiles: u32,
    rounds: u32,
    /// Blocks of the histogram's scan.
    scan_blocks: u32,
    /// Entries of each list of runs that go on to a later fold pass: at most this many runs
    /// are longer than LONG_RUN updates (or FOLD_STEPS slices).
    fold_capacity: u32,
    /// Fold passes that take listed runs: `fold_long_runs` passes 0.., or `fold_slice_runs`
    /// passes 1.. (after `fold_slices`' pass 0).
    fold_passes: u32,
    spans: FoldSpans,
}

impl SortPlan {
    /// The plan, or why the device cannot take it: a workgroup of a power of two of at least
    /// 32 threads (a digit a thread, 32-bit masks), and word indices into the scratch within
    /// u32 (at most 2^28 pairs). Scratch past one binding is bound as windows, every one at
    /// once (the kernels need every window: never a slab).
    fn new(
        count: u64,
        units: u64,
        slice_units: u64,
        element_bytes: u32,
        device: &DeviceFacts,
    ) -> Result<SortPlan> {
        let workgroup = device.workgroup_size;
        if !workgroup.is_power_of_two() || workgroup < 32 {
            return Err(Error::LimitExceeded {
                what: "an in-order scatter reduction (a workgroup of a power of two of at least \
                       32 threads)",
                needed: 32,
                limit_name: "max_compute_invocations_per_workgroup",
                limit: workgroup as u64,
            });
        }
        // Four words of links a pair, addressed by u32 word indices.
        let links_limit = Error::LimitExceeded {
            what: "an in-order scatter reduction's sort (16 bytes an update, or a slice)",
            needed: count.saturating_mul(16),
            limit_name: "sort scratch (u32 word indices)",
            limit: 1 << 32,
        };
        let count = u32::try_from(count)
            .ok()
            .filter(|&n| n <= 1 << 28)
            .ok_or(links_limit)?;
        let units =
            u32::try_from(units)
                .ok()
                .filter(|&u| u <= 1 << 30)
                .ok_or(Error::LimitExceeded {
                    what: "an in-order scatter reduction's runs (8 bytes an output unit)",
                    needed: units.saturating_mul(8),
                    limit_name: "sort scratch (u32 word indices)",
                    limit: 1 << 33,
                })?;
        let radix_bits = workgroup.ilog2();
        // Enough bits for every key and for NO_KEY's (all ones) to sort after them; slices
        // out of range join the last block's run, marked: bits for the blocks alone.
        let key_bits = if slice_units > 1 {
            32 - units.saturating_sub(1).leading_zeros()
        } else {
            32 - units.leading_zeros()
        };
        let rounds = (count / (workgroup * RADIX_TILES)).clamp(1, RADIX_ROUNDS);
        let tiles = count.div_ceil(workgroup * rounds);
        let spans = FoldSpans::new(workgroup, element_bytes);
        let (fold_capacity, fold_passes) = if slice_units > 1 {
            (
                count / (FOLD_STEPS + 1),
                count.saturating_sub(FOLD_STEPS).div_ceil(spans.slice_span),
            )
        } else {
            let capacity = count / (LONG_RUN + 1);
            let passes = if capacity > 0 {
                count.div_ceil(spans.long_span)
            } else {
                0
            };
            (capacity, passes)
        };
        let plan = SortPlan {
            count,
            units,
            slice_units: slice_units as u32,
            radix_bits,
            passes: key_bits.div_ceil(radix_bits),
            tiles,
            rounds,
            scan_blocks: (workgroup * tiles).div_ceil(workgroup * SCAN_ITEMS),
            fold_capacity,
            fold_passes,
            spans,
        };
        Ok(plan)
    }

    /// Each key's run start and end, and each fold pass's list count (passes 0 to the last
    /// plus one, which a pass writes only where a run goes on past it).
    fn heads_bytes(&self) -> u64 {
        (2 * self.units as u64 + self.fold_passes as u64 + 2) * 4
    }

    /// Keys and positions twice, the histogram, its blocks' sums, the two lists of runs.
    fn links_bytes(&self) -> u64 {
        let histogram = self.tiles as u64 * (1 << self.radix_bits);
        (4 * self.count as u64
            + histogram
            + self.scan_blocks as u64
            + 2 * self.fold_capacity as u64)
            * 4
    }

    /// The steps; `output_units` threads fold slices (the blocks' units, gaps included).
    fn push_steps(
        &self,
        steps: &mut Vec<Step>,
        kernel: Kernel,
        map: &IndexMap,
        output_units: u64,
        device: &DeviceFacts,
    ) {
        let workgroup = device.workgroup_size as u64;
        let mut params = map.params(1);
        params.sort_count = self.count;
        params.sort_units = self.units;
        params.radix_tiles = self.tiles;
        params.radix_rounds = self.rounds;
        params.fold_capacity = self.fold_capacity;
        if self.slice_units > 1 {
            slice_params(&mut params, map, self.slice_units, self.count);
        }
        let mut step = |entry, shift: u32, pass: u32, threads: u64| {
            let mut params = params;
            params.radix_shift = shift;
            params.fold_pass = pass;
            if entry == Entry::FoldSlices {
                params.count = u32::try_from(output_units).unwrap_or(u32::MAX);
            }
            steps.push(Step::Dispatch {
                kernel,
                entry,
                params: Parameters::Index(params),
                grid: Grid::Flat(threads),
                placement: Placement::Always,
            });
        };
        let by_slices = self.slice_units > 1;
        if by_slices {
            step(Entry::SortSliceKeys, 0, 0, self.count as u64);
        } else {
            step(Entry::SortKeys, 0, 0, self.count as u64);
        }
        for pass in 0..self.passes {
            let shift = pass * self.radix_bits;
            step(Entry::RadixCount, shift, 0, self.tiles as u64 * workgroup);
            step(
                Entry::RadixScanBlocks,
                shift,
                0,
                self.scan_blocks as u64 * workgroup,
            );
            step(Entry::RadixScanSums, shift, 0, workgroup);
            step(Entry::RadixScatter, shift, 0, self.tiles as u64 * workgroup);
        }
        let sorted = self.passes * self.radix_bits;
        step(Entry::FindRuns, sorted, 0, self.count as u64);
        // Each fold pass has a workgroup for every run that can still go on: a run listed
        // for pass p is longer than what the passes before it folded.
        let count = self.count as u64;
        if by_slices {
            step(Entry::FoldSlices, sorted, 0, output_units);
            for pass in 1..=self.fold_passes {
                let groups = slice_pass_groups(self.count, self.fold_capacity, self.spans, pass);
                step(
                    Entry::FoldSliceRuns,
                    sorted,
                    pass,
                    groups * params.fold_tiles as u64 * workgroup,
                );
            }
        } else {
            step(Entry::FoldRuns, sorted, 0, self.units as u64);
            for pass in 0..self.fold_passes {
                let runs = match pass {
                    0 => self.fold_capacity as u64,
                    _ => (count / (pass as u64 * self.spans.long_span as u64 + 1))
                        .min(self.fold_capacity as u64),
                };
                step(Entry::FoldLongRuns, sorted, pass, runs * workgroup);
            }
        }
    }
}

/// The parameters of a reduction by slices of `slice_units` units (`slices` of them), for
/// the sorted runs and the lists alike.
fn slice_params(params: &mut IndexParams, map: &IndexMap, slice_units: u32, slices: u32) {
    params.tile = 0;
    params.slice_units = slice_units;
    params.slices = slices;
    params.slice_rank = map.slice_rank() as u32;
    params.fold_tiles = slice_units.div_ceil(SLICE_TILE);
}

/// Blocks a pass `pass` >= 1 of the slices' folds may find listed (each has a workgroup per
/// tile of columns): a block listed for pass p has more slices than the passes before it
/// folded (FOLD_STEPS, then `slice_span` a pass), and at most `capacity` are listed.
fn slice_pass_groups(slices: u32, capacity: u32, spans: FoldSpans, pass: u32) -> u64 {
    let folded = FOLD_STEPS as u64 + (pass as u64 - 1) * spans.slice_span as u64;
    (slices as u64 / (folded + 1)).min(capacity as u64)
}

/// A reduction by slices in any order (`link_slices`, `fold_slice_lists`,
/// `fold_slice_list_runs`): each block's slices linked into a list (one exchange a slice),
/// each unit's column folded along it, at most `FOLD_STEPS` slices an invocation a dispatch,
/// longer lists over several passes.
struct ListPlan {
    slices: u32,
    /// Blocks of `slice_units` output units: the lists.
    blocks: u32,
    slice_units: u32,
    /// Entries of each list of blocks that go on (at most this many lists are longer than
    /// FOLD_STEPS), and the passes after the first.
    fold_capacity: u32,
    fold_passes: u32,
    spans: FoldSpans,
}

impl ListPlan {
    fn new(
        slices: u64,
        blocks: u64,
        slice_units: u64,
        element_bytes: u32,
        device: &DeviceFacts,
    ) -> Result<ListPlan> {
        let workgroup = device.workgroup_size;
        if workgroup < SLICE_TILE {
            return Err(Error::LimitExceeded {
                what: "a scatter reduction by rows (a workgroup of at least 8 threads)",
                needed: SLICE_TILE as u64,
                limit_name: "max_compute_invocations_per_workgroup",
                limit: workgroup as u64,
            });
        }
        // A word of links a slice and two of each list entry, addressed by u32 word indices.
        let limit = |what, needed: u64| Error::LimitExceeded {
            what,
            needed,
            limit_name: "sort scratch (u32 word indices)",
            limit: 1 << 32,
        };
        let slices = u32::try_from(slices)
            .ok()
            .filter(|&n| n <= 1 << 30)
            .ok_or(limit(
                "a scatter reduction by rows' links (4 bytes a row of updates)",
                slices.saturating_mul(4),
            ))?;
        let blocks = u32::try_from(blocks)
            .ok()
            .filter(|&n| n <= 1 << 30)
            .ok_or(limit(
                "a scatter reduction by rows' lists (4 bytes an output row)",
                blocks.saturating_mul(4),
            ))?;
        let spans = FoldSpans::new(workgroup, element_bytes);
        Ok(ListPlan {
            slices,
            blocks,
            slice_units: slice_units as u32,
            fold_capacity: slices / (FOLD_STEPS + 1),
            fold_passes: slices.saturating_sub(FOLD_STEPS).div_ceil(spans.slice_span),
            spans,
        })
    }

    /// Each block's list head, and each pass's list count (passes 1 to the last plus one).
    fn heads_bytes(&self) -> u64 {
        (self.blocks as u64 + self.fold_passes as u64 + 2) * 4
    }

    /// A link a slice, and the two lists of (block, node) pairs.
    fn links_bytes(&self) -> u64 {
        (self.slices as u64 + 4 * self.fold_capacity as u64) * 4
    }

    /// The steps; `output_units` threads fold (the blocks' units, gaps included).
    fn push_steps(
        &self,
        steps: &mut Vec<Step>,
        kernel: Kernel,
        map: &IndexMap,
        output_units: u64,
        device: &DeviceFacts,
    ) {
        let workgroup = device.workgroup_size as u64;
        let mut params = map.params(1);
        slice_params(&mut params, map, self.slice_units, self.slices);
        params.sort_units = self.blocks;
        params.fold_capacity = self.fold_capacity;
        let mut step = |entry, pass: u32, threads: u64| {
            let mut params = params;
            params.fold_pass = pass;
            if entry == Entry::FoldSliceLists {
                params.count = u32::try_from(output_units).unwrap_or(u32::MAX);
            }
            steps.push(Step::Dispatch {
                kernel,
                entry,
                params: Parameters::Index(params),
                grid: Grid::Flat(threads),
                placement: Placement::Always,
            });
        };
        step(Entry::LinkSlices, 0, self.slices as u64);
        step(Entry::FoldSliceLists, 0, output_units);
        for pass in 1..=self.fold_passes {
            let groups = slice_pass_groups(self.slices, self.fold_capacity, self.spans, pass);
            step(
                Entry::FoldSliceListRuns,
                pass,
                groups * params.fold_tiles as u64 * workgroup,
            );
        }
    }
}

/// Slices at least this wide are reduced by slices in any order too (see `scatter`).
const SLICES_IN_ANY_ORDER: u64 = 64;

/// The steps of a scatter: reset the status (and scratch), copy `input` to `output` unless in
/// place, scatter (or reduce), then describe the first out-of-range index if there was one.
#[allow(clippy::too_many_arguments)]
fn scatter(
    input: &TensorDesc,
    output: &TensorDesc,
    updates: &TensorDesc,
    original: IndexMap,
    positions: Vec<Option<usize>>,
    tuples: bool,
    (reduction, duplicates): (Reduction, DuplicateMode),
    device: &DeviceFacts,
) -> Lowered {
    let element_bytes = input.data_type.size_in_bytes();
    let reducing = reduction != Reduction::None;
    // Reductions combine elements as numbers: never widened to runs of several.
    let map = if reducing {
        original.merged()
    } else {
        optimised(&original, device)
    };
    let report = original.report(&map, &updates.sizes, positions, tuples);
    // Integer Add and Mul wrap around, and Min and Max of integers pick a value, not one of
    // several equal bit patterns: every order gives the in-order result's bits, so an
    // in-order integer reduction takes the any-order path.
    let order_free = reducing && !input.data_type.is_float();
    // Plain 8-byte stores are two words that another thread's may interleave with, and
    // there are no 64-bit atomics: 8-byte elements always go in order.
    let sequential = (duplicates == DuplicateMode::InOrder && !order_free) || element_bytes == 8;
    // Float Min and Max pick a number, the same in every order; only the bits of tied zeros
    // and NaNs depend on it, and two light passes around the any-order one settle those
    // (claim_ties, write_ties: update positions ranked below 2^31 - 1).
    let ties = reducing
        && sequential
        && element_bytes < 8
        && matches!(reduction, Reduction::Min | Reduction::Max)
        && map.invocations() < 0x7fff_ffff;
    // Slices of units sharing one index tuple (ScatterND's rows) can be reduced as slices:
    // in order always (but where the tie passes do it), sorted by the block they land on;
    // in any order too where they are wide, linked into a list a block (4 bytes a slice),
    // which beats a compare-exchange an update (every window bound: not in slab mode; in
    // order only where the device can sort, else the tie passes serve).
    // (Only where each slice lands on its own aligned block: then no two units of a slice
    // share a target, and one key a block is enough.)
    let slice_units = map.slice_units();
    // In the updates' order (else any order: lists, no sort).
    let ordered = duplicates == DuplicateMode::InOrder && !order_free;
    let sortable = device.workgroup_size.is_power_of_two() && device.workgroup_size >= 32;
    let by_slices = reducing
        && slice_units >= 2
        && map.slices_fill_blocks()
        && ((sequential && !ties)
            || (!device.per_element
                && slice_units >= SLICES_IN_ANY_ORDER
                && (sortable || !ordered)));
    let order = if by_slices || (sequential && !ties) {
        ReduceOrder::InOrder
    } else if ties {
        ReduceOrder::FirstTie
    } else {
        ReduceOrder::Any
    };
    let in_order = order == ReduceOrder::InOrder;
    let kernel = if reducing {
        Kernel::ScatterReduce {
            data_type: input.data_type,
            reduction,
            order,
        }
    } else {
        Kernel::Scatter {
            unit: map.unit(),
            in_order,
            copy_rows: false,
        }
    };
    // The output's units (its bytes, gaps of strided layouts included): the keys of an
    // in-order reduction, or its blocks' units by slices.
    let output_units = output.size_in_bytes().div_ceil(map.element_bytes as u64);
    let slice_units = if by_slices { slice_units } else { 1 };
    // Rows in any order (the default mode, or order-free types) need no sort: lists.
    let lists = (reducing && by_slices && !ordered).then(|| {
        ListPlan::new(
            map.invocations() / slice_units,
            output_units.div_ceil(slice_units),
            slice_units,
            element_bytes,
            device,
        )
    });
    let sort = (reducing && in_order && lists.is_none()).then(|| {
        SortPlan::new(
            map.invocations() / slice_units,
            output_units.div_ceil(slice_units),
            slice_units,
            element_bytes,
            device,
        )
    });
    let mut steps = vec![Step::Clear(Role::Status)];
    let mut scratch_bytes = 0;
    let mut links_bytes = 0;
    let mut refusal = None;
    if !reducing && in_order {
        steps.push(Step::Clear(Role::Winners));
        scratch_bytes = output_units * 4;
    }
    if ties && !in_order {
        steps.push(Step::Clear(Role::Heads));
        scratch_bytes = output_units * 4;
    }
    match (&sort, &lists) {
        (Some(Ok(sort)), _) => {
            steps.push(Step::Clear(Role::Heads));
            scratch_bytes = sort.heads_bytes();
            links_bytes = sort.links_bytes();
        }
        (_, Some(Ok(lists))) => {
            steps.push(Step::Clear(Role::Heads));
            scratch_bytes = lists.heads_bytes();
            links_bytes = lists.links_bytes();
        }
        (Some(Err(error)), _) | (_, Some(Err(error))) => refusal = Some(error.clone()),
        _ => {}
    }
    let copy = StridedCopy {
        element_bytes,
        sizes: input.sizes.clone(),
        input_strides: input.signed_strides(),
        input_base: 0,
        output_strides: output.signed_strides(),
        output_base: 0,
    };
    // Out of place, ScatterElements along an inner axis may copy each output row as it
    // scatters into it (see `scatter_copy_rows`); otherwise the copy is a step of its own.
    let copy_rows = (!reducing && !in_order)
        .then(|| map.copy_rows(input, output, device))
        .flatten();
    if copy_rows.is_none() {
        for mut step in copy.steps(device) {
            if let Step::Dispatch { placement, .. } = &mut step {
                *placement = Placement::OutOfPlace;
            }
            steps.push(step);
        }
    }
    let single = |entry| Grouping {
        entry,
        units_per_thread: 1,
        group_units: 1,
    };
    match (reducing, in_order) {
        (true, true) => {
            if let Some(Ok(sort)) = &sort {
                sort.push_steps(&mut steps, kernel, &map, output_units, device);
            }
            if let Some(Ok(lists)) = &lists {
                lists.push_steps(&mut steps, kernel, &map, output_units, device);
            }
        }
        (true, false) => {
            if ties {
                steps.push(map.dispatch(kernel, single(Entry::ClaimTies)));
            }
            // REDUCE_GROUP updates a thread.
            let mut step = map.dispatch(kernel, single(Entry::ScatterReduce));
            if let Step::Dispatch { grid, .. } = &mut step {
                *grid = Grid::Flat(map.invocations().div_ceil(REDUCE_GROUP as u64));
            }
            steps.push(step);
            if ties {
                steps.push(map.dispatch(kernel, single(Entry::WriteTies)));
            }
        }
        (false, true) => {
            steps.push(map.dispatch(kernel, single(Entry::ClaimTargets)));
            steps.push(map.dispatch(kernel, single(Entry::WriteWinners)));
        }
        (false, false) => {
            let words_fit = map.element_bytes < 4 && map.rows_fill_words();
            let entries = EntriesByRowShape {
                words: Entry::ScatterWords,
                rows: Entry::ScatterRows,
                blocks: Entry::ScatterBlocks,
                single: Entry::Scatter,
            };
            // Rows that do not fill words, landing on contiguous output rows: whole words
            // where neighbouring threads' elements meet (scatter_spans).
            let inner = map.sizes.len() - 1;
            let spans = (!words_fit && map.indexed_strides[inner] == 1)
                .then(|| map.spans(Entry::ScatterSpans, device))
                .flatten();
            let grouping = spans.unwrap_or_else(|| map.grouping(entries, words_fit, device));
            let mut scatter = map.dispatch(kernel, grouping);
            if let Some((rows, length)) = copy_rows {
                // A workgroup a row out of place; in place the plain scatter.
                let mut params = map.params(1);
                params.tile = 0;
                params.copy_rows = rows;
                params.copy_length = length;
                params.copy_row_units = (map.invocations() / map.sizes[0] as u64) as u32;
                params.copy_threads = device.row_threads;
                steps.push(Step::Dispatch {
                    kernel: Kernel::Scatter {
                        unit: map.unit(),
                        in_order: false,
                        copy_rows: true,
                    },
                    entry: Entry::ScatterCopyRows,
                    params: Parameters::Index(params),
                    // `rows` workgroups (of the kernel's own size).
                    grid: Grid::Flat(rows as u64 * device.workgroup_size as u64),
                    placement: Placement::OutOfPlace,
                });
                if let Step::Dispatch { placement, .. } = &mut scatter {
                    *placement = Placement::InPlace;
                }
            }
            steps.push(scatter);
        }
    }
    steps.push(map.describe_step(kernel));
    Lowered {
        steps,
        scratch_bytes,
        links_bytes,
        index_report: Some(report),
        refusal,
        in_place: if input.effective_strides() == output.effective_strides()
            && input.size_in_bytes() == output.size_in_bytes()
        {
            InPlace::SameLayout
        } else {
            InPlace::LayoutsDiffer
        },
    }
}
