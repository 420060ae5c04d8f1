//! The narrow-element sweep (`--sweep`): ScatterElements and GatherElements of 1- and 2-byte
//! elements over the shape classes where word-sharing bites. Peer: `bench/torch_sweep.py`,
//! which builds the same shapes under the same names.
//!
//! Every combination of:
//! - operator: ScatterElements out of place, in place (output bound to the input's buffer),
//!   GatherElements;
//! - element: Int8 and Float16;
//! - axis and index pattern: axis 0 with `idx[i, j] = p[i]` (whole rows, `p` distinct rows),
//!   axis 0 with `idx[i, j] = (p[i] + j) mod rows` (every element its own row), axis 1 with
//!   `idx[i, j] = (q[j] + i) mod columns` (distinct columns within a row);
//! - the indexed tensor's rows: 4096 (even) or 4095 (odd), so totals that are and are not
//!   multiples of 4 bytes;
//! - its row length: 4096 to 4099 bytes for Int8, 2048 to 2051 elements for Float16 (rows of
//!   4k, 4k+1, 4k+2, 4k+3 bytes; Float16 rows are 4k or 4k+2);
//! - indices: Int32 and Int64.
//!
//! The dense tensor (a scatter's updates, a gather's output) is [rows / 2, columns] along
//! axis 0 and [rows, columns - 2048 bytes' worth] along axis 1: the same byte classes.
//! Bytes counted as WORKLOADS.md does: a scatter out of place 2 x input + 2 x updates +
//! indices, in place 2 x updates + indices, a gather 2 x output + indices.

use std::borrow::Cow;

use dml_wgsl::{DataType, GatherElementsDesc, OperatorDesc, ScatterElementsDesc, TensorDesc};

use super::{Prepared, Rng, le_bytes, permutation_prefix};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Scatter,
    ScatterInPlace,
    Gather,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Axis 0, an updates row to one output row.
    Rows,
    /// Axis 0, every element of a row to another row.
    Diagonal,
    /// Axis 1, distinct columns within each row.
    Columns,
}

#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub operation: Operation,
    pub data_type: DataType,
    pub pattern: Pattern,
    /// The indexed tensor (a scatter's input and output, a gather's input): [rows, columns].
    pub rows: u32,
    pub columns: u32,
    pub index_type: DataType,
}

/// Every shape of the sweep, in a fixed order (the peer's order).
pub fn shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for operation in [
        Operation::Scatter,
        Operation::ScatterInPlace,
        Operation::Gather,
    ] {
        for data_type in [DataType::Int8, DataType::Float16] {
            for pattern in [Pattern::Rows, Pattern::Diagonal, Pattern::Columns] {
                for rows in [4096, 4095] {
                    let first = 4096 / data_type.size_in_bytes();
                    for columns in first..first + 4 {
                        for index_type in [DataType::Int32, DataType::Int64] {
                            shapes.push(Shape {
                                operation,
                                data_type,
                                pattern,
                                rows,
                                columns,
                                index_type,
                            });
                        }
                    }
                }
            }
        }
    }
    shapes
}

impl Shape {
    /// `sweep_<scatter|scatter_inplace|gather>_<i8|f16>_<rows|diag|cols>_<rows>x<columns>_<i32|i64>`.
    pub fn name(&self) -> String {
        let operation = match self.operation {
            Operation::Scatter => "scatter",
            Operation::ScatterInPlace => "scatter_inplace",
            Operation::Gather => "gather",
        };
        let element = match self.data_type {
            DataType::Int8 => "i8",
            _ => "f16",
        };
        let pattern = match self.pattern {
            Pattern::Rows => "rows",
            Pattern::Diagonal => "diag",
            Pattern::Columns => "cols",
        };
        let index = match self.index_type {
            DataType::Int32 => "i32",
            _ => "i64",
        };
        format!(
            "sweep_{operation}_{element}_{pattern}_{}x{}_{index}",
            self.rows, self.columns
        )
    }

