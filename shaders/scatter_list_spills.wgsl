// requires: common index_map scatter_slices units sort
// The rows the lists set aside (SPILLS_ROWS: reductions by rows in any order; 8-byte units
// where the device has 64-bit atomics, in a module of its own, ReduceOrder::RowsWide).
// A list is walked one row after another, so one block's thousands of rows (a hub: a node
// of a graph that most edges reach) would take milliseconds. link_slices counts each block's
// rows in the heads (spill_counts_at) and lists its first spill_bound; each later row is set
// aside in the links (spilled_rows_at) as (the row, its block), counted by the heads' word
// after the blocks' counts. With float Min and Max in order (ReduceOrder::ListTies) a set-aside
// row's zeros and NaNs claim their units by position (atomicMax on the tie words, the first
// pass having stored its claims there), and write_list_ties settles them after this pass.
// reduce_spilled_rows combines them into the output after the lists' fold (which stores the
// blocks it folds, so it goes first): the order of a block's rows is the mode's to choose.
// Rows crowded onto few blocks in any order go the same way after the sort
// (shaders/sort.wgsl) instead of by lists: reduce_sorted_rows combines every row, taking
// them in the sorted order, so that consecutive rows share a block and each workgroup takes
// an exchange a block it reaches, not a row.

// The set-aside rows in the links, after the two lists of blocks that go on (and, with ties,
// the tie list: ReduceOrder::ListTies's blocks whose rows were set aside go on too).
fn spilled_rows_at() -> u32 {
    var at = params.in_order.slices + 4u * params.in_order.fold_capacity;
    // @ties-begin
    at += params.in_order.fold_capacity;
    // @ties-end
    return at;
}

// Each block's count of rows in the heads, then the rows set aside: from tie_words, or with
// ties just before the tie list's count and the tie words (which are never cleared). Only
// where SPILLS_ROWS is set (the host then reserves them; every caller tests the flag first).
fn spill_counts_at() -> u32 {
    var at = params.in_order.tie_words;
    // @ties-begin
    at = params.in_order.tie_words - 2u - params.in_order.sort_units;
    // @ties-end
    return at;
}

fn spilled_count_at() -> u32 {
    return spill_counts_at() + params.in_order.sort_units;
}

// Row b (a slice) set aside: (b, its block).
fn set_row_aside(b: u32, block: u32) {
    let at = spilled_rows_at() + 2u * atomic_add_heads(spilled_count_at(), 1u);
    atomic_store_links(at, b);
    atomic_store_links(at + 1u, block);
}

// @combines-rows-begin
// A workgroup's round of set-aside rows, and their count; then each thread's held column.
var<workgroup> spilled_rows: array<vec2<u32>, WORKGROUP_SIZE>;
var<workgroup> spilled_count: u32;
var<workgroup> held_blocks: array<u32, WORKGROUP_SIZE>;
var<workgroup> held_values: array<Unit, WORKGROUP_SIZE>;
// @ties-begin
// The round's rows' positions (the row plus one), and each thread's held claim.
var<workgroup> spilled_positions: array<u32, WORKGROUP_SIZE>;
var<workgroup> held_ranks: array<u32, WORKGROUP_SIZE>;
// @ties-end

const NO_BLOCK: u32 = 0xffffffffu;

// A thread's column of the rows of one block, combined so far, and (with ties) the highest
// rank its zeros and NaNs claim (0: none).
struct HeldColumn {
    block: u32,
    value: Unit,
    rank: u32,
}

fn release_column(held: HeldColumn, offset: u32) {
    if held.block != NO_BLOCK {
        let unit = held.block * params.in_order.slice_units + offset;
        reduce_output(unit, held.value);
        // @ties-begin
        if held.rank != 0u {
            atomic_max_heads(params.in_order.tie_words + unit, held.rank);
        }
        // @ties-end
    }
}

// `held` with `value` of a row of `block` (its claim `rank`): combined where the block is the
// one held, else the held column released and this one held.
fn hold_column(held: HeldColumn, block: u32, value: Unit, rank: u32, offset: u32) -> HeldColumn {
    if block == held.block {
        return HeldColumn(block, combine_unit(held.value, value), max(held.rank, rank));
    }
    release_column(held, offset);
    return HeldColumn(block, value, rank);
}

// Row k of the workgroup's round at column `inner`, or nothing past `end`.
fn load_spilled(k: u32, end: u32, inner: u32) -> Unit {
    if k >= end {
        return pair_unit(WIDE_IDENTITY);
    }
    return load_updates(spilled_rows[k].x + inner);
}

