//! The differential check against `dml_wgsl::reference`, written once as `async` functions
//! on any context: the native tests run them under pollster (`tests/common/mod.rs`), the
//! browser tests under wasm-bindgen-test (`tests/web.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

use dml_wgsl::{
    Context, DataType, DuplicateMode, OperatorDesc, Reduction, ScatterElementsDesc, ScatterNdDesc,
    TensorDesc, reference,
};

use dml_wgsl::reference::for_each_coordinate;

/// Fills guard bands and bytes no element covers.
pub const SENTINEL: u8 = 0xA7;

/// What a differential check holds the GPU's output to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The reference's bytes, exactly.
    Exact,
    /// Each scatter target equals one of the updates aimed at it (`DuplicateMode::AnyUpdate`).
    AnyUpdate,
    /// For a scatter in `DuplicateMode::AnyUpdate`: with no reduction, `AnyUpdate`; with one,
    /// what any order of the updates allows (see [`reduced_in_some_order`]). `Exact` for
    /// everything else.
    ByMode,
}

/// A scatter's reduction and duplicate mode (`None` for other operators).
pub fn scatter_options(desc: &OperatorDesc) -> Option<(Reduction, DuplicateMode)> {
    match desc {
        OperatorDesc::ScatterElements(ScatterElementsDesc {
            reduction,
            duplicates,
            ..
        })
        | OperatorDesc::ScatterNd(ScatterNdDesc {
            reduction,
            duplicates,
            ..
        }) => Some((*reduction, *duplicates)),
        _ => None,
    }
}

/// How an element is checked.
enum Check {
    Exact,
    /// One of the updates aimed at it.
    OneOf,
    /// Its updates folded into the input in some order.
    Reduced,
}

impl Expect {
    fn check(self, desc: &OperatorDesc) -> Check {
        let any_order = matches!(scatter_options(desc), Some((_, DuplicateMode::AnyUpdate)));
        let reduced = matches!(scatter_options(desc), Some((r, _)) if r != Reduction::None);
        match self {
            Expect::Exact => Check::Exact,
            Expect::AnyUpdate => Check::OneOf,
            Expect::ByMode if any_order && reduced => Check::Reduced,
            Expect::ByMode if any_order => Check::OneOf,
            Expect::ByMode => Check::Exact,
        }
    }
}

/// Whether `got` is what folding `updates` into `start` in some order and grouping may give
/// under `DuplicateMode::AnyUpdate`: integers and Min/Max equal the in-order fold `in_order`
/// (a float Min/Max may keep either of two tied zeros or NaNs). Float Add and Mul, where there
/// are at most 4 updates: the updates split into groups (a workgroup's updates to one target
/// are combined first), each group combined in some order, the groups folded into `start` in
/// some order; with more, the in-order fold (tests give such targets values whose sums and
/// products are exact in any order and grouping). Groups folded with each other before the
/// target (Float64 onto outputs of at most 1024 units: the workgroups' partials, in a tree)
/// are not modelled: any-order float Add and Mul cases draw such values
/// ([`Values::OrderFree`]), whatever their count.
pub fn reduced_in_some_order(
    data_type: DataType,
    reduction: Reduction,
    start: &[u8],
    updates: &[&[u8]],
    in_order: &[u8],
    got: &[u8],
) -> bool {
    if got == in_order {
        return true;
    }
    if !data_type.is_float() {
        return false;
    }
    if matches!(reduction, Reduction::Min | Reduction::Max) {
        let (a, b) = (
            float_class(data_type, got),
            float_class(data_type, in_order),
        );
        return a.is_some() && a == b;
    }
    if updates.len() > 4 {
        return false;
    }
    let combine = |a: &[u8], b: &[u8]| reference::reduce_element(data_type, reduction, a, b);
    let mut possible = false;
    for partition in set_partitions(updates.len()) {
        // Each group's possible values: its members combined in every order.
        let group_values: Vec<Vec<Vec<u8>>> = partition
            .iter()
            .map(|group| {
                let mut values = Vec::new();
                let mut order = group.clone();
                permutations(&mut order, 0, &mut |order| {
                    let mut value = updates[order[0]].to_vec();
                    for &k in &order[1..] {
                        value = combine(&value, updates[k]);
                    }
                    values.push(value);
                    false
                });
                values
            })
            .collect();
        // The groups folded into the start in every order, each with each of its values.
        let mut order: Vec<usize> = (0..partition.len()).collect();
        possible |= permutations(&mut order, 0, &mut |order| {
            fold_choices(start.to_vec(), order, &group_values, &combine, got)
        });
        if possible {
            break;
        }
    }
    possible
}

