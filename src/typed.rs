//! A typed layer over the byte API: tensors as slices of Rust element types.
//!
//! [`Element`] ties each data type to its Rust type (`f64`, `f32`, [`half::f16`], `i64` …
//! `u8`, and [`half::bf16`] for bfloat16); [`Elements`] is a slice of any of them, and
//! [`Context::run_typed`] runs an operator on such slices and returns the output as a
//! `Vec` of its element type. Every slice is checked against its tensor before any GPU work:
//! its element type must be the tensor's data type, and its length the number of elements
//! the tensor's layout spans.

use crate::context::Context;
use crate::error::{Error, Result};
use crate::ops::OperatorDesc;
use crate::tensor::{DataType, TensorDesc};

/// A Rust type that holds one element of a data type.
pub trait Element: bytemuck::Pod {
    /// The data type whose elements this type holds.
    const DATA_TYPE: DataType;
}

macro_rules! elements {
    ($($ty:ty => $data_type:ident,)*) => {
        $(impl Element for $ty {
            const DATA_TYPE: DataType = DataType::$data_type;
        })*
    };
}

elements! {
    f64 => Float64,
    f32 => Float32,
    half::f16 => Float16,
    i64 => Int64,
    i32 => Int32,
    i16 => Int16,
    i8 => Int8,
    u64 => UInt64,
    u32 => UInt32,
    u16 => UInt16,
    u8 => UInt8,
    half::bf16 => BFloat16,
}

impl DataType {
    /// The data type of the Rust element type `T`.
    pub fn of<T: Element>() -> DataType {
        T::DATA_TYPE
    }
}

/// A slice of elements of some [`Element`] type, as [`Context::run_typed`] takes its inputs:
/// `(&values[..]).into()` or `Elements::from(values.as_slice())`.
#[derive(Clone, Copy, Debug)]
pub struct Elements<'a> {
    data_type: DataType,
    len: usize,
    bytes: &'a [u8],
}

impl<'a, T: Element> From<&'a [T]> for Elements<'a> {
    fn from(values: &'a [T]) -> Elements<'a> {
        Elements {
            data_type: T::DATA_TYPE,
            len: values.len(),
            bytes: bytemuck::cast_slice(values),
        }
    }
}

impl<'a, T: Element> From<&'a Vec<T>> for Elements<'a> {
    fn from(values: &'a Vec<T>) -> Elements<'a> {
        Elements::from(values.as_slice())
    }
}

impl<'a, T: Element, const N: usize> From<&'a [T; N]> for Elements<'a> {
    fn from(values: &'a [T; N]) -> Elements<'a> {
        Elements::from(values.as_slice())
    }
}

impl Elements<'_> {
    pub fn data_type(&self) -> DataType {
        self.data_type
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl TensorDesc {
    /// The number of elements the layout spans: the last addressed element's index plus one
    /// (for a packed tensor, its element count; with strides, gaps included; 0 for an empty
    /// tensor). A typed slice for this tensor holds this many elements. Saturates at
    /// `u64::MAX`.
    pub fn element_span(&self) -> u64 {
        u64::try_from(self.span_u128()).unwrap_or(u64::MAX)
    }
}

/// Checks a typed slice against its tensor, and gives its bytes padded to the tensor's size.
fn tensor_bytes(tensor: &'static str, t: &TensorDesc, slice: &Elements) -> Result<Vec<u8>> {
    if slice.data_type != t.data_type {
        return Err(Error::SliceDataType {
            tensor,
            slice: slice.data_type,
            expected: t.data_type,
        });
    }
    let span = t.element_span();
    if slice.len as u64 != span {
        return Err(Error::SliceLength {
            tensor,
            given: slice.len as u64,
            required: span,
        });
    }
    // The byte API takes the whole buffer range, rounded up to 4 bytes (and any padding the
    // desc asks for); the bytes past the elements are never read.
    let mut bytes = slice.bytes.to_vec();
    bytes.resize(t.size_in_bytes() as usize, 0);
    Ok(bytes)
}

impl Context {
    /// [`Context::run`] on typed slices: `inputs` in the order of the desc's fields, each of
    /// its tensor's element type and holding [`TensorDesc::element_span`] elements; the
    /// output comes back as that many elements of `T`, which must be the output's element
    /// type. A slice of the wrong type or length is an `Err` (`SliceDataType`,
    /// `SliceLength`), found before any GPU work.
    ///
    /// ```
    /// use dml_wgsl::{Context, DataType, GatherDesc, OperatorDesc, TensorDesc};
    ///
    /// let context = Context::new_blocking()?;
    /// // Rows 2 and 0 of a 3x2 table.
    /// let desc: OperatorDesc = GatherDesc::new(
    ///     TensorDesc::new(DataType::Float32, &[3, 2]),
    ///     TensorDesc::new(DataType::Int64, &[1, 2]),
    ///     TensorDesc::new(DataType::Float32, &[2, 2]),
    ///     0,
    ///     1,
    /// )
    /// .into();
    /// let table = [1f32, 2., 3., 4., 5., 6.];
    /// let rows = [2i64, 0];
    /// let output: Vec<f32> =
    ///     context.run_typed_blocking(&desc, &[(&table).into(), (&rows).into()])?;
    /// assert_eq!(output, [5., 6., 1., 2.]);
    /// // The indices as i32 would not be the Int64 the desc says.
    /// let wrong = [2i32, 0];
    /// assert!(context.run_typed_blocking::<f32>(&desc, &[(&table).into(), (&wrong).into()]).is_err());
    /// # Ok::<(), dml_wgsl::Error>(())
    /// ```
    pub async fn run_typed<T: Element>(
        &self,
        desc: &OperatorDesc,
        inputs: &[Elements<'_>],
    ) -> Result<Vec<T>> {
        desc.validate()?;
        let output = desc.output();
        if T::DATA_TYPE != output.data_type {
            return Err(Error::SliceDataType {
                tensor: "output",
                slice: T::DATA_TYPE,
                expected: output.data_type,
            });
        }
        let tensors = desc.inputs();
        if inputs.len() != tensors.len() {
            return Err(Error::InputCount {
                expected: tensors.len(),
                actual: inputs.len(),
            });
        }
        let bytes = tensors
            .iter()
            .zip(inputs)
            .map(|((tensor, t), slice)| tensor_bytes(tensor, t, slice))
            .collect::<Result<Vec<_>>>()?;
        let slices: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
        let result = self.run(desc, &slices).await?;
        let span = output.element_span() as usize;
        let width = size_of::<T>();
        Ok(bytemuck::pod_collect_to_vec(&result[..span * width]))
    }

    /// [`Context::run_typed`], blocking until the result is back. Native targets only.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run_typed_blocking<T: Element>(
        &self,
        desc: &OperatorDesc,
        inputs: &[Elements<'_>],
    ) -> Result<Vec<T>> {
        pollster::block_on(self.run_typed(desc, inputs))
    }
}
