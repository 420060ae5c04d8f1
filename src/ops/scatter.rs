//! ScatterElements (`DML_SCATTER_OPERATOR_DESC`) and ScatterND (`DML_SCATTER_ND_OPERATOR_DESC`).

use super::Operator;
use super::index_map::IndexMap;
use super::scatter_copies::output_copy;
use super::scatter_lowering::{self, Scatter};
use super::validate::{
    check_clamp_target, check_dimension_counts, check_elements_axis, check_index_type,
    check_right_aligned_sizes, check_same_kind, check_same_sizes, check_tuple_not_empty,
    right_aligned_dimension, tuple_size,
};
use crate::error::{Error, Result};
use crate::lowering::{DeviceFacts, Lowered};
use crate::options::OutOfRange;
pub use crate::options::{DuplicateMode, Reduction};
use crate::tensor::TensorDesc;

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
/// * Sizes of 0: with no updates (empty indices) the scatter is the copy `output = input`, and
///   in place nothing at all; an empty output records nothing. Updates into an empty axis
///   (`n = 0`) are all out of range: skipped and reported as above (the output is empty);
///   with [`OutOfRange::Clamp`] there is nothing to clamp to, and `validate` refuses it
///   ([`Error::ZeroSize`]).
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
/// * Index ranges, out-of-range updates, duplicates, in-place operation and sizes of 0 as for
///   [`ScatterElementsDesc`], per tuple component (no tuples, or empty rows, are no updates).
///   The tuple size `q` itself is at least 1 ([`Error::ZeroSize`]).
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
        check_elements_axis(&self.input, &self.indices, self.axis)?;
        let axis = self.axis as usize;
        check_clamp_target(
            self.out_of_range,
            !self.updates.is_empty(),
            &self.input,
            axis..axis + 1,
        )
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
            sequence: None,
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

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        let scatter = Scatter {
            input: &self.input,
            output: &self.output,
            updates: &self.updates,
            map: self.index_map(),
            positions: (0..self.indices.rank()).map(Some).collect(),
            tuples: false,
            reduction: self.reduction,
            duplicates: self.duplicates,
            distinct_targets: false,
        };
        scatter_lowering::lower(&scatter, device)
    }

    fn copies_contiguous_run(&self) -> bool {
        !self.output.is_empty() && output_copy(&self.input, &self.output).is_contiguous()
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
        check_tuple_not_empty(&self.indices)?;
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
        )?;
        let first = self.input.rank() - self.input_dimension_count as usize;
        check_clamp_target(
            self.out_of_range,
            !self.updates.is_empty(),
            &self.input,
            first..first + tuple as usize,
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
            sequence: None,
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

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
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
        let scatter = Scatter {
            input: &self.input,
            output: &self.output,
            updates: &self.updates,
            map: self.index_map(),
            positions,
            tuples: true,
            reduction: self.reduction,
            duplicates: self.duplicates,
            distinct_targets: false,
        };
        scatter_lowering::lower(&scatter, device)
    }

    fn copies_contiguous_run(&self) -> bool {
        !self.output.is_empty() && output_copy(&self.input, &self.output).is_contiguous()
    }
}
