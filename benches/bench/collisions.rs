//! Issue 26's collision workloads: scatter reductions where many updates meet few targets
//! (histograms, sorted segments, rows added or maxed into a table). Peer:
//! `bench/torch_collisions.py`, the same names, shapes and bytes. They run after the decode
//! steps; each draws its data from its own generator, seeded by its name (`seed`), so that
//! neither they nor the workloads before them change each other's data.
//!
//! Bytes counted as `REDUCTIONS` counts them (`reduction_bytes`): `2 x input + updates +
//! indices`. Out of place: every run copies `output = input`, then reduces. Indices Int64.
//!
//! | name | operator | shapes | peer | bytes |
//! | --- | --- | --- | --- | --- |
//! | scatter_add_histogram | ScatterElements axis 0, Add | i32 input [1000]; indices [10485760] uniform in 0..1000; updates i32 [10485760] (whole range) | `out.scatter_add_(0, idx, upd)` | 125,837,120 |
//! | scatter_min_i64_segments | ScatterElements axis 0, Min | i64 input [131072]; indices [4194304] sorted segment ids (every target a run, random lengths averaging 32); updates i64 [4194304] (whole range) | `out.scatter_reduce_(0, idx, upd, "amin", include_self=True)` | 69,206,016 |
//! | index_add_rows_f16 | ScatterND, Add | f16 table [32768, 1024]; indices [4096, 1] uniform in 0..32768; updates f16 [4096, 1024] | `out.index_add_(0, idx, upd)` | 142,639,104 |
//! | index_add_rows_f64 | ScatterND, Add | f64 table [32768, 512]; indices [4096, 1] uniform in 0..32768; updates f64 [4096, 512] | `out.index_add_(0, idx, upd)` | 285,245,440 |
//! | scatter_max_f32_edges | ScatterND, Max | f32 nodes [65536, 64]; indices [1048576, 1] uniform in 0..65536 (each edge's target); messages f32 [1048576, 64] | `out.scatter_reduce_(0, idx[:, None].expand(-1, 64), msg, "amax", include_self=True)` | 310,378,496 |
//!
//! Floats are uniform in (0, 1] (never zero, no NaN or infinity), integers random over their
//! whole range. `index_add_rows_f16` and `scatter_max_f32_edges` are also timed with
//! `DuplicateMode::InOrder` as `<name>_in_order` on the same buffers (peer: the same op under
//! `torch.use_deterministic_algorithms(True)`); `--only NAME` selects both modes,
//! `--only NAME_in_order` the in-order one alone. `--quick` divides the update counts, the
//! segment targets and the table rows by 16 (the histogram's 1000 bins and the row widths stay).
//!
//! `--collision-sweep` runs `sweep` instead: the same kinds across their range, each name
//! giving its shape.
//!
//! | name | shapes |
//! | --- | --- |
//! | sweep_histogram_i32_add_U_to_B | Int32 Add, U = 4194304 updates uniform over B ∈ {1, 16, 256, 1000, 2049, 4096, 8192, 16384, 65536} bins |
//! | sweep_segments_i64_min_U_to_T_sorted | Int64 Min, U = 4194304 updates into T ∈ {1000, 131072} targets, sorted segment ids |
//! | sweep_segments_i64_min_U_to_T_uniform | the same with indices uniform over the T targets |
//! | sweep_elements_{f32,f64}_add_U_to_T | Float32 and Float64 Add, U = 4194304 updates uniform over T ∈ {1, 1000, 2049, 4096, 8192, 16384, 16385, 65536, 131072, 1048576, 4194304} targets; also `_in_order` |
//! | sweep_zeros_{f32,f64}_add_U_to_T | the same from an input of zeros (+0), T ∈ {1000, 16384, 65536}; also `_in_order`; not in place |
//! | sweep_many_{f16,f32,f64}_add_M_to_T | Float16, Float32 and Float64 Add, M = 67108864 updates uniform over T ∈ {256, 4096, 16384} targets; Float64 also `_in_order` |
//! | sweep_index_add_f16_KxL_into_R | Float16 Add of K = 4096 rows of L ∈ {1, 16, 512, 2048, 4096} elements into R table rows, R = 32768 or fewer so that the table is at most 256 MiB, then K = 16, 1024 and 2048 rows of L = 1024 (a few rows into a large table, a 32nd and a 16th of it); also `_in_order` |
//! | sweep_index_add_{f32,f64,i16}_KxL_into_R | the same in Float32 (R: 32768 to 16384), Float64 (R: 32768, 32768, 32768, 16384, 8192) and Int16 (random bits; R as Float16's); default mode only |
//! | sweep_few_{f32,f16,f64}_add_RxL_into_T | Add of rows into few targets: R update rows of L elements, R x L = 65536 x 64, 4096 x 1024 and 262144 x 256 into T ∈ {1, 4, 16, 64, 256} table rows, Float32, Float16 and Float64; Float16 also `_in_order` |
//! | sweep_hub_{f32_add,f16_add,f64_add,f32_max}_262144x64_into_65536 | rows of 64 into 65,536 rows, a quarter of them onto row 0 (a hub), the rest uniform; Float32 Max also `_in_order` |
//! | sweep_edges_{f32,f16}_max_ExL_into_N | Max of E edge messages of L elements into N nodes (as `scatter_max_f32_edges`): Float32 262144x256 into 65536, 1048576x64 into 16384 and 4096 (64 and 256 edges a node), 65536x64 and 131072x64 into 262144 (fewer messages than the nodes' elements), 1048576x16 into 65536 (narrow rows); Float16 1048576x64 into 65536; also `_in_order` |
//!
//! With `--quick`, U, M, K, R, E and N are divided by 16 (and so appear divided in the names); B,
//! T and L stay. With `--in-place`, every shape runs with its output bound to its input (no
//! copy; each run reduces into what the runs before it left), named `<name>_inplace` (and
//! `<name>_inplace_in_order`).

