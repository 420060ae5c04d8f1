//! Slice and Slice1 on the GPU: the seed page's examples, random differential tests
//! against the reference over every data type, rank and layout (the validation rules are in
//! `validation.rs`).
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Expect, Rng, Worked, check_against_reference, check_on, context, context_with, random_inputs,
    random_layout, random_slice, random_slice1, slice_cap, slice_page_example,
};
use dml_wgsl::{
    ContextOptions, CopyMethod, DataType, OperatorDesc, Slice1Desc, SliceDesc, TensorDesc,
};

fn seed_input() -> Vec<f32> {
    (1..=16).map(|v| v as f32).collect()
}

fn run_f32(desc: &OperatorDesc, input: &[f32]) -> Vec<f32> {
    let out = context()
        .run_blocking(desc, &[bytemuck::cast_slice(input)])
        .expect("run");
    bytemuck::cast_slice(&out).to_vec()
}

fn check_worked(worked: Worked) {
    let out = context()
        .run_blocking(&worked.case.desc, &worked.case.slices())
        .expect("run");
    assert_eq!(bytemuck::cast_slice::<u8, f32>(&out), worked.output);
    check_against_reference(&worked.case.desc, &worked.case.inputs);
}

#[test]
fn seed_example_1_contiguous_slice() {
    check_worked(slice_page_example(false));
}

#[test]
fn seed_example_2_strided_slice() {
    check_worked(slice_page_example(true));
}

#[test]
fn slice1_negative_stride_reverses_the_window() {
    // Window rows 1..4, columns 0..4 walked backwards with stride -2: columns 3 and 1.
    let desc = OperatorDesc::Slice1(Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[4, 4]),
        TensorDesc::new(DataType::Float32, &[3, 2]),
        &[1, 0],
        &[3, 4],
        &[1, -2],
    ));
    assert_eq!(run_f32(&desc, &seed_input()), [8., 6., 12., 10., 16., 14.]);
}

#[test]
fn slice1_odd_window_with_negative_stride_starts_at_its_last_element() {
    let desc = OperatorDesc::Slice1(Slice1Desc::new(
        TensorDesc::new(DataType::Float32, &[16]),
        TensorDesc::new(DataType::Float32, &[3]),
        &[2],
        &[5],
        &[-2],
    ));
    // Window holds 3..=7; walked from 7 backwards in steps of 2.
    assert_eq!(run_f32(&desc, &seed_input()), [7., 5., 3.]);
}

#[test]
fn random_slices_match_the_reference_for_every_data_type() {
    let mut rng = Rng::new(1);
    for data_type in DataType::ALL {
        for _ in 0..14 {
            let case = random_slice(&mut rng, data_type);
            check_against_reference(&case.desc, &case.inputs);
        }
    }
}

#[test]
fn random_slice1s_match_the_reference_for_every_data_type() {
    let mut rng = Rng::new(2);
    for data_type in DataType::ALL {
        for _ in 0..14 {
            let case = random_slice1(&mut rng, data_type);
            check_against_reference(&case.desc, &case.inputs);
        }
    }
}

