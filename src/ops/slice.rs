//! Slice (`DML_SLICE_OPERATOR_DESC`) and Slice1 (`DML_SLICE1_OPERATOR_DESC`).

use super::Operator;
use super::strided_copy::StridedCopy;
use super::validate::{check_length, check_same_kind};
use crate::error::{Error, Result};
use crate::lowering::{DeviceFacts, Lowered, Placement};
use crate::tensor::TensorDesc;

/// `DML_SLICE_OPERATOR_DESC`: `output[c] = input[offsets + strides * c]` for every output
/// coordinate `c`.
///
/// * `offsets`, `sizes`, `strides` have one value per dimension (the tensors' rank).
/// * `sizes` must equal the output's sizes; every `strides` value is at least 1.
/// * Every element read lies inside the input: `offsets + strides * (sizes - 1) < input.sizes`
///   wherever `sizes` is at least 1 (a dimension of size 0 reads nothing, at any offset).
/// * Input and output share data type and rank; any of the 11 data types.
/// * An empty output (a size of 0) is legal, and the slice then records nothing.
///
/// ```
/// use dml_wgsl::{Context, DataType, OperatorDesc, SliceDesc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // Every other column of rows 1 and 2 of a 3x4 matrix.
/// let desc: OperatorDesc = SliceDesc::new(
///     TensorDesc::new(DataType::Int32, &[3, 4]), // input
///     TensorDesc::new(DataType::Int32, &[2, 2]), // output
///     &[1, 0],                                   // offsets
///     &[2, 2],                                   // sizes
///     &[1, 2],                                   // strides
/// )
/// .into();
/// let input: Vec<i32> = (0..12).collect();
/// let output: Vec<i32> = context.run_typed_blocking(&desc, &[(&input).into()])?;
/// assert_eq!(output, [4, 6, 8, 10]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
///
/// Like every operator's desc, it is `#[non_exhaustive]`, so a member added later breaks no
/// caller: build it with [`SliceDesc::new`] (then assign fields, which stay public), never
/// with a struct literal, which does not compile outside this crate:
///
/// ```compile_fail,E0639
/// use dml_wgsl::{DataType, SliceDesc, TensorDesc};
///
/// let desc = SliceDesc {
///     input: TensorDesc::new(DataType::Int32, &[3, 4]),
///     output: TensorDesc::new(DataType::Int32, &[2, 2]),
///     offsets: vec![1, 0],
///     sizes: vec![2, 2],
///     strides: vec![1, 2],
/// };
/// ```
///
/// ```
/// use dml_wgsl::{DataType, SliceDesc, TensorDesc};
///
/// let mut desc = SliceDesc::new(
///     TensorDesc::new(DataType::Int32, &[3, 4]), // input
///     TensorDesc::new(DataType::Int32, &[2, 2]), // output
///     &[1, 0],                                   // offsets
///     &[2, 2],                                   // sizes
///     &[1, 2],                                   // strides
/// );
/// desc.offsets = vec![0, 1];
/// assert_eq!(desc.validate(), Ok(()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SliceDesc {
    pub input: TensorDesc,
    pub output: TensorDesc,
    pub offsets: Vec<u32>,
    pub sizes: Vec<u32>,
    pub strides: Vec<u32>,
}

impl SliceDesc {
    /// A slice with DirectML's members, in `DML_SLICE_OPERATOR_DESC`'s order.
    pub fn new(
        input: TensorDesc,
        output: TensorDesc,
        offsets: &[u32],
        sizes: &[u32],
        strides: &[u32],
    ) -> SliceDesc {
        SliceDesc {
            input,
            output,
            offsets: offsets.to_vec(),
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
        }
    }
}

