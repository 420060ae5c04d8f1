//! Gather (`DML_GATHER_OPERATOR_DESC`), GatherElements (`DML_GATHER_ELEMENTS_OPERATOR_DESC`)
//! and GatherND (`DML_GATHER_ND1_OPERATOR_DESC`; no batch dimensions is `DML_GATHER_ND`).

use super::Operator;
use super::index_map::{EntriesByRowShape, IndexMap, optimised};
use super::validate::{
    check_clamp_target, check_dimension_counts, check_elements_axis, check_index_type,
    check_placeholders, check_right_aligned_sizes, check_same_kind, check_same_sizes,
    check_tuple_not_empty, right_aligned_dimension, tuple_size,
};
use crate::error::{Error, Result};
use crate::kernels::{Entry, Kernel};
use crate::lowering::{DeviceFacts, InPlace, Lowered, Placement};
use crate::options::OutOfRange;
use crate::tensor::TensorDesc;

/// `DML_GATHER_OPERATOR_DESC`: `output[a.., j.., b..] = input[a.., indices[j..], b..]`, where
/// `a` runs over the input's dimensions before `axis`, `j` over the indices' last
/// `index_dimensions` dimensions and `b` over the input's dimensions after `axis`.
///
/// * `indices` is Int32, UInt32, Int64 or UInt64; its dimensions before the last
///   `index_dimensions` are placeholders of size 1. `index_dimensions` may be 0 (one index).
/// * `output` has the input's data type; its sizes are `input.sizes[..axis]`, the indices'
///   last `index_dimensions` sizes, `input.sizes[axis + 1..]`, right-aligned to the output's
///   rank: leading 1s are cropped where they would overflow it, and added where short.
/// * An index must lie in `[-n, n)` (signed) or `[0, n)` (unsigned), `n = input.sizes[axis]`.
///   An out-of-range index never reads outside the input: its output elements are written as
///   zero and `run` reports [`Error::IndexOutOfRange`].
/// * Sizes of 0: an empty output (no indices, or an empty input dimension besides the axis)
///   records nothing, and no index is read. From an empty axis (`n = 0`) every index is out
///   of range: reported as above, the output all zeros; with [`OutOfRange::Clamp`] there is
///   nothing to clamp to, and `validate` refuses it ([`Error::ZeroSize`]) unless the output is
///   empty.
///
/// ```
/// use dml_wgsl::{Context, DataType, GatherDesc, OperatorDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // Columns 2 and 0 (as -1 and 0: negative indices count from the end) of a 2x3 matrix.
/// let desc: OperatorDesc = GatherDesc::new(
///     TensorDesc::new(DataType::Float32, &[2, 3]), // input
///     TensorDesc::new(DataType::Int32, &[1, 2]),   // indices
///     TensorDesc::new(DataType::Float32, &[2, 2]), // output
///     1,                                           // axis
///     1,                                           // index_dimensions
/// )
/// .into();
/// let input = [1f32, 2., 3., 4., 5., 6.];
/// let columns = [-1i32, 0];
/// let output: Vec<f32> = context.run_typed_blocking(&desc, &[(&input).into(), (&columns).into()])?;
/// assert_eq!(output, [3., 1., 6., 4.]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct GatherDesc {
    pub input: TensorDesc,
    pub indices: TensorDesc,
    pub output: TensorDesc,
    pub axis: u32,
    pub index_dimensions: u32,
    /// Beyond DirectML: what an out-of-range index does.
    pub out_of_range: OutOfRange,
}

