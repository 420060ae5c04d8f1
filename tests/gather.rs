//! Gather, GatherElements and GatherND on the GPU: hand-checked cases, random differential
//! tests against the reference, round trips through the scatters, out-of-range indices
//! (reported or clamped), and the kernels' row and block paths. The validation rules are in
//! `validation.rs`.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, OperatorKind, Rng, check_against_reference, check_out_of_range, context, le_bytes,
    random_gather, random_gather_elements, random_gather_nd, random_index, random_inputs,
    write_indices,
};
use dml_wgsl::{
    DataType, Error, GatherDesc, GatherElementsDesc, GatherNdDesc, OperatorDesc,
    ScatterElementsDesc, ScatterNdDesc, TensorDesc, reference,
};

fn run<T: bytemuck::Pod>(desc: &OperatorDesc, inputs: &[Vec<u8>]) -> Vec<T> {
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let out = context().run_blocking(desc, &slices).expect("run");
    bytemuck::cast_slice(&out).to_vec()
}

// ---- hand-checked cases ----

#[test]
fn gather_elements_page_example() {
    // DirectML's DML_GATHER_ELEMENTS page: output[y, x] = input[indices[y, x], x].
    let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[3, 3]),
        TensorDesc::new(DataType::UInt32, &[2, 3]),
        TensorDesc::new(DataType::Float32, &[2, 3]),
        0, // axis
    ));
    let inputs = [
        le_bytes(&[1f32, 2., 3., 4., 5., 6., 7., 8., 9.]),
        le_bytes(&[1u32, 2, 0, 2, 0, 0]),
    ];
    assert_eq!(run::<f32>(&desc, &inputs), [4., 8., 3., 7., 2., 3.]);
}

#[test]
fn gather_elements_along_the_last_axis_with_negative_indices() {
    let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
        TensorDesc::new(DataType::Int16, &[2, 4]),
        TensorDesc::new(DataType::Int64, &[2, 3]),
        TensorDesc::new(DataType::Int16, &[2, 3]),
        1, // axis
    ));
    let inputs = [
        le_bytes(&[10i16, 11, 12, 13, -20, -21, -22, -23]),
        le_bytes(&[-1i64, 0, 2, 3, -4, -3]),
    ];
    assert_eq!(run::<i16>(&desc, &inputs), [13, 10, 12, -23, -20, -21]);
}

#[test]
fn gather_picks_columns_with_negative_indices() {
    // output[a, j] = input[a, indices[j]] along axis 1.
    let desc = OperatorDesc::Gather(GatherDesc::new(
        TensorDesc::new(DataType::Float32, &[2, 3]),
        TensorDesc::new(DataType::Int32, &[1, 2]),
        TensorDesc::new(DataType::Float32, &[2, 2]),
        1, // axis
        1, // index_dimensions
    ));
    let inputs = [le_bytes(&[1f32, 2., 3., 4., 5., 6.]), le_bytes(&[-1i32, 0])];
    assert_eq!(run::<f32>(&desc, &inputs), [3., 1., 6., 4.]);
}

#[test]
fn gather_with_two_index_dimensions_crops_a_leading_1() {
    // Gathered sizes {1} ++ {2,2} ++ {2} right-aligned into rank 3: {2,2,2}.
    let desc = OperatorDesc::Gather(GatherDesc::new(
        TensorDesc::new(DataType::UInt8, &[1, 3, 2]),
        TensorDesc::new(DataType::UInt64, &[1, 2, 2]),
        TensorDesc::new(DataType::UInt8, &[2, 2, 2]),
        1, // axis
        2, // index_dimensions
    ));
    let inputs = [
        le_bytes(&[1u8, 2, 3, 4, 5, 6, 0, 0]),
        le_bytes(&[0u64, 1, 1, 2]),
    ];
    assert_eq!(run::<u8>(&desc, &inputs), [1, 2, 3, 4, 3, 4, 5, 6]);
}