    fn axis(&self) -> u32 {
        match self.pattern {
            Pattern::Rows | Pattern::Diagonal => 0,
            Pattern::Columns => 1,
        }
    }

    /// The dense tensor's sizes (updates, or a gather's output; the indices' too).
    pub fn dense(&self) -> [u32; 2] {
        match self.axis() {
            0 => [self.rows / 2, self.columns],
            _ => [
                self.rows,
                self.columns - 2048 / self.data_type.size_in_bytes(),
            ],
        }
    }

    /// The flat index tensor of the pattern.
    fn indices(&self, rng: &mut Rng) -> Vec<i64> {
        let [dense_rows, dense_columns] = self.dense();
        let (rows, columns) = (self.rows as i64, self.columns as i64);
        let (dense_rows, dense_columns) = (dense_rows as usize, dense_columns as usize);
        match self.pattern {
            Pattern::Rows | Pattern::Diagonal => {
                let p = permutation_prefix(rng, rows as u64, dense_rows);
                let diagonal = self.pattern == Pattern::Diagonal;
                (0..dense_rows * dense_columns)
                    .map(|at| {
                        let (i, j) = (at / dense_columns, at % dense_columns);
                        if diagonal {
                            (p[i] + j as i64) % rows
                        } else {
                            p[i]
                        }
                    })
                    .collect()
            }
            Pattern::Columns => {
                let q = permutation_prefix(rng, columns as u64, dense_columns);
                (0..dense_rows * dense_columns)
                    .map(|at| (q[at % dense_columns] + (at / dense_columns) as i64) % columns)
                    .collect()
            }
        }
    }

    /// The operator and its inputs (fresh random data; buffer names shared by every shape,
    /// so the caller drops the buffers of the shape before).
    pub fn prepare(&self, rng: &mut Rng) -> Prepared<'static> {
        let width = self.data_type.size_in_bytes() as u64;
        let index_width = self.index_type.size_in_bytes() as u64;
        let dense = self.dense();
        let indexed_units = self.rows as u64 * self.columns as u64;
        let dense_units = dense[0] as u64 * dense[1] as u64;
        let tensor = |sizes: &[u32]| TensorDesc::new(self.data_type, sizes);
        let indexed = [self.rows, self.columns];
        let indices = TensorDesc::new(self.index_type, &dense);
        let index_values = self.indices(rng);
        let index_bytes = if self.index_type == DataType::Int32 {
            let narrow: Vec<i32> = index_values.iter().map(|&i| i as i32).collect();
            le_bytes::<i32>(&narrow)
        } else {
            le_bytes::<i64>(&index_values)
        };
        let input = rng.bytes((indexed_units * width) as usize);
        let index_total = dense_units * index_width;
        let (desc, bytes): (OperatorDesc, u64) = match self.operation {
            Operation::Gather => (
                GatherElementsDesc::new(tensor(&indexed), indices, tensor(&dense), self.axis())
                    .into(),
                2 * dense_units * width + index_total,
            ),
            Operation::Scatter | Operation::ScatterInPlace => {
                let copy = if self.operation == Operation::Scatter {
                    2 * indexed_units * width
                } else {
                    0
                };
                (
                    ScatterElementsDesc::new(
                        tensor(&indexed),
                        indices,
                        tensor(&dense),
                        tensor(&indexed),
                        self.axis(),
                    )
                    .into(),
                    copy + 2 * dense_units * width + index_total,
                )
            }
        };
        let mut prepared = Prepared::new(desc, &[], bytes);
        prepared.inputs = vec![
            ("sweep_input", Cow::Owned(input)),
            ("sweep_indices", Cow::Owned(index_bytes)),
        ];
        if self.operation != Operation::Gather {
            let updates = rng.bytes((dense_units * width) as usize);
            prepared.inputs.push(("sweep_updates", Cow::Owned(updates)));
        }
        prepared.in_place = self.operation == Operation::ScatterInPlace;
        prepared
    }
}