/// `DML_SLICE1_OPERATOR_DESC`: a window of the input, walked with signed strides.
///
/// * The window of dimension `d` covers input elements
///   `[input_window_offsets[d], input_window_offsets[d] + input_window_sizes[d])`, inside the input.
/// * `input_window_strides[d]` is non-zero; a negative stride walks the window from its last
///   element backwards.
/// * The output's size is `ceil(input_window_sizes[d] / |input_window_strides[d]|)`.
/// * A window size may be 0 (an empty window, anywhere from the dimension's start to its end):
///   the output is then empty and the slice records nothing. ONNX's Slice with a start past
///   the end, clamped, is such a window.
/// * Input and output share data type and rank; any of the 11 data types.
///
/// ```
/// use dml_wgsl::{Context, DataType, OperatorDesc, Slice1Desc, TensorDesc};
///
/// let context = Context::new_blocking()?;
/// // Elements 2..=6 of a vector, walked backwards in steps of 2.
/// let desc: OperatorDesc = Slice1Desc::new(
///     TensorDesc::new(DataType::UInt8, &[8]), // input
///     TensorDesc::new(DataType::UInt8, &[3]), // output
///     &[2],                                   // input_window_offsets
///     &[5],                                   // input_window_sizes
///     &[-2],                                  // input_window_strides
/// )
/// .into();
/// let input: Vec<u8> = (10..18).collect();
/// let output: Vec<u8> = context.run_typed_blocking(&desc, &[(&input).into()])?;
/// assert_eq!(output, [16, 14, 12]);
/// # Ok::<(), dml_wgsl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Slice1Desc {
    pub input: TensorDesc,
    pub output: TensorDesc,
    pub input_window_offsets: Vec<u32>,
    pub input_window_sizes: Vec<u32>,
    pub input_window_strides: Vec<i32>,
}

impl Slice1Desc {
    /// A slice with DirectML's members, in `DML_SLICE1_OPERATOR_DESC`'s order.
    pub fn new(
        input: TensorDesc,
        output: TensorDesc,
        input_window_offsets: &[u32],
        input_window_sizes: &[u32],
        input_window_strides: &[i32],
    ) -> Slice1Desc {
        Slice1Desc {
            input,
            output,
            input_window_offsets: input_window_offsets.to_vec(),
            input_window_sizes: input_window_sizes.to_vec(),
            input_window_strides: input_window_strides.to_vec(),
        }
    }
}

impl SliceDesc {
    /// Checks every rule of `DML_SLICE`.
    pub fn validate(&self) -> Result<()> {
        self.input.validate("input", false)?;
        self.output.validate("output", true)?;
        check_same_kind("output", &self.output, "input", &self.input)?;
        let rank = self.input.rank();
        const RULE: &str = "one value per dimension of the tensors";
        check_length("offsets", self.offsets.len(), rank, RULE)?;
        check_length("sizes", self.sizes.len(), rank, RULE)?;
        check_length("strides", self.strides.len(), rank, RULE)?;
        for d in 0..rank {
            if self.strides[d] == 0 {
                return Err(Error::InvalidParameter {
                    field: "strides",
                    dimension: d,
                    value: 0,
                    rule: "slice strides must be at least 1",
                });
            }
            if self.sizes[d] != self.output.sizes[d] {
                return Err(Error::SizeMismatch {
                    tensor: "output",
                    dimension: d,
                    actual: self.output.sizes[d],
                    expected: self.sizes[d] as u64,
                    rule: "the slice's sizes",
                });
            }
            // A dimension of size 0 reads nothing.
            if self.sizes[d] == 0 {
                continue;
            }
            let last = self.offsets[d] as u64 + self.strides[d] as u64 * (self.sizes[d] as u64 - 1);
            if last >= self.input.sizes[d] as u64 {
                return Err(Error::ReadOutOfBounds {
                    dimension: d,
                    last,
                    input_size: self.input.sizes[d],
                });
            }
        }
        Ok(())
    }

    /// The copy this slice performs (the descriptor must be valid, its output not empty).
    pub(crate) fn copy(&self) -> StridedCopy {
        let input_strides = self.input.effective_strides();
        StridedCopy {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.sizes.clone(),
            input_strides: (0..self.sizes.len())
                .map(|d| (self.strides[d] as u64 * input_strides[d]) as i64)
                .collect(),
            input_base: (0..self.sizes.len())
                .map(|d| self.offsets[d] as u64 * input_strides[d])
                .sum(),
            output_strides: self
                .output
                .effective_strides()
                .iter()
                .map(|&s| s as i64)
                .collect(),
            output_base: 0,
        }
    }
}