#[test]
fn gather_with_no_index_dimensions_takes_one_slice() {
    let desc = OperatorDesc::Gather(GatherDesc::new(
        TensorDesc::new(DataType::Int32, &[3, 2]),
        TensorDesc::new(DataType::Int32, &[1, 1]),
        TensorDesc::new(DataType::Int32, &[1, 2]),
        0, // axis
        0, // index_dimensions
    ));
    let inputs = [le_bytes(&[1i32, 2, 3, 4, 5, 6]), le_bytes(&[-2i32])];
    assert_eq!(run::<i32>(&desc, &inputs), [3, 4]);
}

#[test]
fn gather_nd_picks_elements_and_rows() {
    // ONNX's GatherND examples, as DML_GATHER_ND.
    let elements = OperatorDesc::GatherNd(GatherNdDesc::new(
        TensorDesc::new(DataType::Int32, &[2, 2]),
        TensorDesc::new(DataType::Int64, &[2, 2]),
        TensorDesc::new(DataType::Int32, &[1, 2]),
        2, // input_dimension_count
        2, // indices_dimension_count
        0, // batch_dimension_count
    ));
    let inputs = [le_bytes(&[0i32, 1, 2, 3]), le_bytes(&[0i64, 0, 1, 1])];
    assert_eq!(run::<i32>(&elements, &inputs), [0, 3]);
    let rows = OperatorDesc::GatherNd(GatherNdDesc::new(
        TensorDesc::new(DataType::Int32, &[2, 2]),
        TensorDesc::new(DataType::Int64, &[2, 1]),
        TensorDesc::new(DataType::Int32, &[2, 2]),
        2, // input_dimension_count
        2, // indices_dimension_count
        0, // batch_dimension_count
    ));
    let inputs = [le_bytes(&[0i32, 1, 2, 3]), le_bytes(&[1i64, -2])];
    assert_eq!(run::<i32>(&rows, &inputs), [2, 3, 0, 1]);
}

/// Regression (fuzzing): an output that crops the gathered dimensions' leading 1s once read
/// the same row for every element and missed out-of-range indices.
#[test]
fn gather_nd_output_that_crops_leading_ones_gathers_the_right_rows() {
    let input: Vec<f32> = (1..=12).map(|v| v as f32).collect();
    let nd = |indices: &[u32], output: &[u32]| {
        OperatorDesc::GatherNd(GatherNdDesc::new(
            TensorDesc::new(DataType::Float32, &[3, 4]),
            TensorDesc::new(DataType::UInt32, indices),
            TensorDesc::new(DataType::Float32, output),
            2, // input_dimension_count
            indices.len() as u32,
            0, // batch_dimension_count
        ))
    };
    for output in [&[4][..], &[1, 4]] {
        let desc = nd(&[1, 1], output);
        let inputs = [le_bytes(&input), le_bytes(&[2u32])];
        assert_eq!(
            run::<f32>(&desc, &inputs),
            [9., 10., 11., 12.],
            "{output:?}"
        );
        check_against_reference(&desc, &inputs);
    }
    let desc = nd(&[1, 2, 1], &[2, 4]);
    let inputs = vec![le_bytes(&input), le_bytes(&[0u32, 7])];
    assert_eq!(
        check_out_of_range(&desc, &inputs),
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![0, 1, 0],
            value: 7,
            bound: 3
        }
    );
}

