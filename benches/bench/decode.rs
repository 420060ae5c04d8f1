//! The decode-step workloads: a decoder's cache append, in place, as ScatterND and as
//! TensorScatter.

use super::*;

/// The decode-step appends, after everything else: workloads draw their data from one seeded
/// stream in order, so new ones go last and leave the others' data as it was.
pub const DECODE_WORKLOADS: &[(&str, Prepare)] = &[
    ("decode_step_3d_scatter_nd", |d| {
        decode_step(d, &[16, 2048, 4096], false)
    }),
    ("decode_step_3d_tensor_scatter", |d| {
        decode_step(d, &[16, 2048, 4096], true)
    }),
    ("decode_step_4d_scatter_nd", |d| {
        decode_step(d, &[8, 32, 2048, 128], false)
    }),
    ("decode_step_4d_tensor_scatter", |d| {
        decode_step(d, &[8, 32, 2048, 128], true)
    }),
];

/// A decoder's cache append, in place: one new position per batch entry (its own length) into
/// a Float16 cache `[batch, .., length, width]` (sequence axis second to last), as ScatterND
/// (index tuples of every leading coordinate and the position, as `examples/decode.rs` did) or
/// as TensorScatter (one write index per entry). Bytes: the updates read and written, and the
/// indices read.
pub fn decode_step<'d>(d: &mut Data, cache: &[u32], tensor_scatter: bool) -> Prepared<'d> {
    let mut cache = cache.to_vec();
    let axis = cache.len() - 2;
    cache[axis] = d.s(cache[axis]);
    let batch = cache[0];
    let width = *cache.last().unwrap();
    let mut step = cache.clone();
    step[axis] = 1;
    let rows: u32 = step[..axis].iter().product();
    let positions: Vec<i64> = (0..batch as i64)
        .map(|b| (b * 37 + 5) % cache[axis] as i64)
        .collect();
    let f16 = |sizes: &[u32]| TensorDesc::new(DataType::Float16, sizes);
    let updates = d.rng.bytes((rows * width * 2) as usize);
    let (desc, indices): (OperatorDesc, Vec<i64>) = if tensor_scatter {
        let desc = TensorScatterDesc::new(
            f16(&cache),
            f16(&step),
            Some(TensorDesc::new(DataType::Int64, &[batch])),
            f16(&cache),
            axis as u32,
        );
        (desc.into(), positions)
    } else {
        // Every row's tuple: its leading coordinates, then its entry's position.
        let leading = &cache[..axis];
        let mut tuples = Vec::new();
        for row in 0..rows {
            let mut coordinate = vec![0u32; axis];
            let mut rest = row;
            for k in (0..axis).rev() {
                coordinate[k] = rest % leading[k];
                rest /= leading[k];
            }
            tuples.extend(coordinate.iter().map(|&c| c as i64));
            tuples.push(positions[coordinate[0] as usize]);
        }
        let tuple = axis as u32 + 1;
        let desc = ScatterNdDesc::new(
            f16(&cache),
            TensorDesc::new(DataType::Int64, &[rows, tuple]),
            f16(&[rows, width]),
            f16(&cache),
            cache.len() as u32,
            2,
        );
        (desc.into(), tuples)
    };
    let bytes = 2 * updates.len() as u64 + indices.len() as u64 * 8;
    let total: u64 = cache.iter().map(|&c| c as u64).product::<u64>() * 2;
    let mut prepared = Prepared::new(desc, &[], bytes);
    let index = Cow::Owned(le_bytes::<i64>(&indices));
    let cache_name = if axis == 1 { "cache_3d" } else { "cache_4d" };
    prepared.inputs = if tensor_scatter {
        vec![
            (cache_name, Cow::Owned(d.rng.bytes(total as usize))),
            ("step_updates", Cow::Owned(updates)),
            ("step_positions", index),
        ]
    } else {
        vec![
            (cache_name, Cow::Owned(d.rng.bytes(total as usize))),
            ("step_tuples", index),
            ("step_updates", Cow::Owned(updates)),
        ]
    };
    prepared.in_place = true;
    prepared
}