/// Whether folding one value of each group, in `order`, into `value` can give `got`.
fn fold_choices(
    value: Vec<u8>,
    order: &[usize],
    group_values: &[Vec<Vec<u8>>],
    combine: &impl Fn(&[u8], &[u8]) -> Vec<u8>,
    got: &[u8],
) -> bool {
    let Some((&first, rest)) = order.split_first() else {
        return value == got;
    };
    group_values[first]
        .iter()
        .any(|v| fold_choices(combine(&value, v), rest, group_values, combine, got))
}

/// Every partition of `0..n` into non-empty groups.
fn set_partitions(n: usize) -> Vec<Vec<Vec<usize>>> {
    let mut partitions: Vec<Vec<Vec<usize>>> = vec![Vec::new()];
    for item in 0..n {
        let mut next = Vec::new();
        for partition in &partitions {
            for g in 0..partition.len() {
                let mut p = partition.clone();
                p[g].push(item);
                next.push(p);
            }
            let mut p = partition.clone();
            p.push(vec![item]);
            next.push(p);
        }
        partitions = next;
    }
    partitions
}

/// For a float's bytes: `Some("nan")` or `Some("zero")` where ties may keep either bits.
fn float_class(data_type: DataType, bytes: &[u8]) -> Option<&'static str> {
    let bits = bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | b as u64);
    let (exponent_bits, fraction_bits) = match data_type {
        DataType::Float16 => (5, 10),
        DataType::BFloat16 => (8, 7),
        DataType::Float32 => (8, 23),
        _ => (11, 52),
    };
    let exponent = (bits >> fraction_bits) & ((1 << exponent_bits) - 1);
    let fraction = bits & ((1 << fraction_bits) - 1);
    if exponent == (1 << exponent_bits) - 1 && fraction != 0 {
        Some("nan")
    } else if exponent == 0 && fraction == 0 {
        Some("zero")
    } else {
        None
    }
}

/// Calls `found` with every permutation of `items[k..]` (after `items[..k]`) until it
/// returns true.
fn permutations(items: &mut [usize], k: usize, found: &mut impl FnMut(&[usize]) -> bool) -> bool {
    if k == items.len() {
        return found(items);
    }
    for i in k..items.len() {
        items.swap(k, i);
        if permutations(items, k + 1, found) {
            return true;
        }
        items.swap(k, i);
    }
    false
}

/// Which bytes of `t`'s buffer range belong to an element.
pub fn covered_bytes(t: &TensorDesc) -> Vec<bool> {
    let mut covered = vec![false; t.size_in_bytes() as usize];
    let width = t.data_type.size_in_bytes() as u64;
    for_each_coordinate(&t.sizes, |c| {
        let at = t.byte_offset(c);
        for b in at..at + width {
            covered[b as usize] = true;
        }
    });
    covered
}

