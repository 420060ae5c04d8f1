//! A random valid descriptor with its inputs for each of the seven operators (a part of
//! `cases.rs`, which re-exports it).

use super::*;

/// A random valid TensorScatter: a cache of rank 2 to 5, the sequence axis anywhere past the
/// batch, updates up to the cache's length along it, write indices of either signed type (or
/// none), linear (every run fits) or circular (write indices anywhere, negative and beyond 32
/// bits included), any layouts.
pub fn random_tensor_scatter(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(2, 5) as usize;
    let axis = rng.range(1, rank as u64 - 1) as usize;
    let mut input_sizes: Vec<u32> = (0..rank)
        .map(|_| rng.range(1, cap(rank).min(40)) as u32)
        .collect();
    // Sizes of 0: a dimension of the cache (the updates' too), or no updates (0 a sequence).
    let mut no_updates = false;
    match empty_choice(rng, &(0..=rank).collect::<Vec<_>>()) {
        Some(d) if d < rank => input_sizes[d] = 0,
        Some(_) => no_updates = true,
        None => {}
    }
    let cache_length = input_sizes[axis];
    let length = if no_updates {
        0
    } else {
        rng.range(cache_length.min(1) as u64, cache_length as u64) as u32
    };
    let mut updates_sizes = input_sizes.clone();
    updates_sizes[axis] = length;
    let index_type = match index_type {
        DataType::UInt32 | DataType::Int32 => DataType::Int32,
        _ => DataType::Int64,
    };
    let mode = if rng.chance(50) {
        TensorScatterMode::Circular
    } else {
        TensorScatterMode::Linear
    };
    let positions = rng
        .chance(80)
        .then(|| random_layout(rng, index_type, &input_sizes[..1], false));
    let desc: OperatorDesc = TensorScatterDesc::new(
        random_layout(rng, data_type, &input_sizes, true),
        random_layout(rng, data_type, &updates_sizes, true),
        positions.clone(),
        random_layout(rng, data_type, &input_sizes, false),
        axis as u32,
    )
    .with_mode(mode)
    .into();
    let mut inputs = random_inputs(rng, &desc);
    if let Some(t) = &positions {
        let last_start = (cache_length - length) as i128;
        let wide = index_type == DataType::Int64;
        write_indices(t, &mut inputs[2], |_| match mode {
            TensorScatterMode::Linear => rng.range(0, last_start as u64) as i128,
            _ if wide && rng.chance(20) => rng.pick(&[
                i64::MIN as i128,
                i64::MAX as i128,
                -(1i128 << 40) - 3,
                (1 << 33) + 7,
            ]),
            _ => rng.range(0, 6 * cache_length as u64) as i128 - 3 * cache_length as i128,
        });
    }
    Case { desc, inputs }
}

/// Sizes that sometimes begin with 1s (which right-aligned tensors may crop).
fn sizes_with_leading_ones(rng: &mut Rng, rank: usize, most: u64) -> Vec<u32> {
    let ones = if rank > 0 && rng.chance(30) {
        rng.range(1, rank as u64) as usize
    } else {
        0
    };
    (0..rank)
        .map(|d| {
            if d < ones {
                1
            } else {
                rng.range(1, most) as u32
            }
        })
        .collect()
}

/// The rank of a tensor that holds `meaningful` sizes right-aligned: sometimes cropping their
/// leading 1s, sometimes adding one; between 1 and 8.
fn right_aligned_rank(rng: &mut Rng, meaningful: &[u32]) -> usize {
    let ones = meaningful.iter().take_while(|&&s| s == 1).count();
    let fewest = (meaningful.len() - ones).max(1);
    if fewest < meaningful.len() && rng.chance(50) {
        rng.range(fewest as u64, meaningful.len() as u64 - 1) as usize
    } else {
        (meaningful.len().max(1) + rng.range(0, 1) as usize).min(8)
    }
}

/// `meaningful` right-aligned to `rank`: leading 1s cropped or added.
pub fn right_aligned(meaningful: &[u32], rank: usize) -> Vec<u32> {
    if meaningful.len() >= rank {
        meaningful[meaningful.len() - rank..].to_vec()
    } else {
        let mut sizes = vec![1; rank - meaningful.len()];
        sizes.extend(meaningful);
        sizes
    }
}