// Row k as (its first update unit, its block, its position: the row plus one): set aside by
// link_slices, or the kth of the sorted rows (NO_BLOCK: a row out of range, which the sort
// keys to the last block).
fn row_to_combine(k: u32, sorted: bool) -> vec3<u32> {
    if sorted {
        let position = sorted_position(k);
        if (position & SKIPPED_SLICE) != 0u {
            return vec3<u32>(0u, NO_BLOCK, 0u);
        }
        let block = atomic_load_links(keys_at(source_array()) + k);
        return vec3<u32>(slice_dense_start(position), block, position + 1u);
    }
    let at = spilled_rows_at() + 2u * k;
    let b = atomic_load_links(at);
    return vec3<u32>(slice_dense_start(b), atomic_load_links(at + 1u), b + 1u);
}

// A workgroup takes a run of params.in_order.run_rows of the `count` rows (at most
// SPILL_ROUNDS rounds of WORKGROUP_SIZE) and a tile of WORKGROUP_SIZE columns of them; where a row has fewer units, its threads split each
// round into lanes of consecutive rows, and the lanes' columns combine in workgroup memory at
// the end. A thread loads four rows' units at once, and holds its column's combination while
// consecutive rows share a block, combining it into the output (an exchange, or the integers'
// own atomics) when the block changes: a hub's rows, set aside one after another, or a block's
// sorted rows, take one exchange a workgroup, not one a row.
fn combine_rows(w: u32, local: u32, count: u32, sorted: bool) {
    let units = params.in_order.slice_units;
    let tiles = (units + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    let run = w / tiles;
    let tile = w - run * tiles;
    let run_rows = clamp(params.in_order.run_rows, 1u, SPILL_ROUNDS * WORKGROUP_SIZE);
    let first = run * run_rows;
    if first >= count {
        return;
    }
    let last = min(count, first + run_rows);
    let columns = min(units - tile * WORKGROUP_SIZE, WORKGROUP_SIZE);
    let lanes = WORKGROUP_SIZE / columns;
    let lane = local / columns;
    let column = local % columns;
    let offset = tile * WORKGROUP_SIZE + column;
    let inner = slice_dense_offset(offset);
    var held = HeldColumn(NO_BLOCK, pair_unit(WIDE_IDENTITY), 0u);
    for (var round = 0u; round < SPILL_ROUNDS; round += 1u) {
        let start = first + round * WORKGROUP_SIZE;
        if start >= last {
            break;
        }
        let rows = min(last - start, WORKGROUP_SIZE);
        if local < rows {
            let row = row_to_combine(start + local, sorted);
            spilled_rows[local] = row.xy;
            // @ties-begin
            spilled_positions[local] = row.z;
            // @ties-end
        }
        workgroupBarrier();
        let share = (rows + lanes - 1u) / lanes;
        let begin = lane * share;
        let end = select(min(rows, begin + share), 0u, lane >= lanes);
        for (var k = begin; k < end; k += 4u) {
            var values = array<Unit, 4>(
                load_spilled(k, end, inner),
                load_spilled(k + 1u, end, inner),
                load_spilled(k + 2u, end, inner),
                load_spilled(k + 3u, end, inner),
            );
            for (var j = 0u; j < 4u && k + j < end; j += 1u) {
                if spilled_rows[k + j].y != NO_BLOCK {
                    var rank = 0u;
                    // @ties-begin
                    // A zero's or NaN's claim by position (claim_tie, scatter_slices.wgsl);
                    // the input's own claim is already in the tie word, above its class.
                    let claim = claim_tie(TieClaim(), values[j], spilled_positions[k + j], NO_TIE);
                    rank = claim.rank;
                    // @ties-end
                    held = hold_column(held, spilled_rows[k + j].y, values[j], rank, offset);
                }
            }
        }
        workgroupBarrier();
    }
    // The lanes' columns: lane 0 combines the others' where they hold its block.
    held_blocks[local] = select(held.block, NO_BLOCK, lane >= lanes);
    held_values[local] = held.value;
    // @ties-begin
    held_ranks[local] = held.rank;
    // @ties-end
    workgroupBarrier();
    if lane == 0u {
        for (var l = 1u; l < lanes; l += 1u) {
            let other = l * columns + column;
            if held_blocks[other] != NO_BLOCK {
                var rank = 0u;
                // @ties-begin
                rank = held_ranks[other];
                // @ties-end
                held = hold_column(held, held_blocks[other], held_values[other], rank, offset);
            }
        }
        release_column(held, offset);
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce_spilled_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if local == 0u {
        spilled_count = atomic_load_heads(spilled_count_at());
    }
    let count = workgroupUniformLoad(&spilled_count);
    combine_rows(workgroup_index(workgroup, workgroups), local, count, false);
}

// Every row, sorted by block (the sort's last pass wrote array source_array()); its first
// thread describes the status (DESCRIBES_STATUS: the sort's first pass reports).
@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce_sorted_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    describe_status_here(w * WORKGROUP_SIZE + local);
    combine_rows(w, local, params.in_order.slices, true);
}
// @combines-rows-end
