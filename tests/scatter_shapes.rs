//! ScatterElements and ScatterND by the shape of their rows, each shape's kernel path
//! against the reference: narrow rows in whole words (and per element where they are not),
//! odd narrow rows in runs stitched into whole words, column blocks along an outer axis, long
//! rows in coalesced blocks, and along an inner axis a workgroup a row (in place, and out of
//! place copying each row as it scatters). The rest of the scatters are in `scatter.rs`.
//! The inner-axis tests make several devices at once: on NVIDIA's Vulkan driver that can
//! deadlock inside the driver (as `pipelines.rs` says), so there run this file with
//! `--test-threads=1`.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use common::{
    Case, Expect, Rng, check_against_reference, check_on, check_out_of_range,
    check_scatter_any_update, corrupt_one_index, random_index, set_out_of_range, write_indices,
};
use dml_wgsl::{
    ContextOptions, DataType, DuplicateMode, Error, OperatorDesc, OutOfRange, ScatterElementsDesc,
    TensorDesc,
};

#[test]
fn narrow_rows_scatter_whole_words_and_fall_back_per_element() {
    // Packed rows of 1- and 2-byte elements: each thread takes a word's worth of neighbours.
    let mut rng = Rng::new(28);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::UInt16,
    ] {
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[16, 24]),
            TensorDesc::new(DataType::Int64, &[9, 24]),
            TensorDesc::new(data_type, &[9, 24]),
            TensorDesc::new(data_type, &[16, 24]),
            0, // axis
        ));
        let indices = desc.inputs()[1].1.clone();
        // Whole rows to distinct targets (whole-word stores).
        let mut rows: Vec<i128> = (0..16).collect();
        rng.shuffle(&mut rows);
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize]);
        check_against_reference(&desc, &inputs);
        // Every element its own row, duplicates included (per-element fallback).
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |_| {
            random_index(&mut rng, 16, DataType::Int64)
        });
        check_scatter_any_update(&desc, &inputs);
        // An out-of-range index inside a word's worth: the rest of that word still lands.
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(&indices, &mut inputs[1], |c| {
            if c == [4, 5] { 16 } else { rows[c[0] as usize] }
        });
        let e = check_out_of_range(&desc, &inputs);
        assert!(
            matches!(
                e,
                Error::IndexOutOfRange {
                    value: 16,
                    bound: 16,
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn odd_narrow_rows_scatter_in_runs_stitched_into_whole_words() {
    // Rows of 1- and 2-byte elements that are not whole words: a thread's word of neighbours
    // lands at any offset within the output's words, and neighbouring threads' runs meet
    // inside words (rows long enough to span several workgroups, and rows of a few elements).
    let mut rng = Rng::new(29);
    for data_type in [
        DataType::UInt8,
        DataType::Int8,
        DataType::Float16,
        DataType::UInt16,
    ] {
        for row in [1, 3, 5, 7, 1027, 2049] {
            let (n, k) = (12, 7);
            let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
                TensorDesc::new(data_type, &[n, row]),
                TensorDesc::new(DataType::Int64, &[k, row]),
                TensorDesc::new(data_type, &[k, row]),
                TensorDesc::new(data_type, &[n, row]),
                0,
            ));
            let indices = desc.inputs()[1].1.clone();
            // Whole rows to distinct targets: every run offset within a word.
            let mut rows: Vec<i128> = (0..n as i128).collect();
            rng.shuffle(&mut rows);
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize]);
            check_against_reference(&desc, &inputs);
            // Whole rows, some onto the same target (each element takes one of its updates).
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| rows[c[0] as usize % 3]);
            check_scatter_any_update(&desc, &inputs);
            // Every element its own row, duplicates included (no runs).
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |_| {
                random_index(&mut rng, n, DataType::Int64)
            });
            check_scatter_any_update(&desc, &inputs);
            // An out-of-range index inside a run: the rest of the row still lands.
            let bad = [k / 2, row / 2];
            let mut inputs = common::random_inputs(&mut rng, &desc);
            write_indices(&indices, &mut inputs[1], |c| {
                if c == bad {
                    n as i128
                } else {
                    rows[c[0] as usize]
                }
            });
            let e = check_out_of_range(&desc, &inputs);
            assert!(
                matches!(
                    e,
                    Error::IndexOutOfRange {
                        value: 12,
                        bound: 12,
                        ..
                    }
                ),
                "{e}"
            );
        }
    }
}

