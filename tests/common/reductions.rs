//! Small scatter reductions the reduction tests share: one Float32 ScatterElements run on
//! the test binary's context, and a desc of one update an element.

use dml_wgsl::{DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc, TensorDesc};

use super::context;

/// One f32 ScatterElements with `reduction` on `input`, updates aimed as `indices` says.
pub fn run_f32_reduction(
    reduction: Reduction,
    duplicates: DuplicateMode,
    input: &[f32],
    indices: &[i32],
    updates: &[f32],
) -> Vec<u32> {
    let desc: OperatorDesc = ScatterElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[input.len() as u32]),
        TensorDesc::new(DataType::Int32, &[indices.len() as u32]),
        TensorDesc::new(DataType::Float32, &[updates.len() as u32]),
        TensorDesc::new(DataType::Float32, &[input.len() as u32]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
    .into();
    let out: Vec<f32> = context()
        .run_typed_blocking(&desc, &[input.into(), indices.into(), updates.into()])
        .unwrap();
    out.iter().map(|v| v.to_bits()).collect()
}

/// ScatterElements of `n` updates into `n` elements of a 1-D tensor with UInt32 indices (the
/// tests below make them a permutation: each element meets one update).
pub fn reduction_one_update_each(
    data_type: DataType,
    n: u32,
    reduction: Reduction,
    duplicates: DuplicateMode,
) -> OperatorDesc {
    ScatterElementsDesc::new(
        TensorDesc::new(data_type, &[n]),
        TensorDesc::new(DataType::UInt32, &[n]),
        TensorDesc::new(data_type, &[n]),
        TensorDesc::new(data_type, &[n]),
        0,
    )
    .with_reduction(reduction)
    .with_duplicates(duplicates)
    .into()
}
