//! A seeded random-descriptor fuzzer, run for a bounded time by `cargo test`.
//!
//! * Valid descriptors of all seven operators, every data type and index type, ranks 1 to 8,
//!   packed, padded, permuted, broadcast and padded-total layouts, some with an out-of-range
//!   index, some with a size of 0 (empty outputs, no updates, indices into an empty
//!   dimension), against `dml_wgsl::reference` (output, guard bands, status).
//! * Invalid mutations of them (every rule, huge sizes and strides whose products overflow u32
//!   and u64): `validate`, `compile`, `run` and the reference return the same `Err`, never panic.
//! * Misuse of `record`: every one returns `Err` before touching the encoder (an empty
//!   tensor's binding is ignored, whatever it is).
//! * Threads sharing one `Context`.
//! * Devices with lowered limits through `Context::from_device`: each case runs right or is
//!   refused with the limit it needs.
//!
//! Nothing may reach wgpu's uncaptured-error handler. `DML_WGSL_FUZZ_SECONDS` (default 30)
//! sets the time all five tests share (and `fuzz_heavy.rs`'s one); `DML_WGSL_FUZZ_SEED` the first seed. A failure names
//! its seed: rerun with `DML_WGSL_FUZZ_SEED=<seed>` and the failing case comes first.
#![cfg(not(target_arch = "wasm32"))] // native adapters; the browser has tests/web.rs

mod common;

use std::panic::resume_unwind;
use std::sync::atomic::Ordering;

use common::fuzzing::{budget, count_uncaptured_errors, fuzz};
use common::{
    Case, Expect, OperatorKind, Rng, check_on, context, context_with, corrupt_one_index,
    limited_context, limited_contexts, random_case, random_index_type, random_inputs,
};
use dml_wgsl::{
    Context, ContextOptions, DataType, DuplicateMode, Error, OperatorDesc, TensorDesc, reference,
};

/// A random valid case of a random operator, sometimes with one index out of range.
fn valid_case(rng: &mut Rng) -> Case {
    let kind = rng.pick(&OperatorKind::ALL);
    let data_type = rng.pick(&DataType::ALL);
    let index_type = random_index_type(rng);
    let mut case = random_case(rng, kind, data_type, index_type);
    if kind.has_indices() && rng.chance(20) {
        corrupt_one_index(rng, &mut case);
    }
    case
}

/// The GPU through `record` (and sometimes `run`) against the reference.
fn check_valid_case(context: &Context, case: &Case, rng: &mut Rng) -> dml_wgsl::Result<()> {
    check_on(context, &case.desc, &case.slices(), Expect::ByMode)?;
    let exact = !matches!(
        &case.desc,
        OperatorDesc::ScatterElements(d) if d.duplicates == DuplicateMode::AnyUpdate
    ) && !matches!(
        &case.desc,
        OperatorDesc::ScatterNd(d) if d.duplicates == DuplicateMode::AnyUpdate
    );
    if exact && rng.chance(20) {
        let expected = reference::run(&case.desc, &case.slices());
        assert_eq!(
            context.run_blocking(&case.desc, &case.slices()),
            expected,
            "run: {:?}",
            case.desc
        );
    }
    Ok(())
}

