//! TensorDesc: data type sizes and the minimum byte size (its validation rules are in
//! `validation.rs`).
#![cfg(not(target_arch = "wasm32"))] // host-only checks, run natively; the browser has tests/web.rs

use dml_wgsl::{DataType, TensorDesc};

#[test]
fn data_type_sizes_follow_directml() {
    use DataType::*;
    let sizes: Vec<u32> = DataType::ALL.iter().map(|t| t.size_in_bytes()).collect();
    // DirectML's eleven, then bfloat16.
    assert_eq!(
        DataType::ALL,
        [
            Float64, Float32, Float16, Int64, Int32, Int16, Int8, UInt64, UInt32, UInt16, UInt8,
            BFloat16
        ]
    );
    assert_eq!(sizes, [8, 4, 2, 8, 4, 2, 1, 8, 4, 2, 1, 2]);
}

#[test]
fn minimum_size_is_directml_formula_rounded_to_4_bytes() {
    // roundup((sum((size - 1) * stride) + 1) * element_size, 4)
    assert_eq!(
        TensorDesc::new(DataType::Float32, &[1, 1, 4, 4]).minimum_size_in_bytes(),
        64
    );
    assert_eq!(
        TensorDesc::new(DataType::UInt8, &[3, 3]).minimum_size_in_bytes(),
        12
    );
    assert_eq!(
        TensorDesc::new(DataType::UInt8, &[2, 3])
            .with_strides(&[5, 1])
            .minimum_size_in_bytes(),
        8
    );
    assert_eq!(
        TensorDesc::new(DataType::Float16, &[7])
            .with_strides(&[0])
            .minimum_size_in_bytes(),
        4
    );
    assert_eq!(
        TensorDesc::new(DataType::Int64, &[2, 2])
            .with_strides(&[1, 3])
            .minimum_size_in_bytes(),
        40
    );
}

#[test]
fn minimum_size_is_computed_without_u32_overflow() {
    let t = TensorDesc::new(DataType::Float64, &[2, 2]).with_strides(&[u32::MAX, u32::MAX]);
    assert_eq!(t.minimum_size_in_bytes(), (2 * u32::MAX as u64 + 1) * 8);
}

#[test]
fn an_empty_tensor_spans_no_bytes_whatever_its_strides_and_total_size() {
    for empty in [
        TensorDesc::new(DataType::Float32, &[20, 0, 5]),
        TensorDesc::new(DataType::UInt8, &[0]),
        TensorDesc::new(DataType::Int64, &[3, 0]).with_strides(&[7, 1]),
        TensorDesc::new(DataType::Float16, &[2, 0]).with_total_size(64),
    ] {
        assert!(empty.is_empty(), "{empty:?}");
        assert_eq!(empty.element_count(), 0);
        assert_eq!(empty.element_span(), 0);
        assert_eq!(empty.minimum_size_in_bytes(), 0);
        assert_eq!(empty.checked_minimum_size_in_bytes(), Some(0));
        assert_eq!(empty.size_in_bytes(), 0);
    }
    assert!(!TensorDesc::new(DataType::UInt8, &[1]).is_empty());
}