impl GatherDesc {
    /// A gather with DirectML's members, in `DML_GATHER_OPERATOR_DESC`'s order.
    pub fn new(
        input: TensorDesc,
        indices: TensorDesc,
        output: TensorDesc,
        axis: u32,
        index_dimensions: u32,
    ) -> GatherDesc {
        GatherDesc {
            input,
            indices,
            output,
            axis,
            index_dimensions,
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same gather with out-of-range indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> GatherDesc {
        self.out_of_range = out_of_range;
        self
    }
}

/// `DML_GATHER_ELEMENTS_OPERATOR_DESC`: along `axis`,
/// `output[c] = input[c with c[axis] = indices[c]]` for every coordinate `c` of `indices`.
///
/// * `input`, `indices` and `output` share one rank; `output` has the indices' sizes and the
///   input's data type; outside `axis` the indices' sizes are at most the input's (DirectML
///   asks for equality; smaller is accepted, as PyTorch and ONNX do).
/// * Index types, ranges, out-of-range behaviour and sizes of 0 as for [`GatherDesc`]
///   (empty indices give an empty output).
///
/// ```
/// use dml_wgsl::{Context, DataType, GatherElementsDesc, OperatorDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // DirectML's example: along axis 0, each output element picks its column's row.
/// let desc: OperatorDesc = GatherElementsDesc::new(
///     TensorDesc::new(DataType::Float16, &[3, 3]), // input
///     TensorDesc::new(DataType::UInt32, &[2, 3]),  // indices
///     TensorDesc::new(DataType::Float16, &[2, 3]), // output
///     0,                                           // axis
/// )
/// .into();
/// let input: Vec<half::f16> = (1..=9).map(|v| half::f16::from_f32(v as f32)).collect();
/// let indices = [1u32, 2, 0, 2, 0, 0];
/// let output: Vec<half::f16> =
///     context.run_typed_blocking(&desc, &[(&input).into(), (&indices).into()])?;
/// let output: Vec<f32> = output.iter().map(|v| v.to_f32()).collect();
/// assert_eq!(output, [4., 8., 3., 7., 2., 3.]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct GatherElementsDesc {
    pub input: TensorDesc,
    pub indices: TensorDesc,
    pub output: TensorDesc,
    pub axis: u32,
    /// Beyond DirectML: what an out-of-range index does.
    pub out_of_range: OutOfRange,
}

impl GatherElementsDesc {
    /// A gather with DirectML's members, in `DML_GATHER_ELEMENTS_OPERATOR_DESC`'s order.
    pub fn new(
        input: TensorDesc,
        indices: TensorDesc,
        output: TensorDesc,
        axis: u32,
    ) -> GatherElementsDesc {
        GatherElementsDesc {
            input,
            indices,
            output,
            axis,
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same gather with out-of-range indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> GatherElementsDesc {
        self.out_of_range = out_of_range;
        self
    }
}

/// `DML_GATHER_ND1_OPERATOR_DESC`: `output[batch, b.., t..] = input[batch, indices[batch, b.., :], t..]`.
///
/// * Only the last `input_dimension_count` dimensions of `input` and the last
///   `indices_dimension_count` of `indices` are meaningful; the leading ones must be 1.
/// * The first `batch_dimension_count` meaningful dimensions are batches, equal in both, and
///   fewer than either dimension count.
/// * The indices' last size `q` is the tuple size, `1 <= q <= input_dimension_count - batch`;
///   each tuple addresses the `q` meaningful input dimensions after the batches.
/// * `output` has the input's data type; its sizes are the indices' meaningful sizes less the
///   last, then the input's meaningful sizes after batches and tuple, right-aligned with
///   leading 1s. (DirectML's page writes the trailing part as the input's last `q` sizes; its
///   own ScatterND example settles it as here, as ONNX defines GatherND.)
/// * Index types, ranges, out-of-range behaviour and sizes of 0 as for [`GatherDesc`], per
///   component (an empty input dimension that a tuple addresses makes every tuple out of
///   range). The tuple size `q` itself is at least 1 ([`Error::ZeroSize`]); no tuples at all
///   (an empty leading dimension) give an empty output.
///
/// ```
/// use dml_wgsl::{Context, DataType, GatherNdDesc, OperatorDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // Elements [1, 0] and [0, 2] of a 2x3 matrix (2-tuples address elements).
/// let desc: OperatorDesc = GatherNdDesc::new(
///     TensorDesc::new(DataType::Int16, &[2, 3]), // input
///     TensorDesc::new(DataType::Int64, &[2, 2]), // indices
///     TensorDesc::new(DataType::Int16, &[2]),    // output
///     2,                                         // input_dimension_count
///     2,                                         // indices_dimension_count
///     0,                                         // batch_dimension_count
/// )
/// .into();
/// let input = [10i16, 11, 12, 20, 21, 22];
/// let tuples = [1i64, 0, 0, 2];
/// let output: Vec<i16> = context.run_typed_blocking(&desc, &[(&input).into(), (&tuples).into()])?;
/// assert_eq!(output, [20, 12]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct GatherNdDesc {
    pub input: TensorDesc,
    pub indices: TensorDesc,
    pub output: TensorDesc,
    pub input_dimension_count: u32,
    pub indices_dimension_count: u32,
    pub batch_dimension_count: u32,
    /// Beyond DirectML: what an out-of-range index does.
    pub out_of_range: OutOfRange,
}

impl GatherNdDesc {
    /// A gather with DirectML's members, in `DML_GATHER_ND1_OPERATOR_DESC`'s order.
    pub fn new(
        input: TensorDesc,
        indices: TensorDesc,
        output: TensorDesc,
        input_dimension_count: u32,
        indices_dimension_count: u32,
        batch_dimension_count: u32,
    ) -> GatherNdDesc {
        GatherNdDesc {
            input,
            indices,
            output,
            input_dimension_count,
            indices_dimension_count,
            batch_dimension_count,
            out_of_range: OutOfRange::default(),
        }
    }

