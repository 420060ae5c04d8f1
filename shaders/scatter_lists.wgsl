// requires: common index_map scatter_slices units
// By slices in any order (order-free reductions of rows of 64+ units, and 8-byte rows, in
// the default mode): each block's slices linked into a list, walked at most FOLD_STEPS nodes
// an invocation a pass (no sort: any order is the mode's promise, and a list costs one
// exchange a slice). heads: each block's last slice linked plus one (0: none), then each
// pass's list count; links: the slice linked before each slice (plus one; 0 ends the list),
// then the two lists of (block, next node) pairs of the blocks that go on.
fn slice_list_at(fold_pass: u32) -> u32 {
    return params.in_order.slices + (fold_pass & 1u) * 2u * params.in_order.fold_capacity;
}

fn slice_list_count_at(fold_pass: u32) -> u32 {
    return params.in_order.sort_units + fold_pass;
}

fn list_slice_block(fold_pass: u32, block: u32, node: u32) {
    let entry = atomic_add_heads(slice_list_count_at(fold_pass), 1u);
    atomic_store_links(slice_list_at(fold_pass) + 2u * entry, block);
    atomic_store_links(slice_list_at(fold_pass) + 2u * entry + 1u, node);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn link_slices(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let b = invocation_index(workgroup, workgroups, local);
    if b >= params.in_order.slices {
        return;
    }
    let slice = locate_slice(b);
    if slice.at.bad_component != IN_RANGE {
        // Every unit of the slice is out of range; its first is the first reported.
        report_out_of_range(slice.first);
        return;
    }
    atomic_store_links(b, atomic_exchange_heads(slice.at.indexed / params.in_order.slice_units, b + 1u));
}

// `value` folded with the column `inner` of at most FOLD_STEPS slices of a list from `node`;
// returns the value and the node where the walk stopped (0: the list's end).
fn fold_list(value: Unit, node: u32, inner: u32) -> ListFold {
    var fold = ListFold(value, node);
    for (var k = 0u; k < FOLD_STEPS && fold.node != 0u; k += 1u) {
        fold.value = combine_unit(fold.value, load_updates(slice_dense_start(fold.node - 1u) + inner));
        fold.node = atomic_load_links(fold.node - 1u);
    }
    return fold;
}

struct ListFold {
    value: Unit,
    node: u32,
}

// Pass 0: a thread per output unit folds its column of the first FOLD_STEPS slices of its
// block's list; the block's first unit lists a longer one for fold_slice_list_runs.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_lists(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let u = invocation_index(workgroup, workgroups, local);
    if u >= params.count {
        return;
    }
    let block = u / params.in_order.slice_units;
    let first = atomic_load_heads(block);
    if first == 0u {
        return;
    }
    let offset = u - block * params.in_order.slice_units;
    let fold = fold_list(load_output(u), first, slice_dense_offset(offset));
    if fold.node != 0u && offset == 0u {
        list_slice_block(1u, block, fold.node);
    }
    store_output(u, fold.value);
}

// @sub-word-begin
// Pass 0 for units narrower than a word where a block holds whole words (slice_units a
// multiple of ELEMENTS_PER_WORD): a thread a word folds its ELEMENTS_PER_WORD columns along
// the list, one walk for all of them, and stores the word whole: no other thread writes it,
// so no compare-exchange. params.count: the output's words.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_words(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = invocation_index(workgroup, workgroups, local);
    if w >= params.count {
        return;
    }
    let u = w * ELEMENTS_PER_WORD;
    let block = u / params.in_order.slice_units;
    let first = atomic_load_heads(block);
    if first == 0u {
        return;
    }
    let offset = u - block * params.in_order.slice_units;
    var values: array<u32, ELEMENTS_PER_WORD>;
    var inner: array<u32, ELEMENTS_PER_WORD>;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        values[e] = load_output(u + e);
        inner[e] = slice_dense_offset(offset + e);
    }
    var node = first;
    for (var k = 0u; k < FOLD_STEPS && node != 0u; k += 1u) {
        let start = slice_dense_start(node - 1u);
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            values[e] = combine_unit(values[e], load_updates(start + inner[e]));
        }
        node = atomic_load_links(node - 1u);
    }
    if node != 0u && offset == 0u {
        list_slice_block(1u, block, node);
    }
    var word = 0u;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        word |= values[e] << (e * ELEMENT_BITS);
    }
    store_output_word(w, word);
}
// @sub-word-end

// Passes 1 on: a workgroup per listed block and tile of SLICE_TILE columns goes on along the
// list, its SLICE_TURNS rows of threads taking turns of FOLD_STEPS slices; each row's first
// thread hands the next node to the next row (two slots: a row reads one while the row
// before it may still be writing the other).
var<workgroup> list_run: vec2<u32>;
var<workgroup> list_nodes: array<u32, 2>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    let fold_pass = params.in_order.fold_pass;
    let entry = w / params.in_order.fold_tiles;
    let tile = w - entry * params.in_order.fold_tiles;
    if local == 0u {
        // (block, first node) of the workgroup's list, or none.
        var run = vec2<u32>(0u, 0u);
        if entry < atomic_load_heads(slice_list_count_at(fold_pass)) {
            let at = slice_list_at(fold_pass) + 2u * entry;
            run = vec2<u32>(atomic_load_links(at), atomic_load_links(at + 1u));
        }
        list_run = run;
        list_nodes[0] = run.y;
    }
    let run = workgroupUniformLoad(&list_run);
    if run.y == 0u {
        return;
    }
    let column = slice_column(run.x, tile, local);
    for (var t = 0u; t < SLICE_TURNS; t += 1u) {
        workgroupBarrier();
        // Lane 0 of every tile is in the slice: it carries the node on.
        if column.turn == t && column.in_slice {
            let fold = fold_list(column_values[column.lane], list_nodes[t % 2u], column.inner);
            column_values[column.lane] = fold.value;
            if column.lane == 0u {
                list_nodes[(t + 1u) % 2u] = fold.node;
            }
        }
    }
    workgroupBarrier();
    if local == 0u && tile == 0u && list_nodes[SLICE_TURNS % 2u] != 0u {
        list_slice_block(fold_pass + 1u, run.x, list_nodes[SLICE_TURNS % 2u]);
    }
    store_column(column);
}
