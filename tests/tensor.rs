//! TensorDesc: data type sizes, the minimum byte size, and its validation rules, one test
//! per rule (the operators' rules are in `validation.rs`).
#![cfg(not(target_arch = "wasm32"))] // host-only checks, run natively; the browser has tests/web.rs

use dml_wgsl::{DataType, Error, TensorDesc};

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

// ---- TensorDesc ----

#[test]
fn tensor_rank_must_be_1_to_8() {
    let e = TensorDesc::new(DataType::Float32, &[])
        .validate("input", false)
        .unwrap_err();
    assert_eq!(
        e,
        Error::InvalidRank {
            tensor: "input",
            rank: 0
        }
    );
    let e = TensorDesc::new(DataType::Float32, &[1; 9])
        .validate("output", true)
        .unwrap_err();
    assert_eq!(
        e,
        Error::InvalidRank {
            tensor: "output",
            rank: 9
        }
    );
    TensorDesc::new(DataType::Float32, &[1; 8])
        .validate("input", false)
        .unwrap();
}

#[test]
fn empty_tensors_need_only_a_rank_a_stride_a_dimension_and_an_aligned_total_size() {
    for sizes in [[0, 3, 4], [2, 0, 3], [2, 3, 0]] {
        TensorDesc::new(DataType::Int8, &sizes)
            .validate("input", false)
            .unwrap();
    }
    // No elements: nothing an output could broadcast or overlap, no layout past 2^64 bytes,
    // no element count past 2^32 - 1.
    for empty in [
        TensorDesc::new(DataType::Float32, &[3, 0, 2]).with_strides(&[0, 0, 0]),
        TensorDesc::new(DataType::Float32, &[2, 2, 0]).with_strides(&[1, 1, 1]),
        TensorDesc::new(DataType::Float64, &[u32::MAX, 0]).with_strides(&[u32::MAX, u32::MAX]),
        TensorDesc::new(DataType::UInt8, &[u32::MAX, u32::MAX, u32::MAX, 0]),
        TensorDesc::new(DataType::UInt8, &[5, 0]).with_total_size(8),
    ] {
        empty.validate("output", true).unwrap();
    }
    let empty = TensorDesc::new(DataType::Float32, &[2, 0]);
    assert_eq!(
        TensorDesc::new(DataType::Float32, &[0; 9]).validate("input", false),
        Err(Error::InvalidRank {
            tensor: "input",
            rank: 9
        })
    );
    assert_eq!(
        empty.clone().with_strides(&[1]).validate("input", false),
        Err(Error::StridesLength {
            tensor: "input",
            expected: 2,
            actual: 1
        })
    );
    assert_eq!(
        empty.with_total_size(6).validate("output", true),
        Err(Error::TotalSizeNotAligned {
            tensor: "output",
            given: 6
        })
    );
}

#[test]
fn tensor_element_count_must_fit_u32() {
    let e = TensorDesc::new(DataType::UInt8, &[65536, 65536])
        .validate("input", false)
        .unwrap_err();
    assert_eq!(
        e,
        Error::TooManyElements {
            tensor: "input",
            elements: 1 << 32
        }
    );
    TensorDesc::new(DataType::UInt8, &[65535, 65537])
        .validate("input", false)
        .unwrap();
}

#[test]
fn tensor_strides_need_one_value_per_dimension() {
    let e = TensorDesc::new(DataType::Float32, &[2, 2])
        .with_strides(&[1])
        .validate("input", false)
        .unwrap_err();
    assert_eq!(
        e,
        Error::StridesLength {
            tensor: "input",
            expected: 2,
            actual: 1
        }
    );
}

#[test]
fn output_tensors_may_not_broadcast() {
    let t = TensorDesc::new(DataType::Float32, &[3, 1, 2]).with_strides(&[2, 0, 0]);
    let e = t.validate("output", true).unwrap_err();
    assert_eq!(
        e,
        Error::BroadcastOutput {
            tensor: "output",
            dimension: 2,
            size: 2
        }
    );
    // A zero stride is harmless on a dimension of size 1, and inputs may broadcast anywhere.
    TensorDesc::new(DataType::Float32, &[3, 1])
        .with_strides(&[1, 0])
        .validate("output", true)
        .unwrap();
    t.validate("input", false).unwrap();
}

