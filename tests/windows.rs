//! Tensors past the binding window: every operator on devices whose
//! `max_storage_buffer_binding_size` is a few hundred bytes, so that the random cases' tensors
//! straddle many windows, checked bit for bit against the reference with guard bands.
//! Two devices: one binds every window at once, one allows WebGPU's default 8 storage buffers
//! a stage, so that windows are bound a slab at a time over several dispatches.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::HashSet;
use std::sync::OnceLock;

use common::*;
use dml_wgsl::{Context, DataType, DuplicateMode, Error, OperatorDesc, Reduction, reference};

/// The binding limit of the slab device: every tensor past 256 bytes is split.
const WINDOW: u64 = 256;

/// (what the device does with windows, the context): 1 KiB windows, as many bound at once as
/// the adapter allows (lavapipe: 32 storage buffers a stage, enough for every window of most
/// cases); 256-byte windows with WebGPU's default 8 storage buffers a stage, bound a slab at
/// a time over several dispatches.
fn split_contexts() -> &'static [(&'static str, Context)] {
    static CONTEXTS: OnceLock<Vec<(&'static str, Context)>> = OnceLock::new();
    CONTEXTS.get_or_init(|| {
        let wide = limited_context(|l| l.max_storage_buffer_binding_size = 4 * WINDOW);
        let slabs = limited_context(|l| {
            l.max_storage_buffer_binding_size = WINDOW;
            l.max_storage_buffers_per_shader_stage = 8;
        });
        vec![
            ("1 KiB windows", wide),
            ("256-byte windows, 8 bindings", slabs),
        ]
    })
}

/// The tensors of `case` larger than one window (the in-order scratch as "winners").
fn split_tensors(case: &Case) -> Vec<&'static str> {
    let mut split: Vec<&'static str> = case
        .desc
        .inputs()
        .into_iter()
        .chain([("output", case.desc.output())])
        .filter(|(_, t)| t.size_in_bytes() > WINDOW)
        .map(|(name, _)| name)
        .collect();
    // The operator's own scratch: one word per output element where updates go in order
    // (8-byte elements always), and one per update for an in-order reduction by lists (the
    // sort's scratch never fits these tiny windows). In order, integer reductions of 1 to 4
    // bytes need no scratch, and float Min and Max of 2 or 4 bytes only the heads.
    if let Some((reduction, duplicates)) = scatter_options(&case.desc) {
        let data_type = case.desc.output().data_type;
        let narrow = data_type.size_in_bytes() < 8;
        let reducing = reduction != Reduction::None;
        let order_free = reducing && narrow && !data_type.is_float();
        let ties = reducing && narrow && matches!(reduction, Reduction::Min | Reduction::Max);
        let in_order = (duplicates == DuplicateMode::InOrder && !order_free) || !narrow;
        if in_order && case.desc.output().element_count() * 4 > WINDOW {
            split.push(if reducing { "heads" } else { "winners" });
        }
        if in_order && reducing && !ties && case.desc.inputs()[2].1.element_count() * 4 > WINDOW {
            split.push("links");
        }
    }
    split
}

/// Whether `desc` is a reduction applied in order, which needs every window bound at once.
fn in_order_reduction(desc: &OperatorDesc) -> bool {
    matches!(scatter_options(desc), Some((reduction, duplicates))
        if reduction != Reduction::None
            && (duplicates == DuplicateMode::InOrder || desc.output().data_type.size_in_bytes() == 8))
}

/// Random cases of the operator `kind` at every element width, each checked on both split devices;
/// every tensor of the operator must have been split in some case.
fn check_operator_split(kind: OperatorKind, seed: u64, corrupt: bool) {
    let mut tensors: Vec<&str> = vec!["input", "output"];
    if kind.has_indices() {
        tensors.push("indices");
    }
    if matches!(
        kind,
        OperatorKind::ScatterElements | OperatorKind::ScatterNd
    ) {
        tensors.extend(["updates", "winners", "heads", "links"]);
    }
    let mut rng = Rng::new(seed);
    let mut split_seen = HashSet::new();
    let mut checked = 0;
    for data_type in [
        DataType::UInt8,
        DataType::Float16,
        DataType::Int32,
        DataType::Float64,
    ] {
        let mut found = 0;
        for _ in 0..300 {
            let index_type = random_index_type(&mut rng);
            let mut case = random_case(&mut rng, kind, data_type, index_type);
            let split = split_tensors(&case);
            // A few cases a width, and any case splitting a tensor none has split yet.
            let new = split.iter().any(|t| !split_seen.contains(t));
            if split.is_empty() || (found >= 3 && !new) {
                continue;
            }
            if corrupt {
                corrupt_one_index(&mut rng, &mut case);
            }
            for (what, context) in split_contexts() {
                match check_on(context, &case.desc, &case.slices(), Expect::ByMode) {
                    Ok(()) => {}
                    // Slabs cannot fold a target's updates: refused, naming the limit.
                    Err(Error::LimitExceeded { limit_name, .. })
                        if in_order_reduction(&case.desc)
                            && limit_name.starts_with("max_storage_buffers_per_shader_stage") => {}
                    Err(e) => panic!("{what}: {e} for {:?}", case.desc),
                }
            }
            split_seen.extend(split);
            checked += 1;
            found += 1;
            if found >= 3 && tensors.iter().all(|t| split_seen.contains(t)) {
                break;
            }
        }
    }
    assert!(
        checked >= 12,
        "{kind:?}: only {checked} cases split a tensor"
    );
    for tensor in tensors {
        assert!(
            split_seen.contains(tensor),
            "{kind:?}: no case split the {tensor}"
        );
    }
}

