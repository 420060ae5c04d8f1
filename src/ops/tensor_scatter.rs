//! TensorScatter (ONNX opset 24): a key/value cache's update, in place on a cache of fixed
//! length. Lowered as a scatter whose indices are computed: each update's write position is
//! its batch entry's write index plus its own position along the sequence axis.

use super::Operator;
use super::index_map::{IndexMap, SequenceMap};
use super::scatter_copies::output_copy;
use super::scatter_lowering::{self, Scatter};
use super::validate::{check_same_kind, check_same_sizes};
use crate::error::{Error, Result};
use crate::kernels::Role;
use crate::lowering::{DeviceFacts, Lowered};
use crate::options::{DuplicateMode, OutOfRange, Reduction};
use crate::tensor::{DataType, TensorDesc};

/// The write indices' types: ONNX's Int64, and Int32.
pub const WRITE_INDEX_TYPES: &[DataType] = &[DataType::Int32, DataType::Int64];

/// Where a TensorScatter's updates land along the sequence axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TensorScatterMode {
    /// Update `s` of batch entry `b` goes to position `write_indices[b] + s`; every entry's
    /// run must fit: `0 <= write_indices[b] <= L - S` (`L` the cache's length along the axis,
    /// `S` the updates'). An entry outside that range is out of range as a whole (see
    /// [`TensorScatterDesc`]).
    #[default]
    Linear,
    /// Update `s` of entry `b` goes to position `(write_indices[b] + s) mod L`, the write index
    /// taken modulo `L` whatever its value (negative ones too, as a floor modulo): a ring
    /// buffer. Never out of range.
    Circular,
}

/// ONNX's `TensorScatter`: `output = input` (the past cache), then for every update
/// coordinate `c`, with `b = c[0]` and `s = c[axis]`,
/// `output[c with c[axis] = position(b, s)] = updates[c]`, where `position` is
/// `write_indices[b] + s` ([`TensorScatterMode::Linear`]) or that modulo the cache's length
/// ([`TensorScatterMode::Circular`]).
///
/// * `input` (the cache, `[batch, .., max_sequence_length, ..]`) and `output` have the same
///   sizes and data type; `updates` has the input's data type and rank, and the input's sizes
///   but along `axis`, where its size `S` is at most the input's `L`.
/// * `axis` lies in `[1, rank)` (dimension 0 is the batch).
/// * `write_indices`: Int32 or Int64, sizes `[batch]`, one write index per batch entry;
///   `None` means every write index is 0 (ONNX's prefill).
/// * Out of range (linear only): an entry whose `write_indices[b]` is outside `[0, L - S]`
///   writes nothing, and `run` (or `check_status`) reports the first such entry as
///   [`Error::WriteIndexOutOfRange`]; with [`OutOfRange::Clamp`] the write index is clamped
///   into `[0, L - S]` instead. No two updates ever land on one element.
/// * In place (`output` bound to the input's own range, same layout): only the updated rows
///   are written, which is how a decoder appends to its cache every step.
///
/// ```
/// use dml_wgsl::{Context, DataType, OperatorDesc, TensorDesc, TensorScatterDesc, TensorScatterMode};
///
/// let context = Context::new_blocking()?;
/// // A cache of 2 entries, 3 positions of 2 values; one new position per entry, written at
/// // each entry's own length (circular: entry 1 wraps to position 0).
/// let desc: OperatorDesc = TensorScatterDesc::new(
///     TensorDesc::new(DataType::Float32, &[2, 3, 2]),  // input: the past cache
///     TensorDesc::new(DataType::Float32, &[2, 1, 2]),  // updates
///     Some(TensorDesc::new(DataType::Int64, &[2])),    // write_indices
///     TensorDesc::new(DataType::Float32, &[2, 3, 2]),  // output: the present cache
///     1,                                               // axis
/// )
/// .with_mode(TensorScatterMode::Circular)
/// .into();
/// let cache = [0f32; 12];
/// let updates = [1f32, 2., 3., 4.];
/// let write_indices = [1i64, 3];
/// let output: Vec<f32> = context.run_typed_blocking(
///     &desc,
///     &[(&cache).into(), (&updates).into(), (&write_indices).into()],
/// )?;
/// assert_eq!(output, [0., 0., 1., 2., 0., 0., 3., 4., 0., 0., 0., 0.]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct TensorScatterDesc {
    pub input: TensorDesc,
    pub updates: TensorDesc,
    pub write_indices: Option<TensorDesc>,
    pub output: TensorDesc,
    /// The sequence axis.
    pub axis: u32,
    pub mode: TensorScatterMode,
    /// Beyond ONNX: what a linear write index out of range does.
    pub out_of_range: OutOfRange,
}

