//! The scatter-reduction workloads (`REDUCTIONS`, in both duplicate modes). Peer:
//! `bench/torch_reductions.py`.

use super::*;

/// Scatter reductions, timed in both duplicate modes (`run_reductions`); the peer is
/// `bench/torch_reductions.py`, whose docstring has the same table. Out of place: the output
/// buffer is not the input's, so every run copies `output = input` and then reduces.
///
/// Bytes counted (WORKLOADS.md's rule, reductions reading each update once):
/// `2 × input + updates + indices` — the `output = input` copy as one read and one write of
/// the input, the updates read once, the indices read once; the reduction's read-modify-write
/// of each target is not counted extra (nor the in-order mode's scratch).
///
/// | name | operator | shapes | peer |
/// | --- | --- | --- | --- |
/// | scatter_add_rows | ScatterND, Add | f32 table [65536, 512]; indices [131072, 1] uniform in 0..65536 (repeats); updates [131072, 512] | `index_add_(0, ..)` |
/// | scatter_add_heavy | ScatterElements axis 0, Add | f32 input [1024]; indices [4194304] over 16 distinct targets; updates [4194304] | `scatter_add_(0, ..)` |
/// | scatter_max_i32 | ScatterElements axis 0, Max | i32 input [4096, 4096]; indices [4096, 4096] uniform in 0..4096; updates i32 [4096, 4096] | `scatter_reduce_(0, .., "amax")` |
///
/// `--quick` divides the large sizes by 16 (rows of the table and of the updates, the heavy
/// updates, the i32 rows), the widths and the 16 heavy targets stay.
pub const REDUCTIONS: &[(&str, Prepare)] = &[
    ("scatter_add_rows", |d| {
        let (rows, width, picked) = (d.s(65536), 512u32, d.s(131072));
        let table = unit_floats(&mut d.rng, (rows * width) as usize);
        let ids: Vec<i64> = (0..picked)
            .map(|_| d.rng.range(0, rows as u64 - 1) as i64)
            .collect();
        let updates = unit_floats(&mut d.rng, (picked * width) as usize);
        let desc = ScatterNdDesc::new(
            f32_tensor(&[rows, width]),
            TensorDesc::new(DataType::Int64, &[picked, 1]),
            f32_tensor(&[picked, width]),
            f32_tensor(&[rows, width]),
            2,
            2,
        )
        .with_reduction(Reduction::Add);
        let bytes = reduction_bytes(
            rows as u64 * width as u64 * 4,
            picked as u64 * width as u64 * 4,
            picked as u64 * 8,
        );
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("add_rows_table", Cow::Owned(table)),
            ("add_rows_ids", Cow::Owned(le_bytes::<i64>(&ids))),
            ("add_rows_updates", Cow::Owned(updates)),
        ];
        prepared
    }),
    ("scatter_add_heavy", |d| {
        let (size, count, targets) = (1024u32, d.s(4194304), 16usize);
        let input = unit_floats(&mut d.rng, size as usize);
        let chosen = permutation_prefix(&mut d.rng, size as u64, targets);
        let ids: Vec<i64> = (0..count)
            .map(|_| chosen[d.rng.range(0, targets as u64 - 1) as usize])
            .collect();
        let updates = unit_floats(&mut d.rng, count as usize);
        let desc = ScatterElementsDesc::new(
            f32_tensor(&[size]),
            TensorDesc::new(DataType::Int64, &[count]),
            f32_tensor(&[count]),
            f32_tensor(&[size]),
            0,
        )
        .with_reduction(Reduction::Add);
        let bytes = reduction_bytes(size as u64 * 4, count as u64 * 4, count as u64 * 8);
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("add_heavy_input", Cow::Owned(input)),
            ("add_heavy_ids", Cow::Owned(le_bytes::<i64>(&ids))),
            ("add_heavy_updates", Cow::Owned(updates)),
        ];
        prepared
    }),
    // Random bytes are random Int32 values over the whole range.
    ("scatter_max_i32", |d| {
        max_rows(
            d,
            DataType::Int32,
            |rng, n| rng.bytes(n * 4),
            ["max_i32_input", "max_i32_ids", "max_i32_updates"],
        )
    }),
    // The same pattern on Float32: in order, floats go through the ordered lists (integers
    // need not: their bits do not depend on the order).
    ("scatter_max_f32", |d| {
        max_rows(
            d,
            DataType::Float32,
            unit_floats,
            ["max_f32_input", "max_f32_ids", "max_f32_updates"],
        )
    }),
];