#[test]
fn fuzz_valid_descriptors_match_the_reference() {
    // Where the default context stores lone 2-byte elements by 16-bit stores, a context
    // without them keeps the compare-exchange path fuzzed at full limits too.
    let by_words = context_with(ContextOptions::default().with_half_stores(false));
    let contexts = [context(), &by_words];
    let errors: Vec<_> = contexts
        .iter()
        .map(|c| count_uncaptured_errors(c.device()))
        .collect();
    fuzz("valid", budget(0.4), 200, |seed| {
        let mut rng = Rng::new(seed);
        let case = valid_case(&mut rng);
        let context = contexts[rng.range(0, 1) as usize];
        check_valid_case(context, &case, &mut rng).expect("compile and record");
    });
    for errors in errors {
        assert_eq!(errors.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
    }
}

// ---- invalid descriptors ----

fn tensors_mut(desc: &mut OperatorDesc) -> Vec<&mut TensorDesc> {
    match desc {
        OperatorDesc::Slice(d) => vec![&mut d.input, &mut d.output],
        OperatorDesc::Slice1(d) => vec![&mut d.input, &mut d.output],
        OperatorDesc::ScatterElements(d) => {
            vec![&mut d.input, &mut d.indices, &mut d.updates, &mut d.output]
        }
        OperatorDesc::ScatterNd(d) => {
            vec![&mut d.input, &mut d.indices, &mut d.updates, &mut d.output]
        }
        OperatorDesc::Gather(d) => vec![&mut d.input, &mut d.indices, &mut d.output],
        OperatorDesc::GatherElements(d) => vec![&mut d.input, &mut d.indices, &mut d.output],
        OperatorDesc::GatherNd(d) => vec![&mut d.input, &mut d.indices, &mut d.output],
        OperatorDesc::TensorScatter(d) => {
            let mut tensors = vec![&mut d.input, &mut d.updates];
            tensors.extend(d.write_indices.as_mut());
            tensors.push(&mut d.output);
            tensors
        }
        _ => unreachable!("the eight operators"),
    }
}

/// Sizes and strides whose products overflow u32 and u64, and values at the types' ends.
const HUGE: [u32; 5] = [u32::MAX, u32::MAX - 1, 1 << 31, 65536, 65535];

/// Changes one thing of a tensor: rank, a size, the strides, the total size or the type.
fn mutate_tensor(rng: &mut Rng, t: &mut TensorDesc) {
    let rank = t.rank();
    match rng.range(0, 11) {
        0 => {
            t.sizes.push(rng.range(1, 3) as u32);
            if let Some(s) = &mut t.strides {
                s.push(1);
            }
        }
        1 if rank > 1 || rng.chance(20) => {
            t.sizes.pop();
            if let Some(s) = &mut t.strides {
                s.pop();
            }
        }
        2 | 3 if rank == 0 => t.sizes.push(1),
        2 => t.sizes[rng.range(0, rank as u64 - 1) as usize] = 0,
        3 => t.sizes[rng.range(0, rank as u64 - 1) as usize] = rng.pick(&HUGE),
        4 => {
            // Element counts past 2^32 and 2^64.
            let n = rng.range(2, 8) as usize;
            t.sizes = vec![rng.pick(&HUGE); n];
            t.strides = rng.chance(50).then(|| vec![0; n]);
        }
        5 => {
            let mut strides = t
                .effective_strides()
                .iter()
                .map(|&s| s as u32)
                .collect::<Vec<_>>();
            if rng.chance(50) {
                strides.push(1);
            } else {
                strides.pop();
            }
            t.strides = Some(strides);
        }
        6 => {
            let strides = (0..rank).map(|_| rng.pick(&HUGE)).collect::<Vec<_>>();
            t.strides = Some(strides);
        }
        7 => {
            // Broadcast or overlapping: only outputs are refused.
            let stride = rng.range(0, 1) as u32;
            t.strides = Some(vec![stride; rank]);
        }
        8 => {
            let minimum = t.minimum_size_in_bytes();
            t.total_tensor_size_in_bytes = Some(match rng.range(0, 3) {
                0 => minimum.saturating_sub(4),
                1 => minimum + rng.range(1, 3),
                2 => u64::MAX,
                _ => !3,
            });
        }
        9 => t.data_type = rng.pick(&DataType::ALL),
        _ => {
            let n = rng.range(1, 9) as usize;
            t.sizes = (0..n).map(|_| rng.pick(&[1, 2, 3, u32::MAX])).collect();
            t.strides = None;
        }
    }
}

/// A value for a u32 parameter: small, off by one, or huge.
fn some_u32(rng: &mut Rng, around: u32) -> u32 {
    match rng.range(0, 3) {
        0 => rng.range(0, 9) as u32,
        1 => around.wrapping_add(rng.range(0, 2) as u32).wrapping_sub(1),
        _ => rng.pick(&HUGE),
    }
}

/// Changes one of the operator's own parameters.
fn mutate_parameters(rng: &mut Rng, desc: &mut OperatorDesc) {
    fn vector<T: Copy>(rng: &mut Rng, v: &mut Vec<T>, value: T) {
        match rng.range(0, 2) {
            0 => v.push(value),
            1 => {
                v.pop();
            }
            _ if !v.is_empty() => {
                let at = rng.range(0, v.len() as u64 - 1) as usize;
                v[at] = value;
            }
            _ => {}
        }
    }
    match desc {
        OperatorDesc::Slice(d) => {
            let value = some_u32(rng, 1);
            match rng.range(0, 2) {
                0 => vector(rng, &mut d.offsets, value),
                1 => vector(rng, &mut d.sizes, value),
                _ => vector(rng, &mut d.strides, value),
            }
        }
        OperatorDesc::Slice1(d) => match rng.range(0, 2) {
            0 => {
                let value = some_u32(rng, 1);
                vector(rng, &mut d.input_window_offsets, value)
            }
            1 => {
                let value = some_u32(rng, 1);
                vector(rng, &mut d.input_window_sizes, value)
            }
            _ => {
                let value = rng.pick(&[0, i32::MIN, i32::MAX, -1, 2]);
                vector(rng, &mut d.input_window_strides, value)
            }
        },
        OperatorDesc::ScatterElements(d) => d.axis = some_u32(rng, d.input.rank() as u32),
        OperatorDesc::GatherElements(d) => d.axis = some_u32(rng, d.input.rank() as u32),
        OperatorDesc::Gather(d) => {
            if rng.chance(50) {
                d.axis = some_u32(rng, d.input.rank() as u32);
            } else {
                d.index_dimensions = some_u32(rng, d.indices.rank() as u32);
            }
        }
        OperatorDesc::ScatterNd(d) => {
            if rng.chance(50) {
                d.input_dimension_count = some_u32(rng, d.input.rank() as u32);
            } else {
                d.indices_dimension_count = some_u32(rng, d.indices.rank() as u32);
            }
        }
        OperatorDesc::GatherNd(d) => match rng.range(0, 2) {
            0 => d.input_dimension_count = some_u32(rng, d.input.rank() as u32),
            1 => d.indices_dimension_count = some_u32(rng, d.indices.rank() as u32),
            _ => d.batch_dimension_count = some_u32(rng, d.batch_dimension_count.saturating_add(1)),
        },
        OperatorDesc::TensorScatter(d) => match rng.range(0, 2) {
            0 => d.axis = some_u32(rng, d.input.rank() as u32),
            1 => d.write_indices = None,
            _ => {
                d.write_indices = Some(TensorDesc::new(
                    rng.pick(&DataType::ALL),
                    &d.input.sizes[..1],
                ))
            }
        },
        _ => unreachable!("the eight operators"),
    }
}

/// Whether the reference and the GPU can afford to run `desc` here.
fn small(desc: &OperatorDesc) -> bool {
    let mut tensors = desc
        .inputs()
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>();
    tensors.push(desc.output());
    tensors
        .iter()
        .all(|t| t.size_in_bytes() <= 1 << 20 && t.element_count() <= 1 << 16)
}

/// `validate`, `compile`, `run` and the reference agree on a descriptor that may be invalid:
/// the same `Err`, or (valid and small) the reference's output.
fn check_possibly_invalid(desc: &OperatorDesc, rng: &mut Rng) -> bool {
    let validated = desc.validate();
    let compiled = context().compile(desc);
    let inputs: Vec<Vec<u8>> = if validated.is_ok() && small(desc) {
        random_inputs(rng, desc)
    } else {
        desc.inputs().iter().map(|_| vec![0u8; 64]).collect()
    };
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    match validated {
        Err(e) => {
            assert_eq!(compiled.err(), Some(e.clone()), "compile: {desc:?}");
            assert_eq!(reference::run(desc, &slices), Err(e.clone()), "{desc:?}");
            assert_eq!(context().run_blocking(desc, &slices), Err(e), "{desc:?}");
            false
        }
        Ok(()) if small(desc) => {
            compiled.expect("a small valid descriptor compiles");
            let case = Case {
                desc: desc.clone(),
                inputs,
            };
            check_valid_case(context(), &case, rng).expect("compile and record");
            true
        }
        Ok(()) => {
            // Too large to run here: compile may refuse it only for the device's limits.
            if let Err(e) = compiled {
                assert!(
                    matches!(
                        e,
                        Error::TensorTooLarge { .. }
                            | Error::LimitExceeded { .. }
                            | Error::LayoutTooWide { .. }
                    ),
                    "{e} for {desc:?}"
                );
            }
            assert!(context().run_blocking(desc, &[]).is_err());
            false
        }
    }
}

#[test]
fn fuzz_invalid_descriptors_are_refused_without_panicking() {
    let errors = count_uncaptured_errors(context().device());
    let mut still_valid = 0;
    let count = fuzz("invalid", budget(0.2), 500, |seed| {
        let mut rng = Rng::new(seed);
        let mut desc = valid_case(&mut rng).desc;
        for _ in 0..rng.range(1, 3) {
            if rng.chance(60) {
                let mut tensors = tensors_mut(&mut desc);
                let at = rng.range(0, tensors.len() as u64 - 1) as usize;
                mutate_tensor(&mut rng, tensors[at]);
            } else {
                mutate_parameters(&mut rng, &mut desc);
            }
        }
        still_valid += check_possibly_invalid(&desc, &mut rng) as u64;
    });
    eprintln!("fuzz invalid: {still_valid} of {count} mutations stayed valid and ran");
    assert!(still_valid < count, "no mutation was refused");
    assert_eq!(errors.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
}

/// Regression (fuzzing): Slice, Slice1, GatherElements and GatherND accepted sizes whose
/// element count wrapped to 0 in u64.
#[test]
fn every_operator_refuses_element_counts_that_overflow() {
    let mut rng = Rng::new(1);
    for kind in OperatorKind::ALL {
        for tensor in 0..4 {
            let mut desc = random_case(&mut rng, kind, DataType::Float32, DataType::Int32).desc;
            let mut tensors = tensors_mut(&mut desc);
            let Some(t) = tensors.get_mut(tensor) else {
                continue;
            };
            t.sizes = vec![65536; 4];
            t.strides = Some(vec![0; 4]);
            let error = desc.validate().expect_err("2^64 elements");
            assert!(
                matches!(
                    error,
                    Error::TooManyElements {
                        elements: u64::MAX,
                        ..
                    }
                ),
                "{error} for {kind:?}"
            );
            check_possibly_invalid(&desc, &mut rng);
        }
    }
}

// ---- misuse of record ----

fn storage_buffer(device: &wgpu::Device, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("fuzz"),
        size,
        usage,
        mapped_at_creation: false,
    })
}

