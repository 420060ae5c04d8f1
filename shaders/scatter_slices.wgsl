// requires: common index_map
// The slices of the in-order scatter reductions (shaders/sort.wgsl, scatter_runs.wgsl and
// scatter_lists.wgsl): where a slice lands and where its units lie in the updates, and the
// columns of the passes whose rows of threads take turns along a run.

struct Slice {
    // The slice's first unit and where it lands.
    first: u32,
    at: Location,
}

fn locate_slice(b: u32) -> Slice {
    let first = b * params.in_order.slice_units;
    return Slice(first, apply_index(locate_base(first)));
}

// Where unit `offset` of a slice lies in the updates, from the slice's first unit.
fn slice_dense_offset(offset: u32) -> u32 {
    var rest = offset;
    var dense = 0u;
    for (var d = RANK; d > RANK - params.in_order.slice_rank; d -= 1u) {
        let k = d - 1u;
        let size = size_at(k);
        dense += (rest % size) * dense_stride_at(k);
        rest = rest / size;
    }
    return dense;
}

// Where slice b's first unit lies in the updates (the outermost coordinate needs no division).
fn slice_dense_start(b: u32) -> u32 {
    var rest = b;
    var dense = 0u;
    for (var d = RANK - params.in_order.slice_rank; d > 1u; d -= 1u) {
        let k = d - 1u;
        let size = size_at(k);
        dense += (rest % size) * dense_stride_at(k);
        rest = rest / size;
    }
    return dense + rest * dense_stride_at(0u);
}

// The columns' partial results, handed from row to row of threads.
var<workgroup> column_values: array<Unit, SLICE_TILE>;

// A thread's column of a block in the passes that take turns (fold_slice_runs,
// fold_slice_list_runs): its lane in the tile, its row of threads (turn), whether the column
// lies in the slice, its output unit and its place in a slice's updates. The first row loads
// the columns' values from the output; after the turns it stores them (store_column).
struct Column {
    lane: u32,
    turn: u32,
    in_slice: bool,
    unit: u32,
    inner: u32,
}

fn slice_column(block: u32, tile: u32, local: u32) -> Column {
    let lane = local % SLICE_TILE;
    let offset = tile * SLICE_TILE + lane;
    var column = Column(lane, local / SLICE_TILE, offset < params.in_order.slice_units, 0u, 0u);
    column.unit = block * params.in_order.slice_units + offset;
    if column.in_slice {
        column.inner = slice_dense_offset(offset);
        if column.turn == 0u {
            column_values[lane] = load_output(column.unit);
        }
    }
    return column;
}

fn store_column(column: Column) {
    if column.turn == 0u && column.in_slice {
        store_output(column.unit, column_values[column.lane]);
    }
}