pub fn random_slice(rng: &mut Rng, data_type: DataType) -> Case {
    loop {
        let rank = rng.range(1, 8) as usize;
        let (mut offsets, mut sizes, mut strides, mut input_sizes) =
            (vec![], vec![], vec![], vec![]);
        for _ in 0..rank {
            let size = rng.range(1, slice_cap(rank)) as u32;
            let stride = rng.range(1, 3) as u32;
            let offset = rng.range(0, 3) as u32;
            input_sizes.push(offset + stride * (size - 1) + 1 + rng.range(0, 2) as u32);
            offsets.push(offset);
            sizes.push(size);
            strides.push(stride);
        }
        if input_sizes.iter().map(|&s| s as u64).product::<u64>() > 100_000 {
            continue;
        }
        // An empty output, at any offset (the input sometimes empty too).
        if let Some(d) = empty_choice(rng, &(0..rank).collect::<Vec<_>>()) {
            sizes[d] = 0;
            input_sizes[d] = rng.range(0, 3) as u32;
            offsets[d] = rng.range(0, 5) as u32;
        }
        let desc = OperatorDesc::Slice(SliceDesc::new(
            random_layout(rng, data_type, &input_sizes, true),
            random_layout(rng, data_type, &sizes, false),
            &offsets,
            &sizes,
            &strides,
        ));
        let inputs = random_inputs(rng, &desc);
        return Case { desc, inputs };
    }
}