use std::borrow::Cow;

use dml_wgsl::{DataType, Reduction, ScatterElementsDesc, ScatterNdDesc, TensorDesc};

use super::{Bench, Prepared, Rng, reduction_bytes, shrink, time_both_modes, unit_floats};

/// How a 1-D scatter's indices are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Indices {
    /// Uniform over the targets.
    Uniform,
    /// Sorted segment ids: every target a run of random length, in order (0, 0, 1, 2, 2, ..).
    Sorted,
}

#[derive(Clone, Copy, Debug)]
enum Shape {
    /// ScatterElements along axis 0 of a 1-D tensor of `targets` elements, `updates` updates.
    Elements {
        data_type: DataType,
        reduction: Reduction,
        targets: u32,
        updates: u32,
        indices: Indices,
        /// The input (each sum's start) all +0 instead of random values.
        zeros: bool,
    },
    /// ScatterND of whole rows: `update_rows` rows of `row_length` elements into a table of
    /// `table_rows` rows, indices [update_rows, 1] uniform over the table (with `hub`, a
    /// quarter of them onto its row 0 instead).
    Rows {
        data_type: DataType,
        reduction: Reduction,
        table_rows: u32,
        row_length: u32,
        update_rows: u32,
        hub: bool,
    },
}

pub struct Workload {
    name: String,
    shape: Shape,
    /// Also timed with `DuplicateMode::InOrder` under `<name>_in_order`.
    in_order: bool,
    /// Its buffers' names (input, indices, updates): `Bench::input` keeps one buffer a name.
    buffers: [&'static str; 3],
}

/// The workloads of the module's first table (sizes divided by 16 with `quick`).
pub fn workloads(quick: bool) -> Vec<Workload> {
    let size = |n: u32| shrink(quick, n);
    let rows = |data_type, reduction, table_rows, row_length, update_rows| Shape::Rows {
        data_type,
        reduction,
        table_rows: size(table_rows),
        row_length,
        update_rows: size(update_rows),
        hub: false,
    };
    vec![
        Workload {
            name: "scatter_add_histogram".into(),
            shape: Shape::Elements {
                data_type: DataType::Int32,
                reduction: Reduction::Add,
                targets: 1000,
                updates: size(10_485_760),
                indices: Indices::Uniform,
                zeros: false,
            },
            in_order: false,
            buffers: ["histogram_bins", "histogram_ids", "histogram_updates"],
        },
        Workload {
            name: "scatter_min_i64_segments".into(),
            shape: Shape::Elements {
                data_type: DataType::Int64,
                reduction: Reduction::Min,
                targets: size(131_072),
                updates: size(4_194_304),
                indices: Indices::Sorted,
                zeros: false,
            },
            in_order: false,
            buffers: ["segments_input", "segments_ids", "segments_updates"],
        },
        Workload {
            name: "index_add_rows_f16".into(),
            shape: rows(DataType::Float16, Reduction::Add, 32768, 1024, 4096),
            in_order: true,
            buffers: [
                "index_add_f16_table",
                "index_add_f16_ids",
                "index_add_f16_rows",
            ],
        },
        Workload {
            name: "index_add_rows_f64".into(),
            shape: rows(DataType::Float64, Reduction::Add, 32768, 512, 4096),
            in_order: false,
            buffers: [
                "index_add_f64_table",
                "index_add_f64_ids",
                "index_add_f64_rows",
            ],
        },
        Workload {
            name: "scatter_max_f32_edges".into(),
            shape: rows(DataType::Float32, Reduction::Max, 65536, 64, 1_048_576),
            in_order: true,
            buffers: ["edges_nodes", "edges_targets", "edges_messages"],
        },
    ]
}

/// The largest table, in bytes, of the sweep's rows (the long rows get fewer table rows).
const SWEEP_TABLE_BYTES: u64 = 256 << 20;

/// The edge sweep's shapes: (type, edges, row length, nodes).
const EDGE_SHAPES: [(DataType, u32, u32, u32); 7] = [
    (DataType::Float32, 262_144, 256, 65_536),
    (DataType::Float32, 1 << 20, 64, 16_384),
    (DataType::Float32, 1 << 20, 64, 4096),
    (DataType::Float32, 65_536, 64, 262_144),
    (DataType::Float32, 131_072, 64, 262_144),
    (DataType::Float32, 1 << 20, 16, 65_536),
    (DataType::Float16, 1 << 20, 64, 65_536),
];

/// The few-targets rows' shapes (update rows, row length), each into 1, 4, 16, 64 and 256 rows.
const FEW_TARGET_ROWS: [(u32, u32); 3] = [(65_536, 64), (4096, 1024), (262_144, 256)];

/// The single-element sweep's targets: one (every update collides), a few, the workgroup
/// bins' ranges (2049 to 16,384 units) and just past them, many, and as many as the updates.
const ELEMENT_TARGETS: [u32; 11] = [
    1,
    1000,
    2049,
    4096,
    8192,
    16_384,
    16_385,
    65_536,
    131_072,
    1 << 20,
    1 << 22,
];

/// The zero-started sums' targets (`sweep_zeros_*`): runs of about 4096 updates (8 chunks of
/// Float64's, 4 of Float32's), of 256 (one chunk) and of 64 (either side of the long runs).
const ZERO_START_TARGETS: [u32; 3] = [1000, 16_384, 65_536];

/// The many-updates sweep's updates and targets (`sweep_many_*`).
const MANY_UPDATES: u32 = 1 << 26;
const MANY_UPDATE_TARGETS: [u32; 3] = [256, 4096, 16_384];

/// The shapes of the module's second table, in the peer's order. Every shape's buffers share
/// names: the caller drops the buffers of the shape before.
pub fn sweep(quick: bool) -> Vec<Workload> {
    let buffers = ["collision_input", "collision_indices", "collision_updates"];
    let updates = shrink(quick, 1 << 22);
    let mut shapes = Vec::new();
    for bins in [1, 16, 256, 1000, 2049, 4096, 8192, 16384, 65536] {
        shapes.push(Workload {
            name: format!("sweep_histogram_i32_add_{updates}_to_{bins}"),
            shape: Shape::Elements {
                data_type: DataType::Int32,
                reduction: Reduction::Add,
                targets: bins,
                updates,
                indices: Indices::Uniform,
                zeros: false,
            },
            in_order: false,
            buffers,
        });
    }
    for targets in [1000, 131_072] {
        for (indices, pattern) in [(Indices::Sorted, "sorted"), (Indices::Uniform, "uniform")] {
            shapes.push(Workload {
                name: format!("sweep_segments_i64_min_{updates}_to_{targets}_{pattern}"),
                shape: Shape::Elements {
                    data_type: DataType::Int64,
                    reduction: Reduction::Min,
                    targets,
                    updates,
                    indices,
                    zeros: false,
                },
                in_order: false,
                buffers,
            });
        }
    }
    // Float Add of single elements, uniform over the targets.
    let float_add = |class: &str, element: &str, data_type, updates, targets| Workload {
        name: format!("sweep_{class}_{element}_add_{updates}_to_{targets}"),
        shape: Shape::Elements {
            data_type,
            reduction: Reduction::Add,
            targets,
            updates,
            indices: Indices::Uniform,
            zeros: class == "zeros",
        },
        in_order: data_type == DataType::Float64 || class != "many",
        buffers,
    };
    // Float32 and Float64: one target (every update collides), a few, many.
    for (data_type, element) in [(DataType::Float32, "f32"), (DataType::Float64, "f64")] {
        for targets in ELEMENT_TARGETS {
            shapes.push(float_add("elements", element, data_type, updates, targets));
        }
    }
    // Sums from an output of zeros (most sums start there): the in-order chains' start.
    for (data_type, element) in [(DataType::Float32, "f32"), (DataType::Float64, "f64")] {
        for targets in ZERO_START_TARGETS {
            shapes.push(float_add("zeros", element, data_type, updates, targets));
        }
    }
    // Many more updates than a GPU has threads (a thread takes dozens) onto a few
    // targets: the workgroup bins' and slots' partials at their limits.
    let many = shrink(quick, MANY_UPDATES);
    for targets in MANY_UPDATE_TARGETS {
        for (data_type, element) in [
            (DataType::Float16, "f16"),
            (DataType::Float32, "f32"),
            (DataType::Float64, "f64"),
        ] {
            shapes.push(float_add("many", element, data_type, many, targets));
        }
    }
    for (data_type, element) in [
        (DataType::Float16, "f16"),
        (DataType::Float32, "f32"),
        (DataType::Float64, "f64"),
        (DataType::Int16, "i16"),
    ] {
        // Rows of every length, then a few rows into a large table (mostly a copy).
        // Then rows of 1024 a 32nd and a 16th of the table's (either side of the sparse
        // rows' rule, issue 26).
        let row_shapes = [1, 16, 512, 2048, 4096]
            .map(|row_length| (shrink(quick, 4096), row_length))
            .into_iter()
            .chain([(16, 1024)])
            .chain([1024, 2048].map(|rows| (shrink(quick, rows), 1024)));
        for (update_rows, row_length) in row_shapes {
            let row_bytes = row_length as u64 * data_type.size_in_bytes() as u64;
            let table_rows = shrink(quick, 32768).min((SWEEP_TABLE_BYTES / row_bytes) as u32);
            shapes.push(Workload {
                name: format!(
                    "sweep_index_add_{element}_{update_rows}x{row_length}_into_{table_rows}"
                ),
                shape: Shape::Rows {
                    data_type,
                    reduction: Reduction::Add,
                    table_rows,
                    row_length,
                    update_rows,
                    hub: false,
                },
                in_order: data_type == DataType::Float16,
                buffers,
            });
        }
    }
    // Rows into few targets (every row of a target collides with hundreds to thousands): Add
    // of three float types, Float16 in order too.
    for (update_rows, row_length) in FEW_TARGET_ROWS {
        let update_rows = shrink(quick, update_rows);
        for table_rows in [1, 4, 16, 64, 256] {
            for (data_type, element) in [
                (DataType::Float32, "f32"),
                (DataType::Float16, "f16"),
                (DataType::Float64, "f64"),
            ] {
                shapes.push(Workload {
                    name: format!(
                        "sweep_few_{element}_add_{update_rows}x{row_length}_into_{table_rows}"
                    ),
                    shape: Shape::Rows {
                        data_type,
                        reduction: Reduction::Add,
                        table_rows,
                        row_length,
                        update_rows,
                        hub: false,
                    },
                    in_order: data_type == DataType::Float16,
                    buffers,
                });
            }
        }
    }
    // A hub: a quarter of 262,144 rows of 64 onto one of 65,536 rows, the rest uniform
    // (the mean is low, one target's rows are many).
    for (data_type, reduction, name) in [
        (DataType::Float32, Reduction::Add, "f32_add"),
        (DataType::Float16, Reduction::Add, "f16_add"),
        (DataType::Float64, Reduction::Add, "f64_add"),
        (DataType::Float32, Reduction::Max, "f32_max"),
    ] {
        let (update_rows, table_rows) = (shrink(quick, 262_144), shrink(quick, 65_536));
        shapes.push(Workload {
            name: format!("sweep_hub_{name}_{update_rows}x64_into_{table_rows}"),
            shape: Shape::Rows {
                data_type,
                reduction,
                table_rows,
                row_length: 64,
                update_rows,
                hub: true,
            },
            in_order: reduction == Reduction::Max,
            buffers,
        });
    }
    for (data_type, edges, row_length, nodes) in EDGE_SHAPES {
        let (edges, nodes) = (shrink(quick, edges), shrink(quick, nodes));
        let element = if data_type == DataType::Float16 {
            "f16"
        } else {
            "f32"
        };
        shapes.push(Workload {
            name: format!("sweep_edges_{element}_max_{edges}x{row_length}_into_{nodes}"),
            shape: Shape::Rows {
                data_type,
                reduction: Reduction::Max,
                table_rows: nodes,
                row_length,
                update_rows: edges,
                hub: false,
            },
            in_order: true,
            buffers,
        });
    }
    shapes
}

/// Times each workload that `wanted` names (in both modes where it has an in-order variant),
/// each on data from a generator seeded by its name. `fresh_buffers` drops the buffers kept
/// before each workload, for workloads whose buffer names are shared (the sweep's).
/// `in_place`: the output bound to the input (no copy `output = input`; each run reduces into
/// what the runs before it left), reported as `<name>_inplace`.
pub fn run(
    b: &mut Bench,
    workloads: &[Workload],
    wanted: impl Fn(&str) -> bool,
    fresh_buffers: bool,
    in_place: bool,
) {
    for workload in workloads {
        let name = workload.name.as_str();
        let default = wanted(name);
        let in_order_wanted = workload.in_order && wanted(&format!("{name}_in_order"));
        // In place each run reduces into what the runs before it left: sums from zeros would
        // start from zeros in their first run only.
        let from_zeros = matches!(workload.shape, Shape::Elements { zeros: true, .. });
        if (!default && !in_order_wanted) || (in_place && from_zeros) {
            continue;
        }
        if fresh_buffers {
            b.inputs.borrow_mut().clear();
        }
        let mut prepared = workload.prepare(&mut Rng::new(seed(name)));
        prepared.in_place = in_place;
        let name = if in_place {
            format!("{name}_inplace")
        } else {
            name.to_string()
        };
        if workload.in_order {
            time_both_modes(b, &name, &mut prepared, default);
        } else {
            b.operator(&name, &prepared);
        }
    }
}

/// Issue 26's seed mixed with the name's FNV-1a hash: a workload's data is the same whatever
/// else runs, and whatever order the lists are in.
fn seed(name: &str) -> u64 {
    let hash = name.bytes().fold(0xCBF2_9CE4_8422_2325u64, |hash, byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01B3)
    });
    0x26 ^ hash
}

