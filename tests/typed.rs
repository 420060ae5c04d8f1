//! The typed layer: element types, `run_typed` against the reference on random cases of
//! every operator, and its checks of slice types and lengths.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{OperatorKind, Rng, context, random_case};
use dml_wgsl::{
    DataType, DuplicateMode, Element, Elements, Error, OperatorDesc, SliceDesc, TensorDesc,
    reference,
};
use half::{bf16, f16};

#[test]
fn every_element_type_names_its_data_type() {
    let types = [
        DataType::of::<f64>(),
        DataType::of::<f32>(),
        DataType::of::<f16>(),
        DataType::of::<i64>(),
        DataType::of::<i32>(),
        DataType::of::<i16>(),
        DataType::of::<i8>(),
        DataType::of::<u64>(),
        DataType::of::<u32>(),
        DataType::of::<u16>(),
        DataType::of::<u8>(),
        DataType::of::<bf16>(),
    ];
    assert_eq!(types, DataType::ALL);
}

/// The first `t.element_span()` elements of `bytes`, as `T`.
fn elements<T: Element>(t: &TensorDesc, bytes: &[u8]) -> Vec<T> {
    let width = size_of::<T>();
    bytemuck::pod_collect_to_vec(&bytes[..t.element_span() as usize * width])
}

/// Random cases of every operator with data of `T` and indices of `I`, through `run_typed`:
/// the output's elements equal the reference's (or the error its status).
fn run_typed_matches_the_reference<T: Element, I: Element>(seed: u64) {
    let mut rng = Rng::new(seed);
    for kind in OperatorKind::ALL {
        for _ in 0..3 {
            let mut case = random_case(&mut rng, kind, T::DATA_TYPE, I::DATA_TYPE);
            // Exact results: duplicate scatter targets resolve in-order, as the reference.
            match &mut case.desc {
                OperatorDesc::ScatterElements(d) => d.duplicates = DuplicateMode::InOrder,
                OperatorDesc::ScatterNd(d) => d.duplicates = DuplicateMode::InOrder,
                _ => {}
            }
            let tensors = case.desc.inputs();
            let index_at = common::index_input(&case.desc);
            // TensorScatter's write indices are signed: its cases with unsigned `I` are left
            // to the pairs that have them.
            if index_at.is_some_and(|i| tensors[i].1.data_type != I::DATA_TYPE) {
                continue;
            }
            let data: Vec<Vec<T>> = tensors
                .iter()
                .zip(&case.inputs)
                .map(|((_, t), bytes)| match t.data_type == T::DATA_TYPE {
                    true => elements(t, bytes),
                    false => Vec::new(),
                })
                .collect();
            let indices: Option<Vec<I>> = index_at.map(|i| elements(tensors[i].1, &case.inputs[i]));
            let slices: Vec<Elements> = data
                .iter()
                .enumerate()
                .map(|(i, d)| match &indices {
                    Some(ix) if Some(i) == index_at => ix.into(),
                    _ => d.into(),
                })
                .collect();
            let output = context().run_typed_blocking::<T>(&case.desc, &slices);
            match reference::run(&case.desc, &case.slices()) {
                Ok(expected) => {
                    // Compared as bits: random floats include NaNs.
                    let want: Vec<T> = elements(case.desc.output(), &expected);
                    let got = output.expect("run_typed");
                    assert!(
                        bytemuck::cast_slice::<T, u8>(&got) == bytemuck::cast_slice::<T, u8>(&want),
                        "{:?}",
                        case.desc
                    );
                }
                Err(e) => assert_eq!(output.err(), Some(e)),
            }
        }
    }
}

#[test]
fn run_typed_matches_the_reference_for_every_element_width() {
    run_typed_matches_the_reference::<f64, i64>(1);
    run_typed_matches_the_reference::<u32, u32>(2);
    run_typed_matches_the_reference::<f16, i32>(3);
    run_typed_matches_the_reference::<i8, u64>(4);
    run_typed_matches_the_reference::<bf16, i64>(5);
}

/// A slice of three bytes: its tensor's buffer range is rounded up to 4 bytes.
fn three_bytes() -> OperatorDesc {
    SliceDesc::new(
        TensorDesc::new(DataType::UInt8, &[3]),
        TensorDesc::new(DataType::UInt8, &[3]),
        &[0],
        &[3],
        &[1],
    )
    .into()
}

#[test]
fn typed_slices_hold_the_elements_their_layout_spans() {
    let output: Vec<u8> = context()
        .run_typed_blocking(&three_bytes(), &[(&[7u8, 8, 9]).into()])
        .unwrap();
    assert_eq!(output, [7, 8, 9]);
    // A strided input spans its gaps: sizes [2, 2] with strides [3, 1] span 5 elements.
    let gapped = TensorDesc::new(DataType::Int32, &[2, 2]).with_strides(&[3, 1]);
    assert_eq!(gapped.element_span(), 5);
    let desc: OperatorDesc = SliceDesc::new(
        gapped,
        TensorDesc::new(DataType::Int32, &[2, 2]),
        &[0, 0],
        &[2, 2],
        &[1, 1],
    )
    .into();
    let output: Vec<i32> = context()
        .run_typed_blocking(&desc, &[(&[1, 2, -1, 3, 4]).into()])
        .unwrap();
    assert_eq!(output, [1, 2, 3, 4]);
}

#[test]
fn slices_of_the_wrong_type_length_or_count_are_refused() {
    let desc = three_bytes();
    let run = |inputs: &[Elements]| context().run_typed_blocking::<u8>(&desc, inputs);
    assert_eq!(
        run(&[(&[7i8, 8, 9]).into()]),
        Err(Error::SliceDataType {
            tensor: "input",
            slice: DataType::Int8,
            expected: DataType::UInt8,
        })
    );
    for wrong in [&[7u8, 8][..], &[7, 8, 9, 10]] {
        assert_eq!(
            run(&[wrong.into()]),
            Err(Error::SliceLength {
                tensor: "input",
                given: wrong.len() as u64,
                required: 3,
            })
        );
    }
    assert_eq!(
        run(&[]),
        Err(Error::InputCount {
            expected: 1,
            actual: 0
        })
    );
    assert_eq!(
        context().run_typed_blocking::<i8>(&desc, &[(&[7u8, 8, 9]).into()]),
        Err(Error::SliceDataType {
            tensor: "output",
            slice: DataType::Int8,
            expected: DataType::UInt8,
        })
    );
}