/// ScatterElements Max along axis 0 of a [4096, 4096] tensor of 4-byte `data_type` values
/// (`values` draws n of them as bytes), indices uniform in 0..4096: the `scatter_max_*`
/// workloads, their inputs named `names`.
pub fn max_rows<'a>(
    d: &mut Data,
    data_type: DataType,
    values: fn(&mut Rng, usize) -> Vec<u8>,
    names: [&'static str; 3],
) -> Prepared<'a> {
    let (rows, columns) = (d.s(4096), 4096u32);
    let elements = rows as usize * columns as usize;
    let input = values(&mut d.rng, elements);
    let ids: Vec<i64> = (0..elements)
        .map(|_| d.rng.range(0, rows as u64 - 1) as i64)
        .collect();
    let updates = values(&mut d.rng, elements);
    let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
    let desc = ScatterElementsDesc::new(
        tensor(&[rows, columns]),
        TensorDesc::new(DataType::Int64, &[rows, columns]),
        tensor(&[rows, columns]),
        tensor(&[rows, columns]),
        0,
    )
    .with_reduction(Reduction::Max);
    let bytes = reduction_bytes(
        elements as u64 * 4,
        elements as u64 * 4,
        elements as u64 * 8,
    );
    let mut prepared = Prepared::new(desc.into(), &[], bytes);
    prepared.inputs = vec![
        (names[0], Cow::Owned(input)),
        (names[1], Cow::Owned(le_bytes::<i64>(&ids))),
        (names[2], Cow::Owned(updates)),
    ];
    prepared
}

/// The bytes a scatter reduction moves, as `REDUCTIONS` counts them: the `output = input` copy
/// (one read and one write of the input), the updates and the indices each read once.
pub fn reduction_bytes(input: u64, updates: u64, indices: u64) -> u64 {
    2 * input + updates + indices
}

/// `n` Float32 values uniform in (0, 1] (as `torch.rand`, never zero), as bytes: whole
/// numbers for Add, where random bit patterns would be NaNs, infinities and subnormals.
pub fn unit_floats(rng: &mut Rng, n: usize) -> Vec<u8> {
    let values: Vec<f32> = (0..n)
        .map(|_| ((rng.next_u64() >> 40) + 1) as f32 / (1u64 << 24) as f32)
        .collect();
    bytemuck::cast_slice(&values).to_vec()
}

/// The same scatter with its updates applied in order.
pub fn in_order(desc: &OperatorDesc) -> OperatorDesc {
    match desc.clone() {
        OperatorDesc::ScatterElements(d) => d.with_duplicates(DuplicateMode::InOrder).into(),
        OperatorDesc::ScatterNd(d) => d.with_duplicates(DuplicateMode::InOrder).into(),
        other => unreachable!("not a scatter: {other:?}"),
    }
}

/// Each wanted workload of `REDUCTIONS`: the default mode under its name (when `wanted`
/// names it), then `DuplicateMode::InOrder` under `<name>_in_order` (when `wanted` names either)
/// on the same buffers, with the in-order time over the default's printed.
pub fn run_reductions(b: &mut Bench, data: &mut Data, wanted: impl Fn(&str) -> bool) {
    for &(name, prepare) in REDUCTIONS {
        let in_order_name = format!("{name}_in_order");
        if !wanted(name) && !wanted(&in_order_name) {
            continue;
        }
        let mut prepared = prepare(data);
        time_both_modes(b, name, &mut prepared, wanted(name));
    }
}

/// `prepared` in the default mode under `name` (when `default`), then in
/// `DuplicateMode::InOrder` under `<name>_in_order` on the same buffers, with the in-order time
/// over the default's printed.
pub fn time_both_modes(b: &mut Bench, name: &str, prepared: &mut Prepared, default: bool) {
    let default_ms = default.then(|| b.operator(name, prepared));
    prepared.desc = in_order(&prepared.desc);
    let in_order_ms = b.operator(&format!("{name}_in_order"), prepared);
    if let Some(default_ms) = default_ms {
        println!(
            "{:32} {:10.2}x the default mode's time (target: at most 3x)",
            "  in order / default",
            in_order_ms / default_ms
        );
    }
}
