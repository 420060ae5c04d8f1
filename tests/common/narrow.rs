//! The shape classes of the narrow-element sweep (`benches/bench/sweep.rs`), small enough for
//! a CPU adapter: ScatterElements (out of place and in place) and GatherElements of 1- and
//! 2-byte elements, along the outer and the inner axis, rows of 4k, 4k+1, 4k+2 and 4k+3
//! bytes, even and odd row counts (totals that are and are not whole words), Int32 and
//! Int64 indices. Shared by the native tests and the browser's.

use dml_wgsl::{DataType, GatherElementsDesc, OperatorDesc, ScatterElementsDesc, TensorDesc};

use super::cases::{Case, Rng, random_index, random_inputs, write_indices};

/// How a narrow case runs, and what it must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowRun {
    /// A scatter out of place with random indices, duplicates included: each target holds
    /// one of its updates (`Expect::AnyUpdate`).
    ScatterOutOfPlace,
    /// A scatter bound in place, every target at most once: the reference's bytes.
    ScatterInPlace,
    /// A gather of random indices: the reference's bytes.
    Gather,
}

/// Every class of the sweep once, with random data: (how it runs, the case).
pub fn narrow_cases(rng: &mut Rng) -> Vec<(NarrowRun, Case)> {
    let mut cases = Vec::new();
    for data_type in [DataType::Int8, DataType::Float16] {
        // Rows of 300 to 303 bytes (Int8), of 600 and 602 bytes (Float16): at least a
        // workgroup's units, so the scatters that copy rows in their kernel take them.
        let widths: &[u32] = if data_type == DataType::Int8 {
            &[300, 301, 302, 303]
        } else {
            &[300, 301]
        };
        for rows in [6u32, 7] {
            for &columns in widths {
                for axis in [0u32, 1] {
                    for index_type in [DataType::Int32, DataType::Int64] {
                        for run in [
                            NarrowRun::ScatterOutOfPlace,
                            NarrowRun::ScatterInPlace,
                            NarrowRun::Gather,
                        ] {
                            let shape = NarrowShape {
                                data_type,
                                rows,
                                columns,
                                axis,
                                index_type,
                            };
                            cases.push((run, shape.case(rng, run)));
                        }
                    }
                }
            }
        }
    }
    cases
}

struct NarrowShape {
    data_type: DataType,
    rows: u32,
    columns: u32,
    axis: u32,
    index_type: DataType,
}

impl NarrowShape {
    fn case(&self, rng: &mut Rng, run: NarrowRun) -> Case {
        let indexed = [self.rows, self.columns];
        // Along axis 0 half the rows (rounded up); along axis 1 every row, 100 columns fewer.
        let dense = if self.axis == 0 {
            [self.rows.div_ceil(2), self.columns]
        } else {
            [self.rows, self.columns - 100]
        };
        let tensor = |sizes: &[u32]| TensorDesc::new(self.data_type, sizes);
        let indices = TensorDesc::new(self.index_type, &dense);
        let desc: OperatorDesc = match run {
            NarrowRun::Gather => GatherElementsDesc::new(
                tensor(&indexed),
                indices.clone(),
                tensor(&dense),
                self.axis,
            )
            .into(),
            _ => ScatterElementsDesc::new(
                tensor(&indexed),
                indices.clone(),
                tensor(&dense),
                tensor(&indexed),
                self.axis,
            )
            .into(),
        };
        let mut inputs = random_inputs(rng, &desc);
        let bound = indexed[self.axis as usize];
        if run == NarrowRun::ScatterInPlace {
            // Distinct targets: a permutation's prefix a row along axis 0 (each updates row to
            // its own output row), a column permutation a row along axis 1.
            let lines = if self.axis == 0 { 1 } else { dense[0] as usize };
            let permutations: Vec<Vec<i128>> = (0..lines)
                .map(|_| {
                    let mut values: Vec<i128> = (0..bound as i128).collect();
                    rng.shuffle(&mut values);
                    values
                })
                .collect();
            write_indices(&indices, &mut inputs[1], |c| {
                if self.axis == 0 {
                    permutations[0][c[0] as usize]
                } else {
                    permutations[c[0] as usize][c[1] as usize]
                }
            });
        } else {
            write_indices(&indices, &mut inputs[1], |_| {
                random_index(rng, bound, self.index_type)
            });
        }
        Case { desc, inputs }
    }
}