    /// The same gather with out-of-range indices handled as `out_of_range` says.
    pub fn with_out_of_range(mut self, out_of_range: OutOfRange) -> GatherNdDesc {
        self.out_of_range = out_of_range;
        self
    }
}

/// Validates the tensors every gather shares: types and the index type.
fn check_tensors(input: &TensorDesc, indices: &TensorDesc, output: &TensorDesc) -> Result<()> {
    input.validate("input", false)?;
    indices.validate("indices", false)?;
    output.validate("output", true)?;
    check_index_type(indices)?;
    if output.data_type != input.data_type {
        return Err(Error::DataTypeMismatch {
            tensor: "output",
            actual: output.data_type,
            expected_from: "input",
            expected: input.data_type,
        });
    }
    Ok(())
}

impl GatherDesc {
    /// Checks every rule of `DML_GATHER`.
    pub fn validate(&self) -> Result<()> {
        check_tensors(&self.input, &self.indices, &self.output)?;
        let rank = self.input.rank();
        for (tensor, t) in [("indices", &self.indices), ("output", &self.output)] {
            if t.rank() != rank {
                return Err(Error::RankMismatch {
                    tensor,
                    actual: t.rank(),
                    expected_from: "input",
                    expected: rank,
                });
            }
        }
        if self.axis as usize >= rank {
            return Err(Error::AxisOutOfRange {
                axis: self.axis,
                rank,
            });
        }
        if self.index_dimensions as usize > self.indices.rank() {
            return Err(Error::DimensionCount {
                field: "index_dimensions",
                value: self.index_dimensions,
                max: self.indices.rank(),
                rule: "at most the indices' rank (0 gathers one index)",
            });
        }
        check_placeholders("indices", &self.indices, self.index_dimensions as usize)?;
        check_right_aligned_sizes(
            "output",
            &self.output,
            self.gathered_sizes(),
            "the gathered dimensions",
            "input sizes before the axis, the indices' sizes, input sizes after the axis",
        )?;
        let axis = self.axis as usize;
        check_clamp_target(
            self.out_of_range,
            !self.output.is_empty(),
            &self.input,
            axis..axis + 1,
        )
    }

    fn gathered_sizes(&self) -> Vec<u32> {
        let axis = self.axis as usize;
        let indices_rank = self.indices.rank();
        [
            &self.input.sizes[..axis],
            &self.indices.sizes[indices_rank - self.index_dimensions as usize..],
            &self.input.sizes[axis + 1..],
        ]
        .concat()
    }
}

impl Operator for GatherDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![("input", &self.input), ("indices", &self.indices)]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        GatherDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        let axis = self.axis as usize;
        let index_dimensions = self.index_dimensions as usize;
        let input_strides = self.input.signed_strides();
        let indices_strides = self.indices.signed_strides();
        let indices_rank = self.indices.rank();
        let output_rank = self.output.rank();
        let gathered = self.gathered_sizes().len();
        let mut indexed_strides = vec![0i64; output_rank];
        let mut tuple_strides = vec![0i64; output_rank];
        let mut positions = vec![None; indices_rank];
        // Gathered dimension p: input dimensions before the axis, the index dimensions, input
        // dimensions after the axis; output dimensions hold them right-aligned.
        for p in 0..gathered {
            let Some(o) = right_aligned_dimension(p, gathered, output_rank) else {
                continue;
            };
            if p < axis {
                indexed_strides[o] = input_strides[p];
            } else if p < axis + index_dimensions {
                let dimension = indices_rank - index_dimensions + (p - axis);
                tuple_strides[o] = indices_strides[dimension];
                positions[dimension] = Some(o);
            } else {
                indexed_strides[o] = input_strides[p - index_dimensions + 1];
            }
        }
        let map = IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.output.sizes.clone(),
            dense_strides: self.output.signed_strides(),
            indexed_strides,
            indices_strides: tuple_strides,
            tuple_stride: 0,
            index_bounds: vec![self.input.sizes[axis]],
            index_strides: vec![input_strides[axis]],
            index_type: self.indices.data_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
            sequence: None,
        };
        gather(map, &self.output.sizes, positions, false, device)
    }
}

