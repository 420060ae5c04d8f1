// requires: common index_map
// The slices of the in-order scatter reductions (shaders/sort.wgsl, scatter_slice_runs.wgsl
// and scatter_lists.wgsl): where a slice lands and where its units lie in the updates, and the
// columns of the passes whose rows of threads take turns along a run.

// params.in_order.fold_flags (as in src/ops/scatter_plans.rs): the first fold
// pass's groups of threads are the slices, not the output's blocks.
const FOLD_BY_SLICES: u32 = 1u;
// fold_long_runs may fold a run's updates in any order and grouping (shaders/scatter_runs.wgsl).
const FOLD_IN_ANY_ORDER: u32 = 2u;
// The sorted runs' first fold pass walks FOLD_STEPS / WIDE_PARTS slices, not FOLD_STEPS, where
// the device bounds loops (src/ops/scatter_plans.rs's first_fold_steps): out of place its
// threads take COPY_CELLS cells and walk a block's run once for each COLUMN_CELLS of them
// (fold_slice_columns_copy_wide), and their walks together stay within FOLD_STEPS (Mesa's
// loop bound, src/kernels/in_order.rs); the later passes go on from there. (The lists' wide
// copy, fold_slice_list_copy_wide, walks as many a part.)
const FOLD_WIDE_FIRST: u32 = 4u;
const WIDE_PARTS: u32 = COPY_CELLS / COLUMN_CELLS;
// This pass's first thread describes the execution's status (describe_first_bad_unit,
// shaders/index_map.wgsl): set on a pass after every report (the sorted runs' find_runs, the
// sorted rows' reduce_sorted_rows, the lists' first fold), so that no dispatch of its own waits for the last pass (about 3 us on
// an H200).
const DESCRIBES_STATUS: u32 = 8u;
// link_slices lists at most params.in_order.spill_bound rows a block and sets the rest aside
// for reduce_spilled_rows (shaders/scatter_list_spills.wgsl).
const SPILLS_ROWS: u32 = 16u;
// The sorted runs' first fold pass folds each run's first slice alone, the later passes
// (fold_slice_runs, four slices a batch) the rest: runs long on average
// (src/ops/scatter_plans.rs's RUNS_LATER).
const FOLD_RUNS_LATER: u32 = 32u;

// Where the pass describes the status (DESCRIBES_STATUS), its invocation 0 does.
fn describe_status_here(t: u32) {
    if t == 0u && (params.in_order.fold_flags & DESCRIBES_STATUS) != 0u {
        describe_first_bad_unit();
    }
}

// Slices of a run the first fold pass walks (FOLD_RUNS_LATER, FOLD_WIDE_FIRST).
fn first_fold_steps() -> u32 {
    if (params.in_order.fold_flags & FOLD_RUNS_LATER) != 0u {
        return 1u;
    }
    if (params.in_order.fold_flags & FOLD_WIDE_FIRST) != 0u {
        return FOLD_STEPS / WIDE_PARTS;
    }
    return FOLD_STEPS;
}

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

// A walk's claim of a unit by its zero and NaN updates (float Min and Max in order by lists,
// the ties section): the highest rank (0: none) and the claiming update's bits.
struct TieClaim {
    rank: u32,
    bits: Unit,
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

// The column folds (fold_slice_columns, fold_slice_list_columns): a thread takes
// COLUMN_CELLS cells of a block (a cell: a word of units narrower than a word, else a unit),
// `lanes` cells apart, so that neighbouring threads read neighbouring cells, and each walk of
// a run or list serves all of them, their loads in flight together. A thread owns its cells'
// words: it stores them whole, no compare-exchange.
var<private> column_units: array<Unit, COLUMN_UNITS>;
// Where each unit lies in a slice of the updates.
var<private> column_inner: array<u32, COLUMN_UNITS>;

// A column fold thread's group, its lane among the group's threads, their count, and the
// units it takes (whole cells, at most COLUMN_UNITS).
struct ColumnShare {
    group: u32,
    lane: u32,
    lanes: u32,
    units: u32,
}

fn column_share(t: u32) -> ColumnShare {
    return share_of_cells(t, COLUMN_CELLS);
}

// Thread t's share where a thread takes up to `cells_a_thread` cells.
fn share_of_cells(t: u32, cells_a_thread: u32) -> ColumnShare {
    let cells = params.in_order.slice_units / UNITS_PER_WORD;
    let lanes = (cells + cells_a_thread - 1u) / cells_a_thread;
    let group = t / lanes;
    let lane = t - group * lanes;
    // Cells lane, lane + lanes, .. below `cells`.
    let taken = min(cells_a_thread, (cells - lane + lanes - 1u) / lanes);
    return ColumnShare(group, lane, lanes, taken * UNITS_PER_WORD);
}

// Unit k of a share: its offset in the block.
fn share_offset(share: ColumnShare, k: u32) -> u32 {
    return (share.lane + (k / UNITS_PER_WORD) * share.lanes) * UNITS_PER_WORD + k % UNITS_PER_WORD;
}

// The share's units of the block that starts at output unit `base`.
fn load_columns(base: u32, share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            column_units[k] = load_output(base + share_offset(share, k));
        }
    }
    locate_columns(share);
    // @ties-begin
    note_column_inputs(base, share);
    // @ties-end
}