impl TensorScatterDesc {
    /// A TensorScatter with ONNX's inputs in its order, then the output and the axis; linear,
    /// out-of-range write indices reported.
    pub fn new(
        input: TensorDesc,
        updates: TensorDesc,
        write_indices: Option<TensorDesc>,
        output: TensorDesc,
        axis: u32,
    ) -> TensorScatterDesc {
        TensorScatterDesc {
            input,
            updates,
            write_indices,
            output,
            axis,
            mode: TensorScatterMode::default(),
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same TensorScatter in `mode`.
    pub fn with_mode(mut self, mode: TensorScatterMode) -> TensorScatterDesc {
        self.mode = mode;
        self
    }

    /// The same TensorScatter with out-of-range write indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> TensorScatterDesc {
        self.out_of_range = out_of_range;
        self
    }

    /// Checks every rule (see [`TensorScatterDesc`]).
    pub fn validate(&self) -> Result<()> {
        self.input.validate("input", false)?;
        self.updates.validate("updates", false)?;
        if let Some(write_indices) = &self.write_indices {
            write_indices.validate("write_indices", false)?;
        }
        self.output.validate("output", true)?;
        let rank = self.input.rank();
        if self.axis as usize >= rank {
            return Err(Error::AxisOutOfRange {
                axis: self.axis,
                rank,
            });
        }
        if self.axis == 0 {
            return Err(Error::InvalidParameter {
                field: "axis",
                dimension: 0,
                value: 0,
                rule: "TensorScatter's sequence axis lies in [1, rank): dimension 0 is the batch",
            });
        }
        check_same_kind("updates", &self.updates, "input", &self.input)?;
        check_same_kind("output", &self.output, "input", &self.input)?;
        check_same_sizes(
            "output",
            &self.output,
            &self.input.sizes,
            "the input's sizes",
        )?;
        let axis = self.axis as usize;
        let mut expected = self.input.sizes.clone();
        expected[axis] = self.updates.sizes[axis];
        check_same_sizes(
            "updates",
            &self.updates,
            &expected,
            "the input's sizes but along the sequence axis",
        )?;
        if self.updates.sizes[axis] > self.input.sizes[axis] {
            return Err(Error::SizeTooLarge {
                tensor: "updates",
                dimension: axis,
                actual: self.updates.sizes[axis],
                limit: self.input.sizes[axis],
                rule: "the updates' sequence length is at most the cache's",
            });
        }
        if let Some(write_indices) = &self.write_indices {
            if !WRITE_INDEX_TYPES.contains(&write_indices.data_type) {
                return Err(Error::UnsupportedDataType {
                    tensor: "write_indices",
                    actual: write_indices.data_type,
                    allowed: WRITE_INDEX_TYPES,
                });
            }
            check_same_sizes(
                "write_indices",
                write_indices,
                &self.input.sizes[..1],
                "one write index per batch entry (the input's first size)",
            )?;
        }
        Ok(())
    }

    /// The scatter along `axis` whose index at update coordinate `c` is entry `c[0]`'s write
    /// index plus `c[axis]`: the walk's tuple position is `c[0] * S + c[axis]`.
    fn index_map(&self) -> IndexMap {
        let axis = self.axis as usize;
        let length = self.updates.sizes[axis];
        let output_strides = self.output.signed_strides();
        let mut indexed_strides = output_strides.clone();
        indexed_strides[axis] = 0;
        let mut indices_strides = vec![0i64; self.updates.rank()];
        indices_strides[0] = length as i64;
        indices_strides[axis] = 1;
        let (index_type, write_stride) = match &self.write_indices {
            Some(w) => (w.data_type, w.effective_strides()[0] as u32),
            // The operator's own zeros (see `Lowered::zero_indices_bytes`).
            None => (DataType::Int32, 1),
        };
        IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.updates.sizes.clone(),
            dense_strides: self.updates.signed_strides(),
            indexed_strides,
            indices_strides,
            tuple_stride: 0,
            index_bounds: vec![self.input.sizes[axis]],
            index_strides: vec![output_strides[axis]],
            index_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
            sequence: Some(SequenceMap {
                length,
                write_stride,
                circular: self.mode == TensorScatterMode::Circular,
            }),
        }
    }
}

impl Operator for TensorScatterDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        let mut inputs = vec![("input", &self.input), ("updates", &self.updates)];
        if let Some(write_indices) = &self.write_indices {
            inputs.push(("write_indices", write_indices));
        }
        inputs
    }

    fn input_roles(&self) -> &'static [Role] {
        &[Role::Input, Role::Updates, Role::Indices]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        TensorScatterDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        let scatter = Scatter {
            input: &self.input,
            output: &self.output,
            updates: &self.updates,
            map: self.index_map(),
            positions: vec![Some(0)],
            tuples: false,
            reduction: Reduction::None,
            // Positions never repeat: any order gives the same bytes.
            duplicates: DuplicateMode::AnyUpdate,
            distinct_targets: true,
        };
        let mut lowered = scatter_lowering::lower(&scatter, device)?;
        // A scatter with no updates reads no index.
        if self.write_indices.is_none() && lowered.index_report.is_some() {
            lowered.zero_indices_bytes = 4 * self.input.sizes[0] as u64;
        }
        Ok(lowered)
    }

    fn copies_contiguous_run(&self) -> bool {
        output_copy(&self.input, &self.output).is_contiguous()
    }
}