/// Holds an output tensor's bytes to the reference's: covered bytes equal (or, for a scatter
/// checked as `AnyUpdate`, each element equals one of the updates aimed at it), byte `i` where
/// no element covers it equals `uncovered(i)`.
fn check_output(
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    body: &[u8],
    uncovered: impl Fn(usize) -> u8,
    expect: Expect,
) {
    let (expected, status) = reference::run_with_status(desc, inputs).expect("reference");
    let output = desc.output();
    assert_eq!(body.len() as u64, output.size_in_bytes(), "output size");
    let covered = covered_bytes(output);
    let width = output.data_type.size_in_bytes() as usize;
    let mut candidates: HashMap<usize, Vec<&[u8]>> = HashMap::new();
    let check = expect.check(desc);
    if !matches!(check, Check::Exact) {
        let writes = reference::scatter_writes(desc, inputs).expect("writes");
        assert_eq!(writes.status, status);
        let updates = inputs[super::cases::updates_input(desc).expect("a scatter")];
        for w in &writes.writes {
            let from = w.updates_offset as usize;
            candidates
                .entry(w.output_offset as usize)
                .or_default()
                .push(&updates[from..from + width]);
        }
    }
    // Where a reduction starts: each output element's input element.
    let mut starts: HashMap<usize, &[u8]> = HashMap::new();
    if let (Check::Reduced, Some((_, input))) = (&check, desc.inputs().first()) {
        for_each_coordinate(&output.sizes, |c| {
            let from = input.byte_offset(c) as usize;
            starts.insert(
                output.byte_offset(c) as usize,
                &inputs[0][from..from + width],
            );
        });
    }
    for at in (0..body.len()).step_by(width) {
        let end = (at + width).min(body.len());
        let got = &body[at..end];
        match candidates.get(&at) {
            Some(updates) if matches!(check, Check::Reduced) => {
                let (reduction, _) = scatter_options(desc).expect("a scatter");
                assert!(
                    reduced_in_some_order(
                        output.data_type,
                        reduction,
                        starts[&at],
                        updates,
                        &expected[at..end],
                        got
                    ),
                    "element at byte {at}: {got:?} is no fold of {updates:?} into {:?} in any \
                     order (in order: {:?}) ({desc:?})",
                    starts[&at],
                    &expected[at..end]
                );
            }
            Some(options) => assert!(
                options.contains(&got),
                "element at byte {at}: {got:?} is none of the updates {options:?} ({desc:?})"
            ),
            None => {
                for i in at..end {
                    let want = if covered[i] {
                        expected[i]
                    } else {
                        uncovered(i)
                    };
                    assert_eq!(
                        body[i], want,
                        "output byte {i} (covered: {}) differs for {desc:?}",
                        covered[i]
                    );
                }
            }
        }
    }
}

/// Runs `desc` through `compile` + `record`, every tensor after a guard band inside a larger
/// buffer, and holds the output, the guard bands (and bytes no element covers: the
/// sentinel) and the status `check_status` reads (out-of-range indices included) to the
/// reference's. Panics on a mismatch; `Err` where `compile` or `record` refuse the case.
pub async fn check_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) -> dml_wgsl::Result<()> {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let (actual, recorded) = run_guarded_on(context, desc, inputs).await?;
    assert_eq!(recorded, status, "check_status after record for {desc:?}");
    let guard = guard_size_on(context) as usize;
    let body = &actual[guard..actual.len() - guard];
    assert!(
        actual[..guard].iter().all(|&b| b == SENTINEL),
        "guard band before the output was written: {desc:?}"
    );
    assert!(
        actual[guard + body.len()..].iter().all(|&b| b == SENTINEL),
        "guard band after the output was written: {desc:?}"
    );
    check_output(desc, inputs, body, |_| SENTINEL, expect);
    Ok(())
}

/// `Context::run` against the reference: the same error, or the same output (bytes no
/// element covers are zero).
pub async fn check_run_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) {
    let (_, status) = reference::run_with_status(desc, inputs).expect("reference");
    let result = context.run(desc, inputs).await;
    match status {
        Err(e) => assert_eq!(result, Err(e), "run for {desc:?}"),
        Ok(()) => check_output(desc, inputs, &result.expect("run"), |_| 0, expect),
    }
}

/// The guard band: the device's storage offset alignment, at least 256 bytes.
pub fn guard_size_on(context: &Context) -> u64 {
    (context
        .device()
        .limits()
        .min_storage_buffer_offset_alignment as u64)
        .max(256)
}