// @ties-begin
// Float Min and Max in order by lists (ReduceOrder::ListTies, shaders/scatter_lists.wgsl).
// A walk keeps its claim: of its zero and NaN updates (`position`: the slice plus one) whose
// class the unit's input does not hold (`input_class`; 0 where the pass does not know it), the
// highest rank (tie_rank: the first NaN, else the first zero) and that update's bits. An
// input of a tie class stays where the unit ends in its class, as no update of its class
// replaces it in order.
fn claim_tie(claim: TieClaim, update: Unit, position: u32, input_class: u32) -> TieClaim {
    if !is_tie(update) {
        return claim;
    }
    let kind = tie_class(update);
    let rank = tie_rank(kind, position);
    if kind == input_class || rank <= claim.rank {
        return claim;
    }
    return TieClaim(rank, update);
}

// Where a first pass's walk ends the unit's list: its value, or its claim's bits where the
// unit ended in the claim's class (the first of the class in order). No tie word is read or
// written, so most units' never are.
fn settle_tie(value: Unit, claim: TieClaim) -> Unit {
    if claim.rank != 0u && tie_class(value) == rank_class(claim.rank) {
        return claim.bits;
    }
    return value;
}

// Where the list goes on past the first pass, or its block's rows past the bound were set
// aside: the unit's tie word (the first pass's walk is its only writer) holds the walk's
// claim, or an input of a tie class at its class's top rank (position 0), above every update
// of the class; the later passes or reduce_spilled_rows claim by atomicMax and
// write_list_ties settles the unit after the last.
fn store_tie_word(unit: u32, claim: TieClaim, input_class: u32) {
    var rank = claim.rank;
    if input_class != NO_TIE {
        rank = max(rank, tie_rank(input_class, 0u));
    }
    atomic_store_heads(params.in_order.tie_words + unit, rank);
}

fn rank_class(rank: u32) -> u32 {
    return select(ZERO_TIE, NAN_TIE, rank >= 0x80000000u);
}

// The block's first unit, each unit's input tie class and claim, for a column fold.
var<private> column_base: u32;
var<private> column_classes: array<u32, COLUMN_UNITS>;
var<private> column_claims: array<TieClaim, COLUMN_UNITS>;

fn note_column_inputs(base: u32, share: ColumnShare) {
    column_base = base;
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            column_classes[k] = tie_class(column_units[k]);
            column_claims[k] = TieClaim(0u, 0u);
        }
    }
}

// After the share's fold with slice b, its zeros and NaNs (`column_updates`) claim their
// units: after the fold, so that its loads go out together, none waiting on a claim's test.
var<private> column_updates: array<Unit, COLUMN_UNITS>;

fn claim_column_ties(b: u32, share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            column_claims[k] = claim_tie(column_claims[k], column_updates[k], b + 1u, column_classes[k]);
        }
    }
}

fn settle_column_ties(share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            column_units[k] = settle_tie(column_units[k], column_claims[k]);
        }
    }
}

fn store_column_tie_words(share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            store_tie_word(column_base + share_offset(share, k), column_claims[k], column_classes[k]);
        }
    }
}

// After the any-order pass that claims as it places (ReduceOrder::FirstTie's,
// shaders/scatter_reduce.wgsl), CLEAR_WORDS output units a thread, a workgroup's width apart
// (params.count: the units; their claims from params.in_order.tie_words in the heads):
// write_unit_tie for each. The claims are loaded first, in flight together; most are 0.
@compute @workgroup_size(WORKGROUP_SIZE)
fn write_unit_ties(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let group = workgroup_index(workgroup, workgroups);
    var ranks: array<u32, CLEAR_WORDS>;
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let u = (group * CLEAR_WORDS + k) * WORKGROUP_SIZE + local;
        ranks[k] = 0u;
        if u < params.count {
            ranks[k] = atomic_load_heads(params.in_order.tie_words + u);
        }
    }
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        if ranks[k] != 0u {
            write_unit_tie((group * CLEAR_WORDS + k) * WORKGROUP_SIZE + local, ranks[k]);
        }
    }
}

// Where unit u ended in the class of its claim `rank`, the claiming update's bits, the first
// of the class in order (position 0, the input's own claim, leaves the unit as it is). A
// claim's position counts rows of params.in_order.slice_units units (ListTies's), or update
// units (FirstTie's: rows of one unit, a slice_rank of 0).
fn write_unit_tie(u: u32, rank: u32) {
    let position = 0x7fffffffu - (rank & 0x7fffffffu);
    if position == 0u || tie_class(load_output(u)) != rank_class(rank) {
        return;
    }
    let row = slice_dense_start(position - 1u);
    store_output(u, load_updates(row + slice_dense_offset(u % params.in_order.slice_units)));
}
// @ties-end

