//! The points sweep (`--points-sweep`): ScatterND of single Float32 elements out of place
//! (issue 28's `scatter_nd_points` across its range). Peer: `bench/torch_points.py`, the same
//! names, shapes and bytes.
//!
//! Every combination of:
//! - the output: [1024, 1024] (4 MiB, within an H100's L2), [4096, 4096] (64 MiB) and
//!   [8192, 8192] (256 MiB);
//! - the points: an eighth, a sixteenth, a 256th and a 65536th of the output's elements,
//!   distinct (a permutation's prefix, as `scatter_nd_points`);
//! - their order: random, or sorted (the same points in row-major order).
//!
//! Named `points_f32_<rows>x<columns>_<points>_<random|sorted>`. Indices Int64 [points, 2].
//! Bytes counted as WORKLOADS.md counts `scatter_nd_points`: 2 x input + 2 x updates +
//! indices.

use std::borrow::Cow;

use dml_wgsl::{DataType, ScatterNdDesc, TensorDesc};

use super::{Prepared, Rng, le_bytes, permutation_prefix};

pub struct Shape {
    side: u32,
    /// Points: the output's elements divided by this.
    divisor: u64,
    sorted: bool,
}

impl Shape {
    fn points(&self) -> u64 {
        self.side as u64 * self.side as u64 / self.divisor
    }

    pub fn name(&self) -> String {
        let order = if self.sorted { "sorted" } else { "random" };
        format!("points_f32_{0}x{0}_{1}_{order}", self.side, self.points())
    }

    pub fn prepare(&self, rng: &mut Rng) -> Prepared<'static> {
        let side = self.side;
        let points = self.points() as usize;
        let mut flat = permutation_prefix(rng, side as u64 * side as u64, points);
        if self.sorted {
            flat.sort_unstable();
        }
        let pairs: Vec<i64> = flat
            .iter()
            .flat_map(|&f| [f / side as i64, f % side as i64])
            .collect();
        let tensor = TensorDesc::new(DataType::Float32, &[side, side]);
        let desc = ScatterNdDesc::new(
            tensor.clone(),
            TensorDesc::new(DataType::Int64, &[points as u32, 2]),
            TensorDesc::new(DataType::Float32, &[points as u32]),
            tensor,
            2,
            2,
        );
        let input_bytes = side as u64 * side as u64 * 4;
        let bytes = 2 * input_bytes + 2 * points as u64 * 4 + points as u64 * 16;
        let mut prepared = Prepared::new(desc.into(), &[], bytes);
        prepared.inputs = vec![
            ("points_input", Cow::Owned(rng.bytes(input_bytes as usize))),
            ("points_indices", Cow::Owned(le_bytes::<i64>(&pairs))),
            ("points_updates", Cow::Owned(rng.bytes(points * 4))),
        ];
        prepared
    }
}

pub fn shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for side in [1024, 4096, 8192] {
        for divisor in [8, 16, 256, 65536] {
            for sorted in [false, true] {
                shapes.push(Shape {
                    side,
                    divisor,
                    sorted,
                });
            }
        }
    }
    shapes
}