#[test]
fn gather_nd_with_a_batch_dimension() {
    // output[b, t] = input[b, indices[b, 0], t]: batch 0 takes row 1, batch 1 row 0.
    let desc = OperatorDesc::GatherNd(GatherNdDesc::new(
        TensorDesc::new(DataType::Float32, &[2, 2, 2]),
        TensorDesc::new(DataType::Int32, &[1, 2, 1]),
        TensorDesc::new(DataType::Float32, &[1, 2, 2]),
        3, // input_dimension_count
        2, // indices_dimension_count
        1, // batch_dimension_count
    ));
    let inputs = [
        le_bytes(&[0f32, 1., 2., 3., 4., 5., 6., 7.]),
        le_bytes(&[1i32, 0]),
    ];
    assert_eq!(run::<f32>(&desc, &inputs), [2., 3., 4., 5.]);
    // With 2-tuples after the batch: output[b] = input[b, i, j].
    let desc = OperatorDesc::GatherNd(GatherNdDesc::new(
        TensorDesc::new(DataType::Float32, &[2, 2, 2]),
        TensorDesc::new(DataType::UInt32, &[1, 2, 2]),
        TensorDesc::new(DataType::Float32, &[1, 1, 2]),
        3, // input_dimension_count
        2, // indices_dimension_count
        1, // batch_dimension_count
    ));
    let inputs = [
        le_bytes(&[0f32, 1., 2., 3., 4., 5., 6., 7.]),
        le_bytes(&[1u32, 1, 0, 1]),
    ];
    assert_eq!(run::<f32>(&desc, &inputs), [3., 5.]);
}

// ---- random differential tests ----

type Generator = fn(&mut Rng, DataType, DataType) -> Case;

fn differential(seed: u64, generate: Generator) {
    let mut rng = Rng::new(seed);
    for data_type in DataType::ALL {
        for case in 0..10 {
            let case = generate(&mut rng, data_type, dml_wgsl::INDEX_TYPES[case % 4]);
            check_against_reference(&case.desc, &case.inputs);
        }
    }
}

#[test]
fn random_gathers_match_the_reference() {
    differential(31, random_gather);
}

#[test]
fn random_gather_elements_match_the_reference() {
    differential(32, random_gather_elements);
}

#[test]
fn random_gather_nd_match_the_reference() {
    differential(33, random_gather_nd);
}

#[test]
fn narrow_output_rows_gather_whole_words() {
    let mut rng = Rng::new(34);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::Int16,
    ] {
        let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
            TensorDesc::new(data_type, &[16, 24]),
            TensorDesc::new(DataType::Int32, &[9, 24]),
            TensorDesc::new(data_type, &[9, 24]),
            0, // axis
        ));
        let mut inputs = random_inputs(&mut rng, &desc);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
            random_index(&mut rng, 16, DataType::Int32)
        });
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn odd_narrow_output_rows_gather_whole_words_across_rows() {
    // Output rows that are not whole words: a thread's word spans the end of one row and the
    // start of the next, and the tensor's last word is partly someone else's bytes.
    let mut rng = Rng::new(35);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::Int16,
    ] {
        for row in [1, 3, 5, 7, 1027, 2049] {
            let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
                TensorDesc::new(data_type, &[16, row]),
                TensorDesc::new(DataType::Int64, &[9, row]),
                TensorDesc::new(data_type, &[9, row]),
                0,
            ));
            let mut inputs = random_inputs(&mut rng, &desc);
            let rows: Vec<i128> = (0..9)
                .map(|_| random_index(&mut rng, 16, DataType::Int64))
                .collect();
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| rows[c[0] as usize]);
            check_against_reference(&desc, &inputs);
            let mut inputs = random_inputs(&mut rng, &desc);
            write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
                random_index(&mut rng, 16, DataType::Int64)
            });
            check_against_reference(&desc, &inputs);
            // Gather of whole rows (axis 0 of a [16, row] table, 5 indices).
            let desc = OperatorDesc::Gather(GatherDesc::new(
                TensorDesc::new(data_type, &[16, row]),
                TensorDesc::new(DataType::Int32, &[1, 5]),
                TensorDesc::new(data_type, &[5, row]),
                0,
                1,
            ));
            let mut inputs = random_inputs(&mut rng, &desc);
            write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
                random_index(&mut rng, 16, DataType::Int32)
            });
            check_against_reference(&desc, &inputs);
        }
    }
}