#[test]
fn scattering_along_an_outer_axis_in_column_blocks_matches_the_reference() {
    // Rows of 256 elements split into blocks of 32 thread groups: the tiled walk. Float16
    // walks rows in order where it is stored 16 bits at a time (the default context where
    // the device has SHADER_F16), so a context without 16-bit stores checks its blocks.
    let by_words = common::context_with(ContextOptions::default().with_half_stores(false));
    let mut rng = Rng::new(29);
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Float32,
        DataType::Int64,
    ] {
        for duplicates in [DuplicateMode::AnyUpdate, DuplicateMode::InOrder] {
            let desc = OperatorDesc::ScatterElements(
                ScatterElementsDesc::new(
                    TensorDesc::new(data_type, &[40, 256]),
                    TensorDesc::new(DataType::Int64, &[37, 256]),
                    TensorDesc::new(data_type, &[37, 256]),
                    TensorDesc::new(data_type, &[40, 256]),
                    0, // axis
                )
                .with_duplicates(duplicates),
            );
            // Diagonal targets (unique), then one bad index late in row-major order and
            // one earlier in a later column block: the earlier row-major one is reported.
            let mut inputs = common::random_inputs(&mut rng, &desc);
            let p: Vec<i128> = {
                let mut p: Vec<i128> = (0..40).collect();
                rng.shuffle(&mut p);
                p
            };
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
                (p[c[0] as usize] + c[1] as i128) % 40
            });
            check_against_reference(&desc, &inputs);
            let on_words = |inputs: &[Vec<u8>]| {
                let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                check_on(&by_words, &desc, &slices, Expect::Exact).expect("compile and record");
            };
            on_words(&inputs);
            write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
                (30, 3) => 40,
                (5, 200) => -41,
                _ => (p[c[0] as usize] + c[1] as i128) % 40,
            });
            on_words(&inputs);
            let e = check_out_of_range(&desc, &inputs);
            assert_eq!(
                e,
                Error::IndexOutOfRange {
                    tensor: "indices",
                    position: vec![5, 200],
                    value: -41,
                    bound: 40
                }
            );
        }
    }
}

#[test]
fn long_rows_scatter_in_coalesced_blocks() {
    // Rows of 2048 4-byte elements: whole blocks of a workgroup's units.
    let mut rng = Rng::new(30);
    for data_type in [DataType::Float32, DataType::Int32] {
        let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[12, 2048]),
            TensorDesc::new(DataType::Int32, &[9, 2048]),
            TensorDesc::new(data_type, &[9, 2048]),
            TensorDesc::new(data_type, &[12, 2048]),
            0, // axis
        ));
        let mut inputs = common::random_inputs(&mut rng, &desc);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
            (c[0] as i128 * 5 + c[1] as i128) % 12 - 6
        });
        check_against_reference(&desc, &inputs);
        write_indices(desc.inputs()[1].1, &mut inputs[1], |c| match (c[0], c[1]) {
            (7, 3) => 12,
            (2, 1500) => -13,
            _ => (c[0] as i128 * 5 + c[1] as i128) % 12,
        });
        let e = check_out_of_range(&desc, &inputs);
        assert_eq!(
            e,
            Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![2, 1500],
                value: -13,
                bound: 12
            }
        );
    }
}

// ---- a workgroup a row, in place ----

#[test]
fn narrow_scatters_along_an_inner_axis_in_place_take_a_workgroup_a_row_and_keep_the_other_units() {
    // In place, 1- and 2-byte units along an inner axis take a workgroup a row
    // (`scatter_rows_in_place`) where a row has at least an eighth of its length in updates:
    // the row read from the output, scattered into and written back, its end words merged.
    // Every target at most once a row (a random permutation's first columns, negative half
    // the time where the index type is signed), so the result is exact; rows that are and
    // are not whole words, updates covering every column or an eighth and more of the row
    // (the row kernel) or fewer (the plain pass), outer rows the updates do not reach, rank
    // 3, rows past 4096 units. Workgroups of 1024 threads where the
    // adapter allows, and of 256; the copy method does not matter in place.
    let contexts = [
        common::limited_context(|_| {}),
        common::limited_context(|limits| {
            limits.max_compute_invocations_per_workgroup = 256;
            limits.max_compute_workgroup_size_x = 256;
        }),
    ];
    contexts[1].set_copy_method(dml_wgsl::CopyMethod::Kernel);
    let mut rng = Rng::new(62);
    let shapes: [(&[u32], &[u32], u32); 9] = [
        (&[7, 703], &[7, 60], 1),
        (&[9, 700], &[9, 700], 1),
        // Past 4096 units: workgroup memory in steps of 1024 units.
        (&[3, 4099], &[3, 3000], 1),
        (&[9, 701], &[9, 701], 1),
        (&[7, 702], &[5, 650], 1),
        (&[7, 703], &[7, 120], 1),
        (&[8, 1031], &[8, 1000], 1),
        (&[5, 6, 520], &[5, 4, 300], 2),
        (&[3, 4, 1027], &[3, 4, 1027], 2),
    ];
    for types in [
        (DataType::Int8, DataType::Int64),
        (DataType::UInt8, DataType::Int32),
        (DataType::Float16, DataType::Int64),
        (DataType::Int16, DataType::UInt32),
    ] {
        for on in &contexts {
            for &(output, updates, axis) in &shapes {
                let case = distinct_inner_axis_case(&mut rng, types, output, updates, axis);
                common::check_in_place_with(on, &case.desc, &case.inputs, Expect::Exact);
            }
        }
    }
}