pub fn random_slice1(rng: &mut Rng, data_type: DataType) -> Case {
    loop {
        let rank = rng.range(1, 8) as usize;
        let (mut offsets, mut windows, mut strides, mut input_sizes, mut sizes) =
            (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..rank {
            let window = rng.range(1, slice_cap(rank) * 2) as u32;
            let magnitude = rng.range(1, 3) as i32;
            let stride = if rng.chance(50) {
                -magnitude
            } else {
                magnitude
            };
            let offset = rng.range(0, 3) as u32;
            input_sizes.push(offset + window + rng.range(0, 2) as u32);
            sizes.push(window.div_ceil(magnitude as u32));
            offsets.push(offset);
            windows.push(window);
            strides.push(stride);
        }
        if input_sizes.iter().map(|&s| s as u64).product::<u64>() > 100_000 {
            continue;
        }
        // An empty window, up to the dimension's end (the input sometimes empty too).
        if let Some(d) = empty_choice(rng, &(0..rank).collect::<Vec<_>>()) {
            windows[d] = 0;
            sizes[d] = 0;
            input_sizes[d] = offsets[d] + rng.range(0, 2) as u32;
        }
        let desc = OperatorDesc::Slice1(Slice1Desc::new(
            random_layout(rng, data_type, &input_sizes, true),
            random_layout(rng, data_type, &sizes, false),
            &offsets,
            &windows,
            &strides,
        ));
        let inputs = random_inputs(rng, &desc);
        return Case { desc, inputs };
    }
}

/// A random ScatterElements case. With `unique`, no two updates share a target.
pub fn random_scatter_elements(
    rng: &mut Rng,
    data_type: DataType,
    index_type: DataType,
    unique: bool,
    duplicates: DuplicateMode,
) -> Case {
    let rank = rng.range(1, 8) as usize;
    let mut input_sizes: Vec<u32> = (0..rank).map(|_| rng.range(1, cap(rank)) as u32).collect();
    let axis = rng.range(0, rank as u64 - 1) as usize;
    // No updates (a dimension of the indices empty), and sometimes the input's too.
    let empty = empty_choice(rng, &(0..rank).collect::<Vec<_>>());
    if let Some(d) = empty
        && rng.chance(50)
    {
        input_sizes[d] = 0;
    }
    let bound = input_sizes[axis];
    let indices_sizes: Vec<u32> = (0..rank)
        .map(|d| {
            if Some(d) == empty {
                0
            } else if d == axis {
                let most = if unique { bound as u64 } else { cap(rank) };
                rng.range(1, most) as u32
            } else {
                rng.range(1, input_sizes[d] as u64) as u32
            }
        })
        .collect();
    let desc = OperatorDesc::ScatterElements(
        ScatterElementsDesc::new(
            random_layout(rng, data_type, &input_sizes, true),
            // Broadcast indices would repeat targets.
            random_layout(rng, index_type, &indices_sizes, !unique),
            random_layout(rng, data_type, &indices_sizes, true),
            random_layout(rng, data_type, &input_sizes, false),
            axis as u32,
        )
        .with_duplicates(duplicates),
    );
    let mut inputs = random_inputs(rng, &desc);
    let indices = desc.inputs()[1].1.clone();
    // Unique targets: each line along the axis takes a prefix of its own permutation.
    let mut lines: std::collections::HashMap<Vec<u32>, Vec<u32>> = Default::default();
    write_indices(&indices, &mut inputs[1], |c| {
        if !unique {
            return random_index(rng, bound, index_type);
        }
        let mut line = c.to_vec();
        line[axis] = 0;
        let permutation = lines.entry(line).or_insert_with(|| {
            let mut p: Vec<u32> = (0..bound).collect();
            rng.shuffle(&mut p);
            p
        });
        let v = permutation[c[axis] as usize] as i128;
        if index_type.is_signed() && rng.chance(50) {
            v - bound as i128
        } else {
            v
        }
    });
    Case { desc, inputs }
}

/// A random ScatterND case, ranks and dimension counts included; the updates hold their
/// meaningful sizes right-aligned, cropping leading 1s or adding them. With `unique`, no two
/// tuples are equal.
pub fn random_scatter_nd(
    rng: &mut Rng,
    data_type: DataType,
    index_type: DataType,
    unique: bool,
    duplicates: DuplicateMode,
) -> Case {
    let input_rank = rng.range(1, 8) as usize;
    let input_count = rng.range(1, input_rank as u64) as usize;
    let mut input_sizes = vec![1u32; input_rank];
    input_sizes[input_rank - input_count..].copy_from_slice(&sizes_with_leading_ones(
        rng,
        input_count,
        cap(input_count).min(12),
    ));
    let tuple = rng.range(1, input_count as u64) as usize;
    let first = input_rank - input_count;
    let bounds: Vec<u32> = input_sizes[first..first + tuple].to_vec();
    let batch_rank = rng.range(0, 2.min(8 - (input_count - tuple)) as u64) as usize;
    // Empty rows (a slice dimension: the input empty, the tuples unused), or no tuples (a
    // batch dimension).
    let empty = empty_choice(
        rng,
        &(0..input_count - tuple + batch_rank).collect::<Vec<_>>(),
    );
    if let Some(k) = empty.filter(|&k| k < input_count - tuple) {
        input_sizes[first + tuple + k] = 0;
    }
    let slice_sizes: Vec<u32> = input_sizes[first + tuple..].to_vec();
    let tuple_space: u64 = bounds.iter().map(|&b| b as u64).product();
    let batch_sizes: Vec<u32> = loop {
        let mut b = sizes_with_leading_ones(rng, batch_rank, 9);
        if let Some(k) = empty.and_then(|k| k.checked_sub(input_count - tuple)) {
            b[k] = 0;
        }
        if !unique || b.iter().map(|&s| s as u64).product::<u64>() <= tuple_space {
            break b;
        }
    };
    let indices_rank = batch_rank + 1 + rng.range(0, 1) as usize;
    let mut indices_sizes = vec![1u32; indices_rank - batch_rank - 1];
    indices_sizes.extend(&batch_sizes);
    indices_sizes.push(tuple as u32);
    let meaningful = [batch_sizes.as_slice(), &slice_sizes].concat();
    let updates_sizes = right_aligned(&meaningful, right_aligned_rank(rng, &meaningful));
    let desc = OperatorDesc::ScatterNd(
        ScatterNdDesc::new(
            random_layout(rng, data_type, &input_sizes, true),
            // A broadcast tuple dimension would give every component one value.
            random_layout(rng, index_type, &indices_sizes, false),
            random_layout(rng, data_type, &updates_sizes, true),
            random_layout(rng, data_type, &input_sizes, false),
            input_count as u32,
            (batch_rank + 1) as u32,
        )
        .with_duplicates(duplicates),
    );
    let mut inputs = random_inputs(rng, &desc);
    // Distinct tuples: distinct linear positions in the tuple space, decomposed.
    let count: u64 = batch_sizes.iter().map(|&s| s as u64).product();
    let mut linear: Vec<u64> = if unique {
        let mut all: Vec<u64> = (0..tuple_space).collect();
        rng.shuffle(&mut all);
        all.truncate(count as usize);
        all
    } else {
        (0..count).map(|_| rng.range(0, tuple_space - 1)).collect()
    };
    let tuples: Vec<Vec<u32>> = linear
        .iter_mut()
        .map(|l| {
            let mut t = vec![0u32; tuple];
            for k in (0..tuple).rev() {
                t[k] = (*l % bounds[k] as u64) as u32;
                *l /= bounds[k] as u64;
            }
            t
        })
        .collect();
    let indices = desc.inputs()[1].1.clone();
    write_indices(&indices, &mut inputs[1], |c| {
        let b = &c[indices_rank - 1 - batch_rank..indices_rank - 1];
        let position = b
            .iter()
            .zip(&batch_sizes)
            .fold(0usize, |acc, (&i, &s)| acc * s as usize + i as usize);
        let k = c[indices_rank - 1] as usize;
        let v = tuples[position][k] as i128;
        if index_type.is_signed() && rng.chance(50) {
            v - bounds[k] as i128
        } else {
            v
        }
    });
    Case { desc, inputs }
}

pub fn random_gather(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(1, 8) as usize;
    let mut input_sizes: Vec<u32> = (0..rank).map(|_| rng.range(1, cap(rank)) as u32).collect();
    let index_dimensions = rng.range(0, rank as u64) as usize;
    // More than one index dimension needs leading 1s before the axis to crop.
    let axis = if index_dimensions >= 2 {
        for size in input_sizes.iter_mut().take(index_dimensions - 1) {
            *size = 1;
        }
        rng.range(index_dimensions as u64 - 1, rank as u64 - 1) as usize
    } else {
        rng.range(0, rank as u64 - 1) as usize
    };
    let mut indices_sizes = vec![1u32; rank - index_dimensions];
    indices_sizes.extend((0..index_dimensions).map(|_| rng.range(1, cap(rank).min(5)) as u32));
    // An empty output: an index dimension, or an input dimension besides the axis and the
    // leading 1s that the output crops (numbered after the indices' dimensions).
    let kept = index_dimensions.saturating_sub(1);
    let candidates: Vec<usize> = (rank - index_dimensions..rank)
        .chain((kept..rank).filter(|&d| d != axis).map(|d| rank + d))
        .collect();
    match empty_choice(rng, &candidates) {
        Some(d) if d < rank => indices_sizes[d] = 0,
        Some(d) => input_sizes[d - rank] = 0,
        None => {}
    }
    let gathered = [
        &input_sizes[..axis],
        &indices_sizes[rank - index_dimensions..],
        &input_sizes[axis + 1..],
    ]
    .concat();
    let output_sizes = right_aligned(&gathered, rank);
    let bound = input_sizes[axis];
    let desc = OperatorDesc::Gather(GatherDesc::new(
        random_layout(rng, data_type, &input_sizes, true),
        random_layout(rng, index_type, &indices_sizes, true),
        random_layout(rng, data_type, &output_sizes, false),
        axis as u32,
        index_dimensions as u32,
    ));
    let mut inputs = random_inputs(rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
        random_index(rng, bound, index_type)
    });
    Case { desc, inputs }
}