#[test]
fn tensor_total_size_must_be_a_multiple_of_4() {
    let e = TensorDesc::new(DataType::UInt8, &[3])
        .with_total_size(6)
        .validate("input", false)
        .unwrap_err();
    assert_eq!(
        e,
        Error::TotalSizeNotAligned {
            tensor: "input",
            given: 6
        }
    );
}

#[test]
fn tensor_total_size_must_cover_the_layout() {
    let e = TensorDesc::new(DataType::Float32, &[4, 4])
        .with_total_size(60)
        .validate("input", false)
        .unwrap_err();
    assert_eq!(
        e,
        Error::TotalSizeTooSmall {
            tensor: "input",
            given: 60,
            minimum: 64
        }
    );
    TensorDesc::new(DataType::Float32, &[4, 4])
        .with_total_size(128)
        .validate("input", false)
        .unwrap();
}

#[test]
fn output_tensors_may_not_overlap_themselves() {
    // {2, 2} with strides {1, 1}: elements (0, 1) and (1, 0) share an address.
    let t = TensorDesc::new(DataType::Float32, &[2, 2]).with_strides(&[1, 1]);
    assert_eq!(
        t.validate("output", true).unwrap_err(),
        Error::OverlappingOutput {
            tensor: "output",
            dimension: 1
        }
    );
    let t = TensorDesc::new(DataType::Float32, &[3, 4]).with_strides(&[3, 1]);
    assert_eq!(
        t.validate("output", true).unwrap_err(),
        Error::OverlappingOutput {
            tensor: "output",
            dimension: 0
        }
    );
    // Inputs may overlap (they are only read); padded and permuted outputs do not overlap.
    TensorDesc::new(DataType::Float32, &[3, 4])
        .with_strides(&[3, 1])
        .validate("input", false)
        .unwrap();
    TensorDesc::new(DataType::Float32, &[3, 4])
        .with_strides(&[5, 1])
        .validate("output", true)
        .unwrap();
    TensorDesc::new(DataType::Float32, &[3, 4])
        .with_strides(&[1, 3])
        .validate("output", true)
        .unwrap();
    TensorDesc::new(DataType::Float32, &[3, 1, 4])
        .with_strides(&[4, 0, 1])
        .validate("output", true)
        .unwrap();
}

/// Regression (fuzzing): `element_count` multiplied in unchecked u64, so 2^64 elements
/// wrapped to 0 and passed validation.
#[test]
fn tensor_element_counts_past_u64_saturate_and_are_refused() {
    let huge = TensorDesc::new(DataType::Float32, &[65536; 4]);
    assert_eq!(huge.element_count(), u64::MAX);
    assert_eq!(
        huge.validate("input", false),
        Err(Error::TooManyElements {
            tensor: "input",
            elements: u64::MAX
        })
    );
    let eight = TensorDesc::new(DataType::UInt8, &[u32::MAX; 8]);
    assert_eq!(eight.element_count(), u64::MAX);
    assert!(matches!(
        eight.validate("output", true),
        Err(Error::TooManyElements { .. })
    ));
}

#[test]
fn tensor_layouts_spanning_more_than_u64_bytes_are_refused() {
    let t = TensorDesc::new(DataType::Float64, &[u32::MAX]).with_strides(&[u32::MAX]);
    assert_eq!(t.checked_minimum_size_in_bytes(), None);
    assert_eq!(t.minimum_size_in_bytes(), !3);
    assert_eq!(
        t.validate("input", false),
        Err(Error::LayoutOverflow {
            tensor: "input",
            sizes: vec![u32::MAX],
            strides: vec![u32::MAX as u64],
        })
    );
    // Just inside: (2^32 - 2) * (2^32 - 1) + 1 elements of one byte.
    let byte = TensorDesc::new(DataType::UInt8, &[u32::MAX]).with_strides(&[u32::MAX]);
    let expected = (u32::MAX as u64 - 1) * u32::MAX as u64 + 1;
    assert_eq!(
        byte.checked_minimum_size_in_bytes(),
        Some(expected.next_multiple_of(4))
    );
}