/// A ScatterElements along `axis` whose indices are, along each line of `axis`, the first
/// columns of a random permutation (negative half the time where the index type is signed):
/// no two updates aim at one element.
fn distinct_inner_axis_case(
    rng: &mut Rng,
    types: (DataType, DataType),
    output: &[u32],
    updates: &[u32],
    axis: u32,
) -> Case {
    let mut case = inner_axis_case(rng, types, output, updates, axis);
    let indices = case.desc.inputs()[1].1.clone();
    let bound = output[axis as usize];
    let mut lines = std::collections::HashMap::new();
    write_indices(&indices, &mut case.inputs[1], |c| {
        let mut line = c.to_vec();
        let column = std::mem::take(&mut line[axis as usize]);
        let permutation = lines.entry(line).or_insert_with(|| {
            let mut columns: Vec<u32> = (0..bound).collect();
            rng.shuffle(&mut columns);
            columns
        });
        let index = permutation[column as usize] as i128;
        if types.1.is_signed() && rng.chance(50) {
            index - bound as i128
        } else {
            index
        }
    });
    case
}

// ---- copying as it scatters ----

/// A ScatterElements of random in-range indices (duplicates included) along `axis`.
fn inner_axis_case(
    rng: &mut Rng,
    (data_type, index_type): (DataType, DataType),
    output: &[u32],
    updates: &[u32],
    axis: u32,
) -> Case {
    let tensor = TensorDesc::new(data_type, output);
    let indices = TensorDesc::new(index_type, updates);
    let desc = OperatorDesc::ScatterElements(ScatterElementsDesc::new(
        tensor.clone(),
        indices.clone(),
        TensorDesc::new(data_type, updates),
        tensor,
        axis,
    ));
    let mut inputs = common::random_inputs(rng, &desc);
    let bound = output[axis as usize];
    write_indices(&indices, &mut inputs[1], |_| {
        random_index(rng, bound, index_type)
    });
    Case { desc, inputs }
}

#[test]
fn scatters_along_an_inner_axis_copy_each_row_as_they_scatter() {
    // On a context that copies by kernel, out of place: a workgroup a row copies it and
    // scatters into it (`scatter_copy_rows`). Rows of 1 to 4 workgroups, the outer
    // dimensions merged (rank 2) or not (rank 3), outer rows the updates do not reach (only
    // copied), both index widths with negative indices, an out-of-range index reported and
    // clamped; Float16 takes the separate copy and must agree.
    // Workgroups of 1024 threads where the adapter allows, and of 256.
    let contexts = [
        common::limited_context(|_| {}),
        common::limited_context(|limits| {
            limits.max_compute_invocations_per_workgroup = 256;
            limits.max_compute_workgroup_size_x = 256;
        }),
    ];
    let mut rng = Rng::new(61);
    let shapes: [(&[u32], &[u32], u32); 5] = [
        (&[37, 700], &[37, 350], 1),
        (&[40, 600], &[25, 300], 1),
        (&[9, 40, 30], &[9, 40, 30], 1),
        (&[5, 6, 520], &[5, 4, 300], 2),
        (&[3, 4, 1024], &[3, 4, 1024], 2),
    ];
    for types in [
        (DataType::Float32, DataType::Int64),
        (DataType::Int32, DataType::Int32),
        (DataType::UInt32, DataType::UInt64),
        (DataType::Float16, DataType::Int64),
    ] {
        for fused in &contexts {
            fused.set_copy_method(dml_wgsl::CopyMethod::Kernel);
            for &(output, updates, axis) in &shapes {
                let case = inner_axis_case(&mut rng, types, output, updates, axis);
                let slices = case.slices();
                common::check_on(fused, &case.desc, &slices, Expect::AnyUpdate)
                    .expect("compile and record");
            }
            let mut case = inner_axis_case(&mut rng, types, &[37, 700], &[37, 350], 1);
            corrupt_one_index(&mut rng, &mut case);
            common::check_on(fused, &case.desc, &case.slices(), Expect::AnyUpdate)
                .expect("compile and record");
            set_out_of_range(&mut case.desc, OutOfRange::Clamp);
            common::check_on(fused, &case.desc, &case.slices(), Expect::AnyUpdate)
                .expect("compile and record");
        }
    }
}
