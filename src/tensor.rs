//! Tensor descriptions: element types, sizes, strides and byte sizes, with DirectML's rules.

use crate::error::{Error, Result};

/// The most dimensions a tensor may have (DirectML's limit from feature level 3.0).
pub const MAX_RANK: usize = 8;

/// The most elements a tensor may have: 2^32 - 1, so every element index fits in a `u32`.
pub const MAX_ELEMENTS: u64 = u32::MAX as u64;

/// An element type: DirectML's eleven, and bfloat16. The kernels only move bits, so what
/// matters to them is the size; the scatter reductions compute on the values
/// ([`crate::Reduction`]).
///
/// `#[non_exhaustive]`: types may be added without a breaking change, so a `match` outside
/// this crate needs a wildcard arm; one without does not compile:
///
/// ```compile_fail,E0004
/// use dml_wgsl::DataType;
///
/// fn is_integer(t: DataType) -> bool {
///     match t {
///         DataType::Float64 | DataType::Float32 | DataType::Float16 => false,
///         DataType::Int64 | DataType::Int32 | DataType::Int16 | DataType::Int8 => true,
///         DataType::UInt64 | DataType::UInt32 | DataType::UInt16 | DataType::UInt8 => true,
///     }
/// }
/// ```
///
/// With the wildcard arm, it does:
///
/// ```
/// use dml_wgsl::DataType;
///
/// fn is_integer(t: DataType) -> bool {
///     match t {
///         DataType::Float64 | DataType::Float32 | DataType::Float16 => false,
///         DataType::BFloat16 => false,
///         DataType::Int64 | DataType::Int32 | DataType::Int16 | DataType::Int8 => true,
///         DataType::UInt64 | DataType::UInt32 | DataType::UInt16 | DataType::UInt8 => true,
///         _ => false,
///     }
/// }
/// assert!(is_integer(DataType::UInt8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DataType {
    Float64,
    Float32,
    Float16,
    /// bfloat16 (beyond DirectML): binary32's upper 16 bits (sign, 8 exponent bits, 7
    /// fraction bits), `half::bf16`.
    BFloat16,
    Int64,
    Int32,
    Int16,
    Int8,
    UInt64,
    UInt32,
    UInt16,
    UInt8,
}

impl DataType {
    /// Every data type: DirectML's eleven, widest first, then bfloat16.
    pub const ALL: [DataType; 12] = [
        DataType::Float64,
        DataType::Float32,
        DataType::Float16,
        DataType::Int64,
        DataType::Int32,
        DataType::Int16,
        DataType::Int8,
        DataType::UInt64,
        DataType::UInt32,
        DataType::UInt16,
        DataType::UInt8,
        DataType::BFloat16,
    ];

    /// Bytes per element: 1, 2, 4 or 8.
    pub const fn size_in_bytes(self) -> u32 {
        match self {
            DataType::Float64 | DataType::Int64 | DataType::UInt64 => 8,
            DataType::Float32 | DataType::Int32 | DataType::UInt32 => 4,
            DataType::Float16 | DataType::BFloat16 | DataType::Int16 | DataType::UInt16 => 2,
            DataType::Int8 | DataType::UInt8 => 1,
        }
    }

    /// Float16, BFloat16, Float32 or Float64.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DataType::Float64 | DataType::Float32 | DataType::Float16 | DataType::BFloat16
        )
    }

    /// Whether values of this type can be negative (matters for index tensors).
    pub const fn is_signed(self) -> bool {
        matches!(
            self,
            DataType::Float64
                | DataType::Float32
                | DataType::Float16
                | DataType::BFloat16
                | DataType::Int64
                | DataType::Int32
                | DataType::Int16
                | DataType::Int8
        )
    }
}