/// Runs through `record` with guard bands: the whole output buffer (guards included) and
/// the status `check_status` reads; `Err` where `compile` or `record` refuse.
pub async fn run_guarded_on(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
) -> dml_wgsl::Result<(Vec<u8>, dml_wgsl::Result<()>)> {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let operator = context.compile(desc)?;
    let guard = guard_size_on(context);
    // COPY_DST too: contiguous copies may go by copy command (dml_wgsl::CopyMethod).
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let guarded = |data: &[u8], bytes: u64, label| {
        let mut v = vec![SENTINEL; (guard * 2 + bytes) as usize];
        v[guard as usize..(guard + bytes) as usize].copy_from_slice(&data[..bytes as usize]);
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &v,
            usage: storage,
        })
    };
    let buffers: Vec<wgpu::Buffer> = inputs
        .iter()
        .zip(operator.input_sizes())
        .map(|(data, bytes)| guarded(data, bytes, "guarded input"))
        .collect();
    let out_bytes = operator.output_size();
    let output = guarded(
        &vec![SENTINEL; out_bytes as usize],
        out_bytes,
        "guarded output",
    );
    let total = output.size();
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: total,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let binding = |buffer, bytes| wgpu::BufferBinding {
        buffer,
        offset: guard,
        size: std::num::NonZeroU64::new(bytes),
    };
    let bindings: Vec<wgpu::BufferBinding> = buffers
        .iter()
        .zip(operator.input_sizes())
        .map(|(b, bytes)| binding(b, bytes))
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    operator.record(&mut encoder, &bindings, binding(&output, out_bytes))?;
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, total);
    context.queue().submit([encoder.finish()]);
    let bytes = read_back(device, &readback).await;
    Ok((bytes, operator.check_status().await))
}

/// Runs a scatter in place (its output bound to its input's own range, inside a guarded
/// buffer) through `record` and holds the buffer to the reference: covered bytes as the
/// reference's output, bytes no element covers as the input left them, guard bands intact.
pub async fn check_in_place_on(context: &Context, desc: &OperatorDesc, inputs: &[&[u8]]) {
    check_in_place_expecting(context, desc, inputs, Expect::Exact).await;
}

/// [`check_in_place_on`], covered bytes held to the reference as `expect` says (each element
/// one of the updates aimed at it, where `AnyUpdate`).
pub async fn check_in_place_expecting(
    context: &Context,
    desc: &OperatorDesc,
    inputs: &[&[u8]],
    expect: Expect,
) {
    use wgpu::util::DeviceExt;
    let device = context.device();
    let (expected, status) = reference::run_with_status(desc, inputs).expect("reference");
    let operator = context.compile(desc).expect("compile");
    let guard = guard_size_on(context) as usize;
    let mut data = vec![SENTINEL; guard * 2 + inputs[0].len()];
    data[guard..guard + inputs[0].len()].copy_from_slice(inputs[0]);
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let tensor = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("in place"),
        contents: &data,
        usage,
    });
    let others: Vec<wgpu::Buffer> = inputs[1..]
        .iter()
        .map(|d| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("input"),
                contents: d,
                usage,
            })
        })
        .collect();
    let binding = wgpu::BufferBinding {
        buffer: &tensor,
        offset: guard as u64,
        size: None,
    };
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: data.len() as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut bindings = vec![binding.clone()];
    bindings.extend(others.iter().map(|b| b.as_entire_buffer_binding()));
    let mut encoder = device.create_command_encoder(&Default::default());
    operator
        .record(&mut encoder, &bindings, binding)
        .expect("record in place");
    encoder.copy_buffer_to_buffer(&tensor, 0, &readback, 0, data.len() as u64);
    context.queue().submit([encoder.finish()]);
    let got = read_back(device, &readback).await;
    assert_eq!(
        operator.check_status().await,
        status,
        "check_status after record in place for {desc:?}"
    );
    assert!(
        got[..guard]
            .iter()
            .chain(&got[guard + expected.len()..])
            .all(|&b| b == SENTINEL),
        "guard bands of {desc:?}"
    );
    // Bytes no element covers keep the input's contents (the reference zeroes them).
    let body = &got[guard..guard + expected.len()];
    check_output(desc, inputs, body, |i| inputs[0][i], expect);
}

/// Maps a `MAP_READ` buffer and returns its bytes: native devices are polled until the map
/// is done, the browser calls back by itself.
pub async fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u8> {
    type Shared = Arc<Mutex<(Option<Result<(), wgpu::BufferAsyncError>>, Option<Waker>)>>;
    let shared: Shared = Arc::default();
    let state = shared.clone();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let mut state = state.lock().unwrap();
        state.0 = Some(result);
        if let Some(waker) = state.1.take() {
            waker.wake();
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    std::future::poll_fn(|cx| {
        let mut state = shared.lock().unwrap();
        match state.0.take() {
            Some(result) => {
                result.expect("map");
                Poll::Ready(())
            }
            None => {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    })
    .await;
    let data = buffer.get_mapped_range(..).expect("mapped").to_vec();
    buffer.unmap();
    data
}