impl GatherElementsDesc {
    /// Checks every rule of `DML_GATHER_ELEMENTS`.
    pub fn validate(&self) -> Result<()> {
        check_tensors(&self.input, &self.indices, &self.output)?;
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
            &self.indices.sizes,
            "the indices' sizes",
        )?;
        check_elements_axis(&self.input, &self.indices, self.axis)?;
        let axis = self.axis as usize;
        check_clamp_target(
            self.out_of_range,
            !self.output.is_empty(),
            &self.input,
            axis..axis + 1,
        )
    }
}

impl Operator for GatherElementsDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![("input", &self.input), ("indices", &self.indices)]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        GatherElementsDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        let axis = self.axis as usize;
        let input_strides = self.input.signed_strides();
        let mut indexed_strides = input_strides.clone();
        indexed_strides[axis] = 0;
        let map = IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.output.sizes.clone(),
            dense_strides: self.output.signed_strides(),
            indexed_strides,
            indices_strides: self.indices.signed_strides(),
            tuple_stride: 0,
            index_bounds: vec![self.input.sizes[axis]],
            index_strides: vec![input_strides[axis]],
            index_type: self.indices.data_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
            sequence: None,
        };
        let positions = (0..self.indices.rank()).map(Some).collect();
        gather(map, &self.output.sizes, positions, false, device)
    }
}

impl GatherNdDesc {
    /// Checks every rule of `DML_GATHER_ND1`.
    pub fn validate(&self) -> Result<()> {
        check_tensors(&self.input, &self.indices, &self.output)?;
        check_dimension_counts(
            &self.input,
            self.input_dimension_count,
            &self.indices,
            self.indices_dimension_count,
        )?;
        let (input_rank, indices_rank) = (self.input.rank(), self.indices.rank());
        let batch = self.batch_dimension_count;
        let most = self.input_dimension_count.min(self.indices_dimension_count) as usize;
        if batch as usize >= most {
            return Err(Error::InvalidParameter {
                field: "batch_dimension_count",
                dimension: 0,
                value: batch as i64,
                rule: "fewer than both input_dimension_count and indices_dimension_count",
            });
        }
        let input_first = input_rank - self.input_dimension_count as usize;
        let indices_first = indices_rank - self.indices_dimension_count as usize;
        for b in 0..batch as usize {
            let (want, got) = (
                self.input.sizes[input_first + b],
                self.indices.sizes[indices_first + b],
            );
            if want != got {
                return Err(Error::SizeMismatch {
                    tensor: "indices",
                    dimension: indices_first + b,
                    actual: got,
                    expected: want as u64,
                    rule: "batch dimensions are equal in the input and the indices",
                });
            }
        }
        check_tuple_not_empty(&self.indices)?;
        let tuple = tuple_size(&self.indices);
        if tuple > self.input_dimension_count - batch {
            return Err(Error::TupleSize {
                value: tuple,
                max: self.input_dimension_count - batch,
            });
        }
        check_right_aligned_sizes(
            "output",
            &self.output,
            self.gathered_sizes(),
            "the gathered dimensions",
            "the indices' meaningful sizes less the last, then the input's after batches and tuple",
        )?;
        let addressed = input_first + batch as usize;
        check_clamp_target(
            self.out_of_range,
            !self.output.is_empty(),
            &self.input,
            addressed..addressed + tuple as usize,
        )
    }

    fn gathered_sizes(&self) -> Vec<u32> {
        let indices_rank = self.indices.rank();
        let input_rank = self.input.rank();
        let leading = &self.indices.sizes
            [indices_rank - self.indices_dimension_count as usize..indices_rank - 1];
        let skipped = (self.batch_dimension_count + tuple_size(&self.indices)) as usize;
        let first = input_rank - self.input_dimension_count as usize;
        [leading, &self.input.sizes[first + skipped..]].concat()
    }
}