/// Every way of binding a compiled operator wrongly: each returns `Err` and leaves the
/// encoder untouched (it still submits cleanly). An empty tensor's binding is ignored, so
/// only the count of bindings can be wrong for it: anything bound in its place records.
fn check_record_misuse(context: &Context, foreign: &wgpu::Device, rng: &mut Rng) {
    let case = valid_case(rng);
    let operator = context.compile(&case.desc).expect("compile");
    let device = context.device();
    let alignment = device.limits().min_storage_buffer_offset_alignment as u64;
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
    let sizes = operator.input_sizes();
    let output_size = operator.output_size();
    let inputs: Vec<wgpu::Buffer> = sizes
        .iter()
        .map(|&s| storage_buffer(device, s, storage))
        .collect();
    let output = storage_buffer(device, output_size, storage);
    let good: Vec<wgpu::BufferBinding> = inputs
        .iter()
        .map(wgpu::Buffer::as_entire_buffer_binding)
        .collect();
    let record = |inputs: &[wgpu::BufferBinding], output: wgpu::BufferBinding| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let result = operator.record(&mut encoder, inputs, output);
        context.queue().submit([encoder.finish()]);
        result
    };
    // An input to bind wrongly (a tensor that is not empty), if there is one.
    let bound: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] > 0).collect();
    let which = (!bound.is_empty()).then(|| rng.pick(&bound));
    let output_bound = output_size > 0;
    let mut cases: Vec<(&str, dml_wgsl::Result<()>)> = Vec::new();
    // Input counts.
    cases.push((
        "no inputs",
        record(&[], wgpu::Buffer::as_entire_buffer_binding(&output)),
    ));
    let mut more = good.clone();
    more.push(wgpu::Buffer::as_entire_buffer_binding(&output));
    cases.push((
        "one input too many",
        record(&more, wgpu::Buffer::as_entire_buffer_binding(&output)),
    ));
    // Sizes and offsets.
    if let Some(which) = which {
        let too_small = storage_buffer(device, sizes[which].saturating_sub(4).max(4), storage);
        if sizes[which] > 4 {
            let mut bad = good.clone();
            bad[which] = wgpu::Buffer::as_entire_buffer_binding(&too_small);
            cases.push((
                "input buffer too small",
                record(&bad, wgpu::Buffer::as_entire_buffer_binding(&output)),
            ));
        }
        let shifted = storage_buffer(device, sizes[which] + alignment, storage);
        let mut bad = good.clone();
        bad[which] = wgpu::BufferBinding {
            buffer: &shifted,
            offset: alignment,
            size: std::num::NonZeroU64::new(sizes[which].saturating_sub(4).max(4)),
        };
        if sizes[which] > 4 {
            cases.push((
                "input binding too small",
                record(&bad, wgpu::Buffer::as_entire_buffer_binding(&output)),
            ));
        }
        if alignment > 4 {
            let mut bad = good.clone();
            bad[which] = wgpu::BufferBinding {
                buffer: &shifted,
                offset: 4,
                size: None,
            };
            cases.push((
                "misaligned offset",
                record(&bad, wgpu::Buffer::as_entire_buffer_binding(&output)),
            ));
        }
    }
    if output_bound {
        let past_end = wgpu::BufferBinding {
            buffer: &output,
            offset: output.size() + alignment,
            size: None,
        };
        cases.push(("offset past the end", record(&good, past_end)));
        // Usage.
        let unusable = storage_buffer(
            device,
            output_size,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        cases.push((
            "output without STORAGE",
            record(&good, wgpu::Buffer::as_entire_buffer_binding(&unusable)),
        ));
    }
    // Aliasing: an input in the output's buffer, other than a scatter's input in place.
    if let (Some(which), true) = (which, output_bound) {
        let shared = storage_buffer(
            device,
            (output_size + sizes[which]).next_multiple_of(alignment) + alignment,
            storage,
        );
        let mut bad = good.clone();
        bad[which] = wgpu::BufferBinding {
            buffer: &shared,
            offset: output_size.next_multiple_of(alignment),
            size: std::num::NonZeroU64::new(sizes[which]),
        };
        let output_in_shared = wgpu::BufferBinding {
            buffer: &shared,
            offset: 0,
            size: std::num::NonZeroU64::new(output_size),
        };
        cases.push(("input aliasing the output", record(&bad, output_in_shared)));
    }
    // Timestamps: a query set of the wrong kind, or indices past its end.
    let occlusion = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Occlusion,
        count: 2,
    });
    let timestamps = |set, beginning, end| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let result = operator.record_with_timestamps(
            &mut encoder,
            &good,
            wgpu::Buffer::as_entire_buffer_binding(&output),
            Some(wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: beginning,
                end_of_pass_write_index: end,
            }),
        );
        context.queue().submit([encoder.finish()]);
        result
    };
    cases.push((
        "occlusion queries",
        timestamps(&occlusion, Some(0), Some(1)),
    ));
    if device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: None,
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        cases.push((
            "timestamp index past the end",
            timestamps(&set, Some(0), Some(2)),
        ));
        cases.push((
            "equal timestamp indices",
            timestamps(&set, Some(1), Some(1)),
        ));
        cases.push(("no timestamp index", timestamps(&set, None, None)));
    }
    // A buffer of another device.
    let stranger = storage_buffer(foreign, output_size.max(4), storage);
    if output_bound {
        cases.push((
            "output of another device",
            record(&good, wgpu::Buffer::as_entire_buffer_binding(&stranger)),
        ));
    }
    for (what, result) in cases {
        assert!(
            result.is_err(),
            "{what}: record returned Ok for {:?}",
            case.desc
        );
    }
    // And the right bindings still work.
    record(&good, wgpu::Buffer::as_entire_buffer_binding(&output)).expect("the right bindings");
    // So does anything in an empty tensor's place: here a buffer of another device.
    if bound.len() < sizes.len() || !output_bound {
        let mut ignored = good.clone();
        for i in (0..sizes.len()).filter(|&i| sizes[i] == 0) {
            ignored[i] = wgpu::Buffer::as_entire_buffer_binding(&stranger);
        }
        let output = if output_bound { &output } else { &stranger };
        record(&ignored, wgpu::Buffer::as_entire_buffer_binding(output))
            .expect("empty tensors' bindings are ignored");
    }
}