impl Slice1Desc {
    /// Checks every rule of `DML_SLICE1`.
    pub fn validate(&self) -> Result<()> {
        self.input.validate("input", false)?;
        self.output.validate("output", true)?;
        check_same_kind("output", &self.output, "input", &self.input)?;
        let rank = self.input.rank();
        const RULE: &str = "one value per dimension of the tensors";
        check_length(
            "input_window_offsets",
            self.input_window_offsets.len(),
            rank,
            RULE,
        )?;
        check_length(
            "input_window_sizes",
            self.input_window_sizes.len(),
            rank,
            RULE,
        )?;
        check_length(
            "input_window_strides",
            self.input_window_strides.len(),
            rank,
            RULE,
        )?;
        for d in 0..rank {
            let stride = self.input_window_strides[d];
            if stride == 0 {
                return Err(Error::InvalidParameter {
                    field: "input_window_strides",
                    dimension: d,
                    value: 0,
                    rule: "window strides must be non-zero",
                });
            }
            let window = self.input_window_sizes[d];
            let end = self.input_window_offsets[d] as u64 + window as u64;
            if end > self.input.sizes[d] as u64 {
                return Err(Error::ReadOutOfBounds {
                    dimension: d,
                    last: end - 1,
                    input_size: self.input.sizes[d],
                });
            }
            let expected = (window as u64).div_ceil(stride.unsigned_abs() as u64);
            if self.output.sizes[d] as u64 != expected {
                return Err(Error::SizeMismatch {
                    tensor: "output",
                    dimension: d,
                    actual: self.output.sizes[d],
                    expected,
                    rule: "ceil(input_window_sizes / |input_window_strides|)",
                });
            }
        }
        Ok(())
    }

    /// The copy this slice performs (the descriptor must be valid, its output not empty).
    pub(crate) fn copy(&self) -> StridedCopy {
        let input_strides = self.input.effective_strides();
        let rank = self.input.rank();
        // A negative stride starts at the window's last element.
        let start = |d: usize| {
            let offset = self.input_window_offsets[d] as u64;
            if self.input_window_strides[d] < 0 {
                offset + self.input_window_sizes[d] as u64 - 1
            } else {
                offset
            }
        };
        StridedCopy {
            element_bytes: self.input.data_type.size_in_bytes(),
            sizes: self.output.sizes.clone(),
            input_strides: (0..rank)
                .map(|d| self.input_window_strides[d] as i64 * input_strides[d] as i64)
                .collect(),
            input_base: (0..rank).map(|d| start(d) * input_strides[d]).sum(),
            output_strides: self
                .output
                .effective_strides()
                .iter()
                .map(|&s| s as i64)
                .collect(),
            output_base: 0,
        }
    }
}

impl Operator for SliceDesc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![("input", &self.input)]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        SliceDesc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        if self.output.is_empty() {
            return Ok(Lowered::steps(Vec::new()));
        }
        Ok(lower_copy(&self.copy(), device))
    }

    fn copies_contiguous_run(&self) -> bool {
        !self.output.is_empty() && self.copy().is_contiguous()
    }
}

impl Operator for Slice1Desc {
    fn inputs(&self) -> Vec<(&'static str, &TensorDesc)> {
        vec![("input", &self.input)]
    }

    fn output(&self) -> &TensorDesc {
        &self.output
    }

    fn validate(&self) -> Result<()> {
        Slice1Desc::validate(self)
    }

    fn lower(&self, device: &DeviceFacts) -> Result<Lowered> {
        if self.output.is_empty() {
            return Ok(Lowered::steps(Vec::new()));
        }
        Ok(lower_copy(&self.copy(), device))
    }

    fn copies_contiguous_run(&self) -> bool {
        !self.output.is_empty() && self.copy().is_contiguous()
    }
}

/// A slice's one step: its copy (element by element where its kernel binds only some
/// windows of a tensor).
fn lower_copy(copy: &StridedCopy, device: &DeviceFacts) -> Lowered {
    let device = device.for_kernels(&copy.kernels(device), 0, 0);
    Lowered::steps(copy.steps(&device, Placement::Always))
}