impl Workload {
    /// The operator and its input, indices and updates, drawn from `rng`.
    fn prepare(&self, rng: &mut Rng) -> Prepared<'static> {
        let index_type = DataType::Int64;
        let (desc, input, indices, updates) = match self.shape {
            Shape::Elements {
                data_type,
                reduction,
                targets,
                updates,
                indices,
                zeros,
            } => {
                let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
                let desc = ScatterElementsDesc::new(
                    tensor(&[targets]),
                    TensorDesc::new(index_type, &[updates]),
                    tensor(&[updates]),
                    tensor(&[targets]),
                    0,
                )
                .with_reduction(reduction);
                let input = if zeros {
                    vec![0; targets as usize * data_type.size_in_bytes() as usize]
                } else {
                    values(rng, data_type, targets as usize)
                };
                let index = match indices {
                    Indices::Uniform => uniform_indices(rng, updates as usize, targets),
                    Indices::Sorted => sorted_segments(rng, updates as usize, targets),
                };
                let update_values = values(rng, data_type, updates as usize);
                (desc.into(), input, index, update_values)
            }
            Shape::Rows {
                data_type,
                reduction,
                table_rows,
                row_length,
                update_rows,
                hub,
            } => {
                let tensor = |sizes: &[u32]| TensorDesc::new(data_type, sizes);
                let desc = ScatterNdDesc::new(
                    tensor(&[table_rows, row_length]),
                    TensorDesc::new(index_type, &[update_rows, 1]),
                    tensor(&[update_rows, row_length]),
                    tensor(&[table_rows, row_length]),
                    2,
                    2,
                )
                .with_reduction(reduction);
                let table = values(rng, data_type, table_rows as usize * row_length as usize);
                let mut index = uniform_indices(rng, update_rows as usize, table_rows);
                if hub {
                    // A quarter of the Int64 indices onto row 0.
                    for row_index in index.chunks_exact_mut(8) {
                        if rng.range(0, 3) == 0 {
                            row_index.fill(0);
                        }
                    }
                }
                let rows = values(rng, data_type, update_rows as usize * row_length as usize);
                (desc.into(), table, index, rows)
            }
        };
        let bytes = reduction_bytes(
            input.len() as u64,
            updates.len() as u64,
            indices.len() as u64,
        );
        let [input_name, indices_name, updates_name] = self.buffers;
        let mut prepared = Prepared::new(desc, &[], bytes);
        prepared.inputs = vec![
            (input_name, Cow::Owned(input)),
            (indices_name, Cow::Owned(indices)),
            (updates_name, Cow::Owned(updates)),
        ];
        prepared
    }
}