// Where the share's units lie in a slice of the updates.
fn locate_columns(share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            column_inner[k] = slice_dense_offset(share_offset(share, k));
        }
    }
}

// @copy-input-begin
// The copy as it folds (fold_slice_list_copy, fold_slice_list_copy_wide): the input laid
// out as the output, read a cell at a time. The wide one's thread takes COPY_CELLS cells,
// loaded at once before its block's list head is known and stored as they are where the
// block has no list; else folded COLUMN_CELLS at a time (`part_share`), each part reading its
// cells again and walking the list.
fn copy_share(t: u32) -> ColumnShare {
    return share_of_cells(t, COPY_CELLS);
}

// The cells `part` * COLUMN_CELLS on of a copy share, as a column share (no units: none).
fn part_share(share: ColumnShare, part: u32) -> ColumnShare {
    let skipped = part * COLUMN_UNITS;
    let units = min(COLUMN_UNITS, share.units - min(share.units, skipped));
    return ColumnShare(share.group, share.lane + part * COLUMN_CELLS * share.lanes, share.lanes, units);
}

// The share's cells of the input's block at `base`, loaded at once; and stored.
fn load_copy_cells(base: u32, share: ColumnShare) -> array<Unit, COPY_CELLS> {
    var cells: array<Unit, COPY_CELLS>;
    for (var c = 0u; c < COPY_CELLS; c += 1u) {
        if c * UNITS_PER_WORD < share.units {
            cells[c] = load_input_cell(base + share_offset(share, c * UNITS_PER_WORD));
        }
    }
    return cells;
}

fn store_copy_cells(base: u32, share: ColumnShare, cells: array<Unit, COPY_CELLS>) {
    for (var c = 0u; c < COPY_CELLS; c += 1u) {
        if c * UNITS_PER_WORD < share.units {
            store_output_cell(base + share_offset(share, c * UNITS_PER_WORD), cells[c]);
        }
    }
}

// The share's units of the input's block that starts at unit `base`, for the fold.
fn load_input_columns(base: u32, share: ColumnShare) {
    for (var c = 0u; c < COLUMN_CELLS; c += 1u) {
        let first = c * UNITS_PER_WORD;
        if first < share.units {
            let cell = load_input_cell(base + share_offset(share, first));
            for (var e = 0u; e < UNITS_PER_WORD; e += 1u) {
                column_units[first + e] = cell_unit(cell, e);
            }
        }
    }
    // @ties-begin
    note_column_inputs(base, share);
    // @ties-end
}

// The cell of the input that holds unit `at` (a word of narrow units, or an 8-byte unit);
// stores of a whole cell; unit `e` of a cell.
// @sub-word-begin
fn load_input_cell(at: u32) -> Unit {
    return load_input_word(at / UNITS_PER_WORD);
}
// @sub-word-end
// @word-begin
fn load_input_cell(at: u32) -> Unit {
    return load_input(at);
}
// @word-end
// @double-word-begin
fn load_input_cell(at: u32) -> Unit {
    return load_input(at);
}

fn store_output_cell(at: u32, cell: Unit) {
    store_output(at, cell);
}

fn cell_unit(cell: Unit, e: u32) -> Unit {
    return cell;
}
// @double-word-end
// @narrow-begin
fn store_output_cell(at: u32, cell: Unit) {
    store_output_word(at / UNITS_PER_WORD, cell);
}

fn cell_unit(cell: Unit, e: u32) -> Unit {
    return (cell >> (e * UNIT_BITS)) & (0xffffffffu >> (32u - UNIT_BITS));
}
// @narrow-end
// @copy-input-end

// The share's units folded with slice b's.
fn fold_columns(b: u32, share: ColumnShare) {
    let start = slice_dense_start(b);
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            let update = load_updates(start + column_inner[k]);
            // @ties-begin
            column_updates[k] = update;
            // @ties-end
            column_units[k] = combine_unit(column_units[k], update);
        }
    }
    // @ties-begin
    claim_column_ties(b, share);
    // @ties-end
}

// @narrow-begin
fn store_columns(base: u32, share: ColumnShare) {
    for (var c = 0u; c < COLUMN_CELLS; c += 1u) {
        let first = c * UNITS_PER_WORD;
        if first < share.units {
            var word = 0u;
            for (var e = 0u; e < UNITS_PER_WORD; e += 1u) {
                word |= column_units[first + e] << (e * UNIT_BITS);
            }
            store_output_word((base + share_offset(share, first)) / UNITS_PER_WORD, word);
        }
    }
}
// @narrow-end

// @double-word-begin
fn store_columns(base: u32, share: ColumnShare) {
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            store_output(base + share_offset(share, k), column_units[k]);
        }
    }
}
// @double-word-end