#[test]
fn slices_match_the_reference_with_tensors_split_into_windows() {
    check_operator_split(OperatorKind::Slice, 1, false);
    check_operator_split(OperatorKind::Slice1, 2, false);
}

#[test]
fn scatter_elements_match_the_reference_with_tensors_split_into_windows() {
    check_operator_split(OperatorKind::ScatterElements, 3, false);
}

#[test]
fn scatter_nd_matches_the_reference_with_tensors_split_into_windows() {
    check_operator_split(OperatorKind::ScatterNd, 4, false);
}

#[test]
fn gathers_match_the_reference_with_tensors_split_into_windows() {
    check_operator_split(OperatorKind::Gather, 5, false);
    check_operator_split(OperatorKind::GatherElements, 6, false);
    check_operator_split(OperatorKind::GatherNd, 7, false);
}

#[test]
fn out_of_range_indices_are_reported_at_their_position_when_tensors_are_split() {
    for (seed, kind) in [
        OperatorKind::ScatterElements,
        OperatorKind::ScatterNd,
        OperatorKind::Gather,
        OperatorKind::GatherElements,
        OperatorKind::GatherNd,
    ]
    .into_iter()
    .enumerate()
    {
        check_operator_split(kind, 100 + seed as u64, true);
    }
}

/// Records `operator` once per entry of `runs` into one encoder and submits it: each run reads
/// the input buffers with `indices` (one of two index buffers) at input `at`.
fn record_runs(
    context: &Context,
    operator: &dml_wgsl::CompiledOperator,
    inputs: &[wgpu::Buffer],
    at: usize,
    runs: &[&wgpu::Buffer],
    output: &wgpu::Buffer,
) {
    let mut encoder = context.device().create_command_encoder(&Default::default());
    for indices in runs {
        let bindings: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(i, b)| if i == at { *indices } else { b }.as_entire_buffer_binding())
            .collect();
        operator
            .record(&mut encoder, &bindings, output.as_entire_buffer_binding())
            .unwrap();
    }
    context.queue().submit([encoder.finish()]);
}

#[test]
fn each_execution_reports_its_own_indices_when_tensors_are_split() {
    use wgpu::util::DeviceExt;
    // The status words are cleared by each execution's last pass (the first of its slabs),
    // not by a clear command: one operator run again and again, in separate submissions and
    // several in one encoder, reports exactly what its latest execution met.
    let mut rng = Rng::new(11);
    let contexts = [("unsplit", context())]
        .into_iter()
        .chain(split_contexts().iter().map(|(what, c)| (*what, c)));
    for (what, context) in contexts {
        // The slab device binds 8 storage buffers: cases needing more windows than that run a
        // step over several dispatches (and in-order reductions are refused there).
        let slabs = what.contains("8 bindings");
        for kind in OperatorKind::ALL.into_iter().filter(|k| k.has_indices()) {
            let (clean, bad) = (0..5000)
                .find_map(|_| {
                    let case = random_case(&mut rng, kind, DataType::Float32, DataType::Int64);
                    let windows: u64 = case
                        .desc
                        .inputs()
                        .into_iter()
                        .chain([("output", case.desc.output())])
                        .map(|(_, t)| t.size_in_bytes().div_ceil(WINDOW).max(1))
                        .sum();
                    let mut bad = case.clone();
                    corrupt_one_index(&mut rng, &mut bad);
                    (split_tensors(&case).len() >= 2
                        && !(slabs && (in_order_reduction(&case.desc) || windows <= 8))
                        && reference::run(&case.desc, &case.slices()).is_ok()
                        && reference::run(&bad.desc, &bad.slices()).is_err())
                    .then_some((case, bad))
                })
                .unwrap_or_else(|| panic!("{what}: no {kind:?} case splits its tensors"));
            let error = reference::run(&bad.desc, &bad.slices()).unwrap_err();
            let at = index_input(&clean.desc).unwrap();
            let operator = context.compile(&clean.desc).unwrap();
            let (inputs, output) = upload(context, &operator, &clean.inputs);
            let bad_indices =
                context
                    .device()
                    .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: None,
                        contents: &bad.inputs[at],
                        usage: wgpu::BufferUsages::STORAGE,
                    });
            let good_indices = &inputs[at];
            let expected = |runs: &[&wgpu::Buffer]| {
                if std::ptr::eq(*runs.last().unwrap(), &bad_indices) {
                    Err(error.clone())
                } else {
                    Ok(())
                }
            };
            for runs in [
                &[&bad_indices][..],
                &[good_indices],
                &[&bad_indices, &bad_indices],
                &[good_indices, &bad_indices],
                &[&bad_indices, good_indices],
                &[good_indices, good_indices],
            ] {
                record_runs(context, &operator, &inputs, at, runs, &output);
                assert_eq!(
                    operator.check_status_blocking(),
                    expected(runs),
                    "{what}, {kind:?}, {} runs, bad last: {}",
                    runs.len(),
                    std::ptr::eq(*runs.last().unwrap(), &bad_indices)
                );
            }
        }
    }
}