/// A gather reads its input while it writes its output: no sharing, and the error says so
/// (not the scatters' in-place rule about equal layouts).
#[test]
fn a_gather_input_may_not_share_the_output_buffer() {
    let device = context().device();
    let alignment = device.limits().min_storage_buffer_offset_alignment as u64;
    let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Int32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[4, 4]),
        0, // axis
    ));
    let operator = context().compile(&desc).unwrap();
    let buffer = |size: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        })
    };
    let (shared, indices) = (buffer(alignment + 64), buffer(64));
    for offset in [0, alignment] {
        let mut encoder = device.create_command_encoder(&Default::default());
        let error = operator
            .record(
                &mut encoder,
                &[
                    wgpu::BufferBinding {
                        buffer: &shared,
                        offset,
                        size: std::num::NonZeroU64::new(64),
                    },
                    indices.as_entire_buffer_binding(),
                ],
                wgpu::BufferBinding {
                    buffer: &shared,
                    offset: 0,
                    size: std::num::NonZeroU64::new(64),
                },
            )
            .unwrap_err();
        assert_eq!(
            error,
            Error::AliasedBindings {
                tensor: "input",
                other: "output",
                rule: "this input may not share a buffer with the output",
            }
        );
    }
}

// ---- round trips ----

#[test]
fn gather_elements_of_a_scatter_with_unique_indices_returns_the_updates() {
    let mut rng = Rng::new(35);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Int64,
    ] {
        for axis in 0..3u32 {
            let sizes = [5u32, 6, 7];
            let mut indices_sizes = sizes;
            indices_sizes[axis as usize] = 3;
            let indices = TensorDesc::new(DataType::Int32, &indices_sizes);
            let scatter = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
                TensorDesc::new(data_type, &sizes),
                indices.clone(),
                TensorDesc::new(data_type, &indices_sizes),
                TensorDesc::new(data_type, &sizes),
                axis,
            ));
            let mut inputs = random_inputs(&mut rng, &scatter);
            // Each line along the axis: a prefix of its own permutation (unique targets).
            let bound = sizes[axis as usize];
            let mut lines: std::collections::HashMap<Vec<u32>, Vec<i128>> = Default::default();
            write_indices(&indices, &mut inputs[1], |c| {
                let mut line = c.to_vec();
                line[axis as usize] = 0;
                let p = lines.entry(line).or_insert_with(|| {
                    let mut p: Vec<i128> = (0..bound as i128).collect();
                    rng.shuffle(&mut p);
                    p
                });
                p[c[axis as usize] as usize]
            });
            let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
            let scattered = context().run_blocking(&scatter, &slices).unwrap();
            let gather = OperatorDesc::GatherElements(GatherElementsDesc::new(
                TensorDesc::new(data_type, &sizes),
                indices,
                TensorDesc::new(data_type, &indices_sizes),
                axis,
            ));
            let gathered = context()
                .run_blocking(&gather, &[&scattered, &inputs[1]])
                .unwrap();
            // Element bytes only: the rounding of the tensors to 4 bytes holds no element.
            let n =
                indices_sizes.iter().product::<u32>() as usize * data_type.size_in_bytes() as usize;
            assert_eq!(gathered[..n], inputs[2][..n], "{data_type:?} axis {axis}");
        }
    }
}

#[test]
fn gather_nd_of_a_scatter_nd_with_unique_tuples_returns_the_updates() {
    let mut rng = Rng::new(36);
    for data_type in [
        DataType::Int8,
        DataType::UInt16,
        DataType::Float32,
        DataType::Float64,
    ] {
        // 6 distinct 2-tuples into a [4, 5, 8] tensor, each addressing a row of 8.
        let input = TensorDesc::new(data_type, &[4, 5, 8]);
        let indices = TensorDesc::new(DataType::Int64, &[6, 2]);
        let rows = TensorDesc::new(data_type, &[6, 8]);
        let scatter = OperatorDesc::ScatterNd(ScatterNdDesc::new(
            input.clone(),
            indices.clone(),
            rows.clone(),
            input.clone(),
            3, // input_dimension_count
            2, // indices_dimension_count
        ));
        let mut inputs = random_inputs(&mut rng, &scatter);
        let mut cells: Vec<i128> = (0..20).collect();
        rng.shuffle(&mut cells);
        write_indices(&indices, &mut inputs[1], |c| {
            let cell = cells[c[0] as usize];
            if c[1] == 0 { cell / 5 } else { cell % 5 - 5 }
        });
        let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
        let scattered = context().run_blocking(&scatter, &slices).unwrap();
        let gather = OperatorDesc::GatherNd(GatherNdDesc::new(
            input, indices, rows, 3, // input_dimension_count
            2, // indices_dimension_count
            0, // batch_dimension_count
        ));
        let gathered = context()
            .run_blocking(&gather, &[&scattered, &inputs[1]])
            .unwrap();
        let n = 6 * 8 * data_type.size_in_bytes() as usize;
        assert_eq!(gathered[..n], inputs[2][..n], "{data_type:?}");
    }
}