impl Operator for GatherNdDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![("input", &self.input), ("indices", &self.indices)]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        GatherNdDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        let input_strides = self.input.signed_strides();
        let indices_strides = self.indices.signed_strides();
        let (input_rank, indices_rank, output_rank) =
            (self.input.rank(), self.indices.rank(), self.output.rank());
        let batch = self.batch_dimension_count as usize;
        let tuple = tuple_size(&self.indices) as usize;
        let input_first = input_rank - self.input_dimension_count as usize;
        let indices_first = indices_rank - self.indices_dimension_count as usize;
        let leading = self.indices_dimension_count as usize - 1;
        let gathered = self.gathered_sizes().len();
        let mut indexed_strides = vec![0i64; output_rank];
        let mut tuple_strides = vec![0i64; output_rank];
        let mut positions = vec![None; indices_rank - 1];
        // Gathered dimension p: the indices' meaningful dimensions less the tuple (batches
        // first), then the input's after batches and tuple; output dimensions hold them
        // right-aligned, and those cropped off the front are 1s that no stride reaches.
        for p in 0..gathered {
            let Some(o) = right_aligned_dimension(p, gathered, output_rank) else {
                continue;
            };
            if p < leading {
                // A batch or index dimension of the indices (batches also step the input).
                let dimension = indices_first + p;
                tuple_strides[o] = indices_strides[dimension];
                positions[dimension] = Some(o);
                if p < batch {
                    indexed_strides[o] = input_strides[input_first + p];
                }
            } else {
                indexed_strides[o] = input_strides[input_first + batch + tuple + (p - leading)];
            }
        }
        let addressed = input_first + batch;
        let map = IndexMap {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.output.sizes.clone(),
            dense_strides: self.output.signed_strides(),
            indexed_strides,
            indices_strides: tuple_strides,
            tuple_stride: indices_strides[indices_rank - 1],
            index_bounds: self.input.sizes[addressed..addressed + tuple].to_vec(),
            index_strides: input_strides[addressed..addressed + tuple].to_vec(),
            index_type: self.indices.data_type,
            clamp: self.out_of_range == OutOfRange::Clamp,
            sequence: None,
        };
        gather(map, &self.output.sizes, positions, true, device)
    }
}

/// The steps of a gather: gather (out-of-range elements written as zero), then report the
/// first out-of-range index if there was one (and zero the status words for the next
/// execution). An empty output: none (no
/// index is read). An empty input with an output: every index is out of range, and the
/// kernel reads nothing of the input (`record` binds its own placeholder for it).
fn gather(
    original: IndexMap,
    output_sizes: &[u32],
    positions: Vec<Option<usize>>,
    tuples: bool,
    device: &DeviceFacts,
) -> Result<Lowered> {
    if output_sizes.contains(&0) {
        return Ok(Lowered::steps(Vec::new()));
    }
    let map = optimised(&original, device);
    let report = original.report(&map, output_sizes, positions, tuples);
    let kernel = Kernel::Gather(map.unit());
    let device = &device.for_kernels(&[kernel], 0, 0);
    let words_fit = map.element_bytes < 4 && map.dense_rows_fill_words();
    let entries = EntriesByRowShape {
        words: Entry::GatherWords,
        rows: Entry::GatherRows,
        blocks: Entry::GatherBlocks,
        single: Entry::Gather,
    };
    // A packed output whose rows do not fill words: still a whole output word a thread.
    let spans = (!words_fit && map.dense_packed())
        .then(|| map.spans(Entry::GatherSpans, device))
        .flatten();
    let grouping = spans.unwrap_or_else(|| map.grouping(entries, words_fit, device));
    // 1- and 2-byte elements row-major, not by column blocks: a block's strip of 128 units is
    // only 4 or 8 sectors wide. On an H200, without blocks (and with gather_words' loads
    // first, worth 2 to 4 % alone on an H100), the sweep's narrow gathers along axis 0 whose
    // rows fill words (16 MiB inputs) ran 9 to 14 % faster (Int8 diagonal 4096 x 4096:
    // 0.0776 -> 0.0692 ms). Scatters keep blocks: without, their diagonal compare-exchanges
    // ran 2 to 14 % slower.
    let gathered = if map.element_bytes < 4 {
        map.dispatch_row_major(kernel, grouping, Placement::Always)
    } else {
        map.dispatch(kernel, grouping, Placement::Always)
    };
    let steps = vec![gathered, map.describe_step(kernel)];
    Ok(Lowered {
        steps,
        scratch_bytes: 0,
        links_bytes: 0,
        index_report: Some(report),
        in_place: InPlace::Forbidden,
        zero_indices_bytes: 0,
    })
}