/// A tensor's layout, as DirectML's `DML_BUFFER_TENSOR_DESC`.
///
/// * `sizes`: 1 to 8 dimensions, outermost first, at most 2^32 - 1 elements in all. A size may
///   be 0 (beyond DirectML, as ONNX allows): the tensor is then *empty* (see below).
/// * `strides`: element strides per dimension; `None` means packed (row-major). A stride of 0
///   broadcasts, which only inputs may do on a dimension of size > 1.
/// * `total_tensor_size_in_bytes`: the size of the bound buffer range; `None` means the minimum,
///   `roundup((sum((size - 1) * stride) + 1) * element_size, 4)`. A given size must be a multiple
///   of 4 and at least that minimum.
///
/// An empty tensor has no elements and spans no bytes: its minimum size, and its
/// [`TensorDesc::size_in_bytes`], are 0 whatever its strides, and even where a total size is
/// given (which must still be a multiple of 4). Its strides need one value per dimension, but
/// no other layout rule applies (an empty output cannot broadcast or overlap, having no
/// elements). Nothing is bound, read or written for it: `record` ignores its binding, `run`
/// takes an empty slice for it and returns no bytes for an empty output.
///
/// ```
/// use dml_wgsl::{DataType, TensorDesc};
///
/// let empty = TensorDesc::new(DataType::Float32, &[20, 0, 5]);
/// assert!(empty.is_empty());
/// assert_eq!((empty.element_count(), empty.size_in_bytes()), (0, 0));
/// assert_eq!(empty.with_total_size(64).size_in_bytes(), 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct TensorDesc {
    pub data_type: DataType,
    pub sizes: Vec<u32>,
    pub strides: Option<Vec<u32>>,
    pub total_tensor_size_in_bytes: Option<u64>,
}

impl TensorDesc {
    /// A packed tensor of the given type and sizes.
    pub fn new(data_type: DataType, sizes: &[u32]) -> TensorDesc {
        TensorDesc {
            data_type,
            sizes: sizes.to_vec(),
            strides: None,
            total_tensor_size_in_bytes: None,
        }
    }

    /// The same tensor with explicit element strides.
    pub fn with_strides(mut self, strides: &[u32]) -> TensorDesc {
        self.strides = Some(strides.to_vec());
        self
    }

    /// The same tensor with an explicit total size in bytes (padding after the last element).
    pub fn with_total_size(mut self, bytes: u64) -> TensorDesc {
        self.total_tensor_size_in_bytes = Some(bytes);
        self
    }

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// Whether the tensor has no elements: some size is 0.
    pub fn is_empty(&self) -> bool {
        self.sizes.contains(&0)
    }

    /// The number of elements (the product of the sizes), saturating at `u64::MAX` (eight
    /// sizes of up to 2^32 - 1 can multiply past any integer type); 0 where a size is 0,
    /// whatever the others.
    pub fn element_count(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.sizes
            .iter()
            .try_fold(1u64, |count, &size| count.checked_mul(size as u64))
            .unwrap_or(u64::MAX)
    }

    /// The element strides: the given ones, or packed row-major strides.
    pub fn effective_strides(&self) -> Vec<u64> {
        match &self.strides {
            Some(s) => s.iter().map(|&s| s as u64).collect(),
            None => packed_strides(&self.sizes),
        }
    }

    /// The element strides as signed values, as lowering computes with them.
    pub(crate) fn signed_strides(&self) -> Vec<i64> {
        self.effective_strides().iter().map(|&s| s as i64).collect()
    }

    /// DirectML's minimum byte size, `roundup((sum((size - 1) * stride) + 1) * element_size, 4)`,
    /// saturating at the largest multiple of 4 in a `u64` (a valid descriptor never gets
    /// there: [`TensorDesc::validate`] refuses layouts past 2^64 - 1 bytes); 0 for an empty
    /// tensor.
    pub fn minimum_size_in_bytes(&self) -> u64 {
        self.checked_minimum_size_in_bytes().unwrap_or(!3)
    }

    /// [`TensorDesc::minimum_size_in_bytes`], or `None` where it passes `u64::MAX`.
    pub fn checked_minimum_size_in_bytes(&self) -> Option<u64> {
        let bytes = self.span_u128() * self.data_type.size_in_bytes() as u128;
        u64::try_from(bytes.next_multiple_of(4)).ok()
    }

    /// The elements the layout spans, `sum((size - 1) * stride) + 1` (0 for an empty tensor),
    /// in `u128`, where eight products of two 32-bit numbers cannot overflow.
    pub(crate) fn span_u128(&self) -> u128 {
        if self.is_empty() {
            return 0;
        }
        let last: u128 = self
            .sizes
            .iter()
            .zip(self.effective_strides())
            .map(|(&size, stride)| (size as u128).saturating_sub(1) * stride as u128)
            .sum();
        last + 1
    }