#[test]
fn every_rank_from_1_to_8_matches_the_reference() {
    let mut rng = Rng::new(3);
    for rank in 1..=8usize {
        for data_type in [
            DataType::UInt8,
            DataType::Float16,
            DataType::Int32,
            DataType::Float64,
        ] {
            let sizes: Vec<u32> = (0..rank)
                .map(|_| rng.range(2, slice_cap(rank).max(2)) as u32)
                .collect();
            let input_sizes: Vec<u32> = sizes.iter().map(|&s| s * 2 + 1).collect();
            if input_sizes.iter().map(|&s| s as u64).product::<u64>() > 400_000 {
                continue;
            }
            let desc = OperatorDesc::Slice(SliceDesc::new(
                random_layout(&mut rng, data_type, &input_sizes, true),
                random_layout(&mut rng, data_type, &sizes, false),
                &vec![1; rank],
                &sizes,
                &vec![2; rank],
            ));
            let inputs = random_inputs(&mut rng, &desc);
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn contiguous_rows_of_narrow_elements_match_the_reference() {
    // Rows whose bytes are 16-byte aligned move as vec4 units; odd offsets cannot.
    let mut rng = Rng::new(4);
    for data_type in DataType::ALL {
        for (columns, offset) in [(64u32, 0u32), (64, 16), (48, 1), (40, 8), (7, 0)] {
            let desc = OperatorDesc::Slice(SliceDesc::new(
                TensorDesc::new(data_type, &[9, 128]),
                TensorDesc::new(data_type, &[5, columns]),
                &[2, offset],
                &[5, columns],
                &[1, 1],
            ));
            let inputs = random_inputs(&mut rng, &desc);
            check_against_reference(&desc, &inputs);
        }
    }
}

#[test]
fn contiguous_runs_of_narrow_elements_with_ragged_totals_keep_the_bytes_past_the_output() {
    // A run of 1- or 2-byte elements whose byte length is not a whole number of words: by
    // kernel, copied as words with the last word merged (the guard band checks the bytes
    // after the output's last element, in that word, are untouched); by copy command, a wide
    // body and a narrow tail. The 1-D runs are 1024, 2048 and 4096 whole words and 1 to 3
    // bytes (whole blocks of `strided_copy_blocks` on devices whose workgroups have up to
    // 256 threads).
    let mut rng = Rng::new(45);
    let contexts = [CopyMethod::Kernel, CopyMethod::CopyBufferToBuffer]
        .map(|method| context_with(ContextOptions::default().with_copy_method(method)));
    let two_d = [
        // (input sizes, first row, rows): whole rows, the bases on a word.
        ([9u32, 129u32], 4u32, 5u32),
        ([9, 129], 0, 9),
        ([1023, 1025], 0, 1023),
        // Off a word (rows from 1): the per-element path, for contrast.
        ([9, 129], 1, 7),
    ];
    for data_type in [
        DataType::Int8,
        DataType::UInt8,
        DataType::Float16,
        DataType::UInt16,
    ] {
        let mut descs = Vec::new();
        for (input, first, rows) in two_d {
            descs.push(OperatorDesc::Slice(SliceDesc::new(
                TensorDesc::new(data_type, &input),
                TensorDesc::new(data_type, &[rows, input[1]]),
                &[first, 0],
                &[rows, input[1]],
                &[1, 1],
            )));
        }
        let per_word = 4 / data_type.size_in_bytes();
        for (words, extra) in [(1024u32, 1u32), (2048, 2), (4096, 3)] {
            let length = words * per_word + (extra % per_word).max(1);
            descs.push(OperatorDesc::Slice(SliceDesc::new(
                TensorDesc::new(data_type, &[length + per_word]),
                TensorDesc::new(data_type, &[length]),
                &[per_word],
                &[length],
                &[1],
            )));
        }
        for desc in &descs {
            let inputs = random_inputs(&mut rng, desc);
            let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
            for on in &contexts {
                check_on(on, desc, &slices, Expect::Exact).expect("compile and record");
            }
        }
    }
}

#[test]
fn broadcast_input_fills_the_output() {
    let mut rng = Rng::new(5);
    for data_type in [
        DataType::UInt8,
        DataType::Int16,
        DataType::Float32,
        DataType::UInt64,
    ] {
        let desc = OperatorDesc::Slice(SliceDesc::new(
            TensorDesc::new(data_type, &[300, 6]).with_strides(&[0, 1]),
            TensorDesc::new(data_type, &[300, 3]),
            &[0, 1],
            &[300, 3],
            &[1, 2],
        ));
        let inputs = random_inputs(&mut rng, &desc);
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn large_outputs_cross_many_workgroups() {
    let mut rng = Rng::new(6);
    for data_type in [DataType::UInt8, DataType::Float32] {
        let desc = OperatorDesc::Slice1(Slice1Desc::new(
            TensorDesc::new(data_type, &[600, 700]),
            TensorDesc::new(data_type, &[599, 700]),
            &[1, 0],
            &[599, 700],
            &[1, -1],
        ));
        let inputs = random_inputs(&mut rng, &desc);
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn long_strided_rows_copy_in_coalesced_blocks() {
    // Output rows of 2048 elements read every other input element: not widened, whole blocks.
    let mut rng = Rng::new(7);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
    ] {
        let desc = OperatorDesc::Slice(SliceDesc::new(
            TensorDesc::new(data_type, &[6, 4100]),
            TensorDesc::new(data_type, &[3, 2048]),
            &[1, 3],
            &[3, 2048],
            &[2, 2],
        ));
        let inputs = random_inputs(&mut rng, &desc);
        check_against_reference(&desc, &inputs);
    }
}

#[test]
fn cropped_planes_copy_with_a_fixed_step_per_thread() {
    // NCHW crops: [A, B, C] planes, rows shorter and longer than a workgroup, planes that end
    // inside a thread's block, one unit a thread and four, every unit width the planes take.
    let mut rng = Rng::new(8);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
    ] {
        for (input, offsets, sizes) in [
            ([3, 5, 9, 9], [0, 1, 1, 1], [3, 4, 7, 7]),
            ([2, 3, 40, 301], [1, 0, 1, 2], [1, 3, 38, 298]),
            ([1, 2, 700, 3], [0, 0, 5, 1], [1, 2, 690, 2]),
            // 2^20 units: four a thread (smaller copies take one a thread).
            ([4, 256, 34, 34], [0, 0, 1, 2], [4, 256, 32, 32]),
        ] {
            let desc = OperatorDesc::Slice(SliceDesc::new(
                TensorDesc::new(data_type, &input),
                TensorDesc::new(data_type, &sizes),
                &offsets,
                &sizes,
                &[1; 4],
            ));
            let inputs = random_inputs(&mut rng, &desc);
            check_against_reference(&desc, &inputs);
        }
    }
}