#[test]
fn run_matches_the_reference_with_tensors_split_into_windows() {
    let mut rng = Rng::new(8);
    for kind in OperatorKind::ALL {
        let case = loop {
            let case = random_case(&mut rng, kind, DataType::Float32, DataType::Int64);
            // (In-order reductions need every window bound: the slab device refuses them.)
            if split_tensors(&case).len() >= 2 && !in_order_reduction(&case.desc) {
                break case;
            }
        };
        for (_, context) in split_contexts() {
            pollster::block_on(check::check_run_on(
                context,
                &case.desc,
                &case.slices(),
                Expect::ByMode,
            ));
        }
    }
}

#[test]
fn in_place_scatter_with_a_split_output_updates_the_input_buffer() {
    use wgpu::util::DeviceExt;
    let mut rng = Rng::new(9);
    let contexts = [("unsplit", context())]
        .into_iter()
        .chain(split_contexts().iter().map(|(what, c)| (*what, c)));
    for (what, context) in contexts {
        for data_type in [DataType::UInt8, DataType::Float32, DataType::Int64] {
            let case = loop {
                let Case { desc, mut inputs } = random_scatter_elements(
                    &mut rng,
                    data_type,
                    DataType::Int32,
                    false,
                    DuplicateMode::InOrder,
                );
                let OperatorDesc::ScatterElements(mut d) = desc else {
                    unreachable!()
                };
                d.input = d.output.clone();
                inputs[0] = rng.bytes(d.input.size_in_bytes() as usize);
                if d.output.size_in_bytes() > 2 * WINDOW {
                    break Case {
                        desc: d.into(),
                        inputs,
                    };
                }
            };
            let expected = reference::run(&case.desc, &case.slices()).unwrap();
            let device = context.device();
            let operator = context.compile(&case.desc).unwrap();
            let guard = guard_size_on(context) as usize;
            let mut data = vec![SENTINEL; guard * 2 + case.inputs[0].len()];
            data[guard..guard + case.inputs[0].len()].copy_from_slice(&case.inputs[0]);
            let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
            let tensor = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &data,
                usage,
            });
            let others: Vec<wgpu::Buffer> = case.inputs[1..]
                .iter()
                .map(|contents| {
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: None,
                        contents,
                        usage,
                    })
                })
                .collect();
            let in_place = wgpu::BufferBinding {
                buffer: &tensor,
                offset: guard as u64,
                size: std::num::NonZeroU64::new(case.inputs[0].len() as u64),
            };
            let mut bindings = vec![in_place.clone()];
            bindings.extend(others.iter().map(|b| b.as_entire_buffer_binding()));
            let readback = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: data.len() as u64,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let mut encoder = device.create_command_encoder(&Default::default());
            operator.record(&mut encoder, &bindings, in_place).unwrap();
            encoder.copy_buffer_to_buffer(&tensor, 0, &readback, 0, data.len() as u64);
            context.queue().submit([encoder.finish()]);
            let got = pollster::block_on(check::read_back(device, &readback));
            assert!(got[..guard].iter().all(|&b| b == SENTINEL), "{what}");
            assert!(
                got[guard + expected.len()..].iter().all(|&b| b == SENTINEL),
                "{what}"
            );
            // Bytes no element covers (a padded total size) keep the input's.
            let covered = covered_bytes(case.desc.output());
            for (i, &want) in expected.iter().enumerate() {
                let want = if covered[i] { want } else { case.inputs[0][i] };
                assert_eq!(got[guard + i], want, "{what}: byte {i} for {:?}", case.desc);
            }
            assert_eq!(operator.check_status_blocking(), Ok(()), "{what}");
        }
    }
}