    /// The bytes the tensor occupies: the given total size or the minimum; 0 for an empty
    /// tensor, whatever total size is given (nothing of it is ever bound).
    pub fn size_in_bytes(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.total_tensor_size_in_bytes
            .unwrap_or_else(|| self.minimum_size_in_bytes())
    }

    /// Byte offset of the element at `coordinates` (no bounds check).
    pub fn byte_offset(&self, coordinates: &[u32]) -> u64 {
        let element: u64 = coordinates
            .iter()
            .zip(self.effective_strides())
            .map(|(&c, s)| c as u64 * s)
            .sum();
        element * self.data_type.size_in_bytes() as u64
    }

    /// Checks every rule for a tensor in the role `tensor` ("input", "output", ...).
    /// Outputs may not broadcast (a zero stride on a dimension of size > 1) nor overlap
    /// themselves (two elements at one address), so that every output element has exactly
    /// one writer. An empty tensor (a size of 0) has no elements to lay out: its rank, its
    /// strides' count and a given total size's alignment are checked, nothing else of its
    /// layout.
    pub fn validate(&self, tensor: &'static str, is_output: bool) -> Result<()> {
        let rank = self.rank();
        if !(1..=MAX_RANK).contains(&rank) {
            return Err(Error::InvalidRank { tensor, rank });
        }
        let elements = self.element_count();
        if elements > MAX_ELEMENTS {
            return Err(Error::TooManyElements { tensor, elements });
        }
        if let Some(strides) = &self.strides
            && strides.len() != rank
        {
            return Err(Error::StridesLength {
                tensor,
                expected: rank,
                actual: strides.len(),
            });
        }
        if self.is_empty() {
            return match self.total_tensor_size_in_bytes {
                Some(given) if given % 4 != 0 => Err(Error::TotalSizeNotAligned { tensor, given }),
                _ => Ok(()),
            };
        }
        if let Some(strides) = &self.strides
            && is_output
            && let Some(dimension) = (0..rank).find(|&d| strides[d] == 0 && self.sizes[d] > 1)
        {
            return Err(Error::BroadcastOutput {
                tensor,
                dimension,
                size: self.sizes[dimension],
            });
        }
        if is_output && let Some(dimension) = self.overlapping_dimension() {
            return Err(Error::OverlappingOutput { tensor, dimension });
        }
        let Some(minimum) = self.checked_minimum_size_in_bytes() else {
            return Err(Error::LayoutOverflow {
                tensor,
                sizes: self.sizes.clone(),
                strides: self.effective_strides(),
            });
        };
        if let Some(given) = self.total_tensor_size_in_bytes {
            if given % 4 != 0 {
                return Err(Error::TotalSizeNotAligned { tensor, given });
            }
            if given < minimum {
                return Err(Error::TotalSizeTooSmall {
                    tensor,
                    given,
                    minimum,
                });
            }
        }
        Ok(())
    }
}

impl TensorDesc {
    /// A dimension whose elements may share memory with another's, if any: with the
    /// dimensions of size > 1 sorted by stride, each stride must step over the whole extent
    /// of the one before (a sufficient condition for no two elements to overlap, which every
    /// packed, padded or permuted layout meets).
    fn overlapping_dimension(&self) -> Option<usize> {
        let strides = self.effective_strides();
        let mut dims: Vec<usize> = (0..self.rank()).filter(|&d| self.sizes[d] > 1).collect();
        dims.sort_by_key(|&d| strides[d]);
        dims.windows(2)
            .find(|w| (strides[w[1]] as u128) < strides[w[0]] as u128 * self.sizes[w[0]] as u128)
            .map(|w| w[1])
    }
}

/// Row-major strides for `sizes`.
pub(crate) fn packed_strides(sizes: &[u32]) -> Vec<u64> {
    let mut strides = vec![0u64; sizes.len()];
    let mut running = 1u64;
    for (stride, &size) in strides.iter_mut().zip(sizes).rev() {
        *stride = running;
        running = running.saturating_mul(size as u64);
    }
    strides
}