// ---- out-of-range indices ----

#[test]
fn out_of_range_gather_indices_write_zero_and_are_reported() {
    let mut rng = Rng::new(37);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::UInt64,
    ] {
        for &index_type in dml_wgsl::INDEX_TYPES {
            let desc = OperatorDesc::GatherElements(
                GatherElementsDesc::new(
                    TensorDesc::new(data_type, &[5, 8]),
                    TensorDesc::new(index_type, &[3, 8]),
                    TensorDesc::new(data_type, &[3, 8]),
                    0, // axis
                )
                .with_out_of_range(dml_wgsl::OutOfRange::Report),
            );
            let mut inputs = random_inputs(&mut rng, &desc);
            let bad = if index_type.is_signed() { -6 } else { 5 };
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
                (1, 2) | (2, 7) => bad,
                _ => random_index(&mut rng, 5, index_type),
            });
            let e = check_out_of_range(&desc, &inputs);
            assert_eq!(
                e,
                Error::IndexOutOfRange {
                    tensor: "indices",
                    position: vec![1, 2],
                    value: bad,
                    bound: 5
                }
            );
        }
    }
}

#[test]
fn out_of_range_gather_and_gather_nd_name_the_index_tensor_position() {
    let mut rng = Rng::new(38);
    // Gather along axis 1 of [3, 4] with indices [1, 5]: output [3, 5].
    let desc = OperatorDesc::Gather(
        GatherDesc::new(
            TensorDesc::new(DataType::Float32, &[3, 4]),
            TensorDesc::new(DataType::Int64, &[1, 5]),
            TensorDesc::new(DataType::Float32, &[3, 5]),
            1, // axis
            1, // index_dimensions
        )
        .with_out_of_range(dml_wgsl::OutOfRange::Report),
    );
    let mut inputs = random_inputs(&mut rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
        [0i128, 3, 1 << 33, -4, 9][c[1] as usize]
    });
    let e = check_out_of_range(&desc, &inputs);
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![0, 2],
            value: 1 << 33,
            bound: 4
        }
    );
    // GatherND rows of 16 bytes (moved 16 bytes a thread): the tuple component is named.
    let desc = OperatorDesc::GatherNd(
        GatherNdDesc::new(
            TensorDesc::new(DataType::Int32, &[3, 4, 8]),
            TensorDesc::new(DataType::UInt32, &[5, 2]),
            TensorDesc::new(DataType::Int32, &[5, 8]),
            3, // input_dimension_count
            2, // indices_dimension_count
            0, // batch_dimension_count
        )
        .with_out_of_range(dml_wgsl::OutOfRange::Report),
    );
    let mut inputs = random_inputs(&mut rng, &desc);
    let tuples = [[0i128, 0], [2, 3], [1, 1], [2, 4], [3, 0]];
    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
        tuples[c[0] as usize][c[1] as usize]
    });
    let e = check_out_of_range(&desc, &inputs);
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![3, 1],
            value: 4,
            bound: 4
        }
    );
}

// ---- column blocks and long rows ----