#[test]
fn too_few_storage_buffers_for_a_window_of_each_tensor_is_an_error_naming_the_limit() {
    let context = limited_context(|l| {
        l.max_storage_buffer_binding_size = WINDOW;
        l.max_storage_buffers_per_shader_stage = 4;
    });
    let mut rng = Rng::new(10);
    // A gather whose indices are split binds the input, two windows of indices (a tuple may
    // straddle), the output and the status: 5.
    let case = loop {
        let case = random_gather(&mut rng, DataType::Float32, DataType::Int64);
        if case.desc.inputs()[1].1.size_in_bytes() > 2 * WINDOW {
            break case;
        }
    };
    let error = context.compile(&case.desc).unwrap_err();
    assert!(
        matches!(
            error,
            Error::LimitExceeded {
                limit_name,
                limit: 4,
                ..
            } if limit_name.starts_with("max_storage_buffers_per_shader_stage")
        ),
        "{error}"
    );
}

#[test]
fn in_order_reductions_need_every_window_bound_and_refuse_slabs_naming_the_limit() {
    let mut rng = Rng::new(11);
    let case = loop {
        let case = random_reduction_case(
            &mut rng,
            false,
            DataType::Float32,
            DataType::Int32,
            Reduction::Add,
            DuplicateMode::InOrder,
            Values::Numbers,
            false,
        );
        if case.desc.output().size_in_bytes() > 4 * WINDOW {
            break case;
        }
    };
    let [(_, all_bound), (_, slabs)] = &split_contexts()[0..2] else {
        unreachable!("two split devices")
    };
    check_on(all_bound, &case.desc, &case.slices(), Expect::Exact).expect("every window bound");
    let error = slabs.compile(&case.desc).unwrap_err();
    assert!(
        matches!(
            &error,
            Error::LimitExceeded { what, limit_name, .. }
                if what.contains("in-order scatter reduction")
                    && limit_name.starts_with("max_storage_buffers_per_shader_stage")
        ),
        "{error}"
    );
}

#[test]
fn rows_whose_input_would_pass_the_bindings_beside_their_lists_are_copied_first() {
    // Float64 rows linked into lists (8-byte rows always fold in order), with the input and
    // the output two 256-byte windows each: the lists' kernels bind every window, and the
    // fold that copies as it folds would bind the input's two beside them, more storage
    // buffers than the device's 8. The copy goes first instead, by its own slabs, as it did
    // before that fold.
    use dml_wgsl::{ScatterNdDesc, TensorDesc};
    let mut rng = Rng::new(12);
    let (table_rows, width, picked) = (3u32, 16u32, 2u32);
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(DataType::Float64, &[table_rows, width]),
            TensorDesc::new(DataType::Int32, &[picked, 1]),
            TensorDesc::new(DataType::Float64, &[picked, width]),
            TensorDesc::new(DataType::Float64, &[table_rows, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Add),
    );
    let mut inputs = random_inputs(&mut rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    // Both rows on the last table row: a list of two.
    write_indices(&indices, &mut inputs[1], |_| table_rows as i128 - 1);
    fill_scatter_floats(
        &mut rng,
        &desc,
        &mut inputs,
        Values::OrderFree,
        Reduction::Add,
    );
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    for (what, context) in split_contexts() {
        check_on(context, &desc, &slices, Expect::ByMode).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

#[test]
fn sorted_rows_copied_as_they_fold_match_the_reference_with_tensors_split_into_windows() {
    // Rows sorted in order (Float32 Max, more rows of updates than table rows: the first
    // fold starts from the blocks and copies `output = input` as it folds), the input, the
    // output and the updates each past a 1 KiB window. (With 256-byte windows and 8 bindings
    // an in-order reduction is refused: every window must be bound at once.)
    use dml_wgsl::{ScatterNdDesc, TensorDesc};
    let mut rng = Rng::new(13);
    let (table_rows, width, picked) = (5u32, 64u32, 8u32);
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[table_rows, width]),
            TensorDesc::new(DataType::Int32, &[picked, 1]),
            TensorDesc::new(DataType::Float32, &[picked, width]),
            TensorDesc::new(DataType::Float32, &[table_rows, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Max)
        .with_duplicates(DuplicateMode::InOrder),
    );
    let mut inputs = random_inputs(&mut rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    // Rows 1 and 3 get four each; the others keep the input's.
    write_indices(&indices, &mut inputs[1], |at| (at[0] % 2) as i128 * 2 + 1);
    fill_scatter_floats(
        &mut rng,
        &desc,
        &mut inputs,
        Values::Numbers,
        Reduction::Max,
    );
    let slices: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
    let (what, context) = &split_contexts()[0];
    check_on(context, &desc, &slices, Expect::Exact).unwrap_or_else(|e| panic!("{what}: {e}"));
}