/// `count` values of `data_type` as bytes: floats uniform in (0, 1] on their type's grid (as
/// `1 - torch.rand`: no zeros, NaNs or infinities, so that Add and Max see numbers), integers
/// over their whole range.
fn values(rng: &mut Rng, data_type: DataType, count: usize) -> Vec<u8> {
    // k / 2^bits for k in 1..=2^bits: exact in a float of `bits` significant bits.
    let grid = |rng: &mut Rng, bits: u32| {
        ((rng.next_u64() >> (64 - bits)) + 1) as f64 / (1u64 << bits) as f64
    };
    match data_type {
        DataType::Float32 => unit_floats(rng, count),
        DataType::Float64 => (0..count)
            .flat_map(|_| grid(rng, 53).to_le_bytes())
            .collect(),
        DataType::Float16 => (0..count)
            .flat_map(|_| half::f16::from_f64(grid(rng, 11)).to_le_bytes())
            .collect(),
        DataType::BFloat16 => (0..count)
            .flat_map(|_| half::bf16::from_f64(grid(rng, 8)).to_le_bytes())
            .collect(),
        // Integers: any bits are a value.
        _ => random_bytes(rng, count * data_type.size_in_bytes() as usize),
    }
}

/// `count` random bytes, eight from each draw (`Rng::bytes` draws one a byte: slow for the
/// tens of millions here).
fn random_bytes(rng: &mut Rng, count: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(count + 8);
    while bytes.len() < count {
        bytes.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    bytes.truncate(count);
    bytes
}

/// `count` Int64 indices uniform in `0..targets`, as bytes.
fn uniform_indices(rng: &mut Rng, count: usize, targets: u32) -> Vec<u8> {
    let high = targets.max(1) as u64 - 1;
    (0..count)
        .flat_map(|_| (rng.range(0, high) as i64).to_le_bytes())
        .collect()
}

/// `count` sorted Int64 segment ids over `targets` targets, as bytes: `targets - 1` distinct
/// random cut points in `1..count` start the next target's run, so every target gets a run
/// (when `targets <= count`) and the runs average `count / targets`.
fn sorted_segments(rng: &mut Rng, count: usize, targets: u32) -> Vec<u8> {
    let cuts = (targets as usize).min(count).saturating_sub(1);
    let mut cut = vec![false; count];
    // Draw the cut points, or the positions left uncut when those are fewer: rejection stays
    // quick either way (at most half the positions are ever taken).
    let positions = count.saturating_sub(1);
    let (drawn, mark) = if cuts <= positions / 2 {
        (cuts, true)
    } else {
        cut[1..].fill(true);
        (positions - cuts, false)
    };
    let mut done = 0;
    while done < drawn {
        let at = rng.range(1, positions as u64) as usize;
        if cut[at] != mark {
            cut[at] = mark;
            done += 1;
        }
    }
    let mut id = 0i64;
    let mut bytes = Vec::with_capacity(count * 8);
    for &starts_run in &cut {
        id += starts_run as i64;
        bytes.extend_from_slice(&id.to_le_bytes());
    }
    bytes
}