#[test]
fn gathering_along_an_outer_axis_in_column_blocks_or_row_major_matches_the_reference() {
    // 4- and 8-byte elements walk column blocks, 1- and 2-byte ones rows in order, a word of
    // elements a thread: two bad indices share one, neither its first element, and the first
    // of them is the one reported.
    let mut rng = Rng::new(39);
    for data_type in [
        DataType::Int8,
        DataType::UInt16,
        DataType::Float32,
        DataType::Float64,
    ] {
        let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
            TensorDesc::new(data_type, &[40, 256]),
            TensorDesc::new(DataType::Int32, &[37, 256]),
            TensorDesc::new(data_type, &[37, 256]),
            0, // axis
        ));
        let mut inputs = random_inputs(&mut rng, &desc);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
            (c[0] as i128 * 7 + c[1] as i128) % 40 - 20
        });
        check_against_reference(&desc, &inputs);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
            (30, 3) => 40,
            (5, 201) => -41,
            (5, 203) => 45,
            _ => (c[0] as i128 * 7 + c[1] as i128) % 40,
        });
        let e = check_out_of_range(&desc, &inputs);
        assert_eq!(
            e,
            Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![5, 201],
                value: -41,
                bound: 40
            }
        );
    }
}

#[test]
fn long_rows_gather_in_coalesced_blocks() {
    let mut rng = Rng::new(40);
    let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
        TensorDesc::new(DataType::Float32, &[12, 2048]),
        TensorDesc::new(DataType::UInt64, &[9, 2048]),
        TensorDesc::new(DataType::Float32, &[9, 2048]),
        0, // axis
    ));
    let mut inputs = random_inputs(&mut rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
        (c[0] as i128 * 5 + c[1] as i128) % 12
    });
    check_against_reference(&desc, &inputs);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
        if c == [3, 1000] {
            12
        } else {
            (c[1] as i128) % 12
        }
    });
    let e = check_out_of_range(&desc, &inputs);
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            tensor: "indices",
            position: vec![3, 1000],
            value: 12,
            bound: 12
        }
    );
}

// ---- clamped indices ----

#[test]
fn clamped_gather_indices_read_the_nearest_end_and_report_nothing() {
    let mut rng = Rng::new(90);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Int32,
        DataType::Float64,
    ] {
        for (k, &index_type) in dml_wgsl::INDEX_TYPES.iter().enumerate() {
            for kind in [
                OperatorKind::Gather,
                OperatorKind::GatherElements,
                OperatorKind::GatherNd,
            ] {
                let mut case = match kind {
                    OperatorKind::Gather => common::random_gather(&mut rng, data_type, index_type),
                    OperatorKind::GatherElements => {
                        random_gather_elements(&mut rng, data_type, index_type)
                    }
                    _ => random_gather_nd(&mut rng, data_type, index_type),
                };
                for _ in 0..=k {
                    common::corrupt_one_index(&mut rng, &mut case);
                }
                common::set_out_of_range(&mut case.desc, dml_wgsl::OutOfRange::Clamp);
                let slices = case.slices();
                assert_eq!(
                    reference::run_with_status(&case.desc, &slices).unwrap().1,
                    Ok(())
                );
                check_against_reference(&case.desc, &case.inputs);
            }
        }
    }
    // By hand: rows -100, 7, -1 and 2 of 4 rows read rows 0, 3, 3 and 2.
    let desc: OperatorDesc = dml_wgsl::GatherDesc::new(
        TensorDesc::new(DataType::Int32, &[4, 2]),
        TensorDesc::new(DataType::Int64, &[1, 4]),
        TensorDesc::new(DataType::Int32, &[4, 2]),
        0,
        1,
    )
    .with_out_of_range(dml_wgsl::OutOfRange::Clamp)
    .into();
    let input = [10i32, 11, 20, 21, 30, 31, 40, 41];
    let rows = [-100i64, 7, -1, 2];
    let out: Vec<i32> = context()
        .run_typed_blocking(&desc, &[(&input).into(), (&rows).into()])
        .unwrap();
    assert_eq!(out, [10, 11, 40, 41, 40, 41, 30, 31]);
}