#[test]
fn fuzz_misuse_of_record_returns_errors() {
    // Two devices of one wgpu instance (buffers of another instance's devices are beyond
    // what wgpu itself can check: it panics on their ids).
    let [home, foreign] = <[Context; 2]>::try_from(limited_contexts(2, |_| {})).unwrap();
    let errors = count_uncaptured_errors(home.device());
    let foreign_errors = count_uncaptured_errors(foreign.device());
    fuzz("record", budget(0.1), 50, |seed| {
        check_record_misuse(&home, foreign.device(), &mut Rng::new(seed));
    });
    assert_eq!(errors.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
    assert_eq!(
        foreign_errors.load(Ordering::SeqCst),
        0,
        "on the other device"
    );
}

// ---- threads ----

#[test]
fn fuzz_threads_sharing_one_context() {
    let errors = count_uncaptured_errors(context().device());
    let time = budget(0.2);
    let threads: Vec<_> = (0..4u64)
        .map(|thread| {
            std::thread::spawn(move || {
                // Each thread its own seeds: 1000003 apart.
                let offset = thread * 1_000_003;
                fuzz(&format!("thread {thread}"), time, 20, |seed| {
                    let mut rng = Rng::new(seed + offset);
                    let case = valid_case(&mut rng);
                    check_valid_case(context(), &case, &mut rng).expect("compile and record");
                })
            })
        })
        .collect();
    for thread in threads {
        if let Err(panic) = thread.join() {
            resume_unwind(panic);
        }
    }
    assert_eq!(errors.load(Ordering::SeqCst), 0, "uncaptured wgpu errors");
}

// ---- lowered limits ----

/// Devices whose limits are far below the adapter's: tiny bindings (every larger tensor split
/// into windows) and dispatch grids, small workgroups, a downlevel device's 4 storage
/// buffers, WebGPU's default 8 storage buffers with 256-byte windows (bound a slab at a
/// time), a coarse offset alignment.
fn limited_devices() -> Vec<(&'static str, Context)> {
    vec![
        (
            "tiny bindings and grids",
            limited_context(|l| {
                l.max_storage_buffer_binding_size = 4096;
                l.max_buffer_size = l.max_buffer_size.min(1 << 20);
                l.max_compute_workgroups_per_dimension = 4;
                l.max_compute_invocations_per_workgroup = 64;
                l.max_compute_workgroup_size_x = 64;
                l.min_storage_buffer_offset_alignment = 256;
            }),
        ),
        (
            "downlevel",
            limited_context(|l| {
                l.max_storage_buffers_per_shader_stage = 4;
                l.max_storage_buffer_binding_size = 1 << 16;
                l.max_compute_invocations_per_workgroup = 128;
                l.max_compute_workgroup_size_x = 128;
            }),
        ),
        (
            "256-byte windows bound a slab at a time",
            limited_context(|l| {
                l.max_storage_buffer_binding_size = 256;
                l.max_storage_buffers_per_shader_stage = 8;
                l.min_storage_buffer_offset_alignment = 256;
            }),
        ),
        (
            "one workgroup a dimension",
            limited_context(|l| {
                l.max_storage_buffer_binding_size = 1024;
                l.max_compute_workgroups_per_dimension = 1;
                l.max_compute_invocations_per_workgroup = 32;
                l.max_compute_workgroup_size_x = 32;
            }),
        ),
    ]
}

#[test]
fn fuzz_devices_with_lowered_limits_run_right_or_name_the_limit() {
    let devices = limited_devices();
    let errors: Vec<_> = devices
        .iter()
        .map(|(_, c)| count_uncaptured_errors(c.device()))
        .collect();
    let mut ran = vec![0u64; devices.len()];
    let mut refused = vec![0u64; devices.len()];
    fuzz("limits", budget(0.3), 100, |seed| {
        let mut rng = Rng::new(seed);
        let which = rng.range(0, devices.len() as u64 - 1) as usize;
        let (name, context) = &devices[which];
        let case = valid_case(&mut rng);
        match check_valid_case(context, &case, &mut rng) {
            Ok(()) => ran[which] += 1,
            Err(Error::TensorTooLarge { .. } | Error::LimitExceeded { .. }) => refused[which] += 1,
            Err(e) => panic!("{name}: {e} for {:?}", case.desc),
        }
    });
    for (i, (name, _)) in devices.iter().enumerate() {
        eprintln!(
            "fuzz limits: {name}: {} ran, {} refused",
            ran[i], refused[i]
        );
        assert!(ran[i] > 0, "{name}: no case ran");
        assert_eq!(
            errors[i].load(Ordering::SeqCst),
            0,
            "{name}: uncaptured wgpu errors"
        );
    }
}

#[test]
fn a_downlevel_device_names_the_storage_buffer_limit_for_in_order_scatters() {
    let (_, downlevel) = limited_devices().swap_remove(1);
    let mut rng = Rng::new(7);
    let case = common::random_scatter_elements(
        &mut rng,
        DataType::Float64,
        DataType::Int32,
        false,
        DuplicateMode::AnyUpdate,
    );
    let error = downlevel
        .compile(&case.desc)
        .expect_err("5 storage buffers");
    assert!(
        matches!(
            error,
            Error::LimitExceeded {
                needed: 5,
                limit_name: "max_storage_buffers_per_shader_stage",
                limit: 4,
                ..
            }
        ),
        "{error}"
    );
}