pub fn random_gather_elements(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let rank = rng.range(1, 8) as usize;
    let mut input_sizes: Vec<u32> = (0..rank).map(|_| rng.range(1, cap(rank)) as u32).collect();
    let axis = rng.range(0, rank as u64 - 1) as usize;
    // An empty output (a dimension of the indices), the input's too outside the axis.
    let empty = empty_choice(rng, &(0..rank).collect::<Vec<_>>());
    if let Some(d) = empty.filter(|&d| d != axis)
        && rng.chance(50)
    {
        input_sizes[d] = 0;
    }
    let indices_sizes: Vec<u32> = (0..rank)
        .map(|d| {
            if Some(d) == empty {
                0
            } else if d == axis {
                rng.range(1, cap(rank)) as u32
            } else {
                rng.range(1, input_sizes[d] as u64) as u32
            }
        })
        .collect();
    let bound = input_sizes[axis];
    let desc = OperatorDesc::GatherElements(GatherElementsDesc::new(
        random_layout(rng, data_type, &input_sizes, true),
        random_layout(rng, index_type, &indices_sizes, true),
        random_layout(rng, data_type, &indices_sizes, false),
        axis as u32,
    ));
    let mut inputs = random_inputs(rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |_| {
        random_index(rng, bound, index_type)
    });
    Case { desc, inputs }
}

/// A random GatherND case; the output holds its meaningful sizes right-aligned, cropping
/// leading 1s or adding them.
pub fn random_gather_nd(rng: &mut Rng, data_type: DataType, index_type: DataType) -> Case {
    let input_rank = rng.range(1, 8) as usize;
    let input_count = rng.range(1, input_rank as u64) as usize;
    let mut input_sizes = vec![1u32; input_rank];
    input_sizes[input_rank - input_count..].copy_from_slice(&sizes_with_leading_ones(
        rng,
        input_count,
        cap(input_count).min(10),
    ));
    let input_first = input_rank - input_count;
    let leading_rank = rng.range(0, 2) as usize;
    let batch = rng.range(0, (input_count - 1).min(leading_rank) as u64) as usize;
    // The output keeps at most 8 dimensions: the leading ones and those after the tuple.
    let fewest = (leading_rank + input_count)
        .saturating_sub(batch + 8)
        .max(1);
    let tuple = rng.range(fewest as u64, (input_count - batch) as u64) as usize;
    // An empty output: a batch dimension (in both), an index dimension, or an input
    // dimension after the tuple; never one the tuples address.
    let trailing_count = input_count - batch - tuple;
    let empty = empty_choice(rng, &(0..leading_rank + trailing_count).collect::<Vec<_>>());
    match empty {
        Some(k) if k < batch => input_sizes[input_first + k] = 0,
        Some(k) if k >= leading_rank => {
            input_sizes[input_first + batch + tuple + k - leading_rank] = 0
        }
        _ => {}
    }
    let mut leading: Vec<u32> = input_sizes[input_first..input_first + batch].to_vec();
    leading.extend(sizes_with_leading_ones(rng, leading_rank - batch, 6));
    if let Some(k) = empty.filter(|&k| (batch..leading_rank).contains(&k)) {
        leading[k] = 0;
    }
    let indices_count = leading_rank + 1;
    let indices_rank = indices_count + rng.range(0, 1) as usize;
    let mut indices_sizes = vec![1u32; indices_rank - indices_count];
    indices_sizes.extend(&leading);
    indices_sizes.push(tuple as u32);
    let trailing = &input_sizes[input_first + batch + tuple..];
    let meaningful = [leading.as_slice(), trailing].concat();
    let output_sizes = right_aligned(&meaningful, right_aligned_rank(rng, &meaningful));
    let bounds: Vec<u32> = input_sizes[input_first + batch..input_first + batch + tuple].to_vec();
    let desc = OperatorDesc::GatherNd(GatherNdDesc::new(
        random_layout(rng, data_type, &input_sizes, true),
        random_layout(rng, index_type, &indices_sizes, false),
        random_layout(rng, data_type, &output_sizes, false),
        input_count as u32,
        indices_count as u32,
        batch as u32,
    ));
    let mut inputs = random_inputs(rng, &desc);
    write_indices(desc.inputs()[1].1, &mut inputs[1], |c| {
        random_index(rng, bounds[c[indices_rank - 1] as usize], index_type)
    });
    Case { desc, inputs }
}
