// requires: common index_map scatter_slices units scatter_list_spills
// By slices in any order (order-free reductions of rows of 64+ units, and 8-byte rows, in
// the default mode): each block's slices linked into a list, walked at most FOLD_STEPS
// nodes an invocation a pass (no sort: any order is
// the mode's promise, and a list costs one exchange a slice). heads: each block's last slice
// linked plus one (0: none), then each pass's list count; links: the slice linked before
// each slice (plus one; 0 ends the list), then the two lists of (block, next node) pairs of
// the blocks that go on. Float Min and Max in order (ReduceOrder::ListTies, the ties
// section) fold the same lists: the fold gives every unit the right number, and its zero and
// NaN updates claim their units by position (claim_tie, shaders/scatter_slices.wgsl). A walk
// that ends its list in the first pass settles its units itself; where a list goes on, its
// units' claims go to tie words (heads from params.in_order.tie_words, count of the tie list
// just before them, not cleared: the first pass writes each one it lists) and its block to
// the tie list (links after the two lists), which write_list_ties settles after the last pass.
// Lists hold at most params.in_order.spill_bound rows a block where SPILLS_ROWS is set: a
// block's rows counted in the heads (spill_counts_at), the rest set aside
// (shaders/scatter_list_spills.wgsl); with ties, a block whose rows were set aside goes on as
// a list past the first pass does (its claims in tie words, the block in the tie list).
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
    let block = slice.at.indexed / params.in_order.slice_units;
    if (params.in_order.fold_flags & SPILLS_ROWS) != 0u
        && atomic_add_heads(spill_counts_at() + block, 1u) >= params.in_order.spill_bound {
        set_row_aside(b, block);
        return;
    }
    atomic_store_links(b, atomic_exchange_heads(block, b + 1u));
}

// `value` folded with the column `inner` of at most `steps` slices of a list from `node`;
// returns the value and the node where the walk stopped (0: the list's end), and leaves the
// walk's claim in `list_claim` (`input_class`: the tie class of the unit's input, 0 where the
// pass does not know it).
fn fold_list(value: Unit, node: u32, inner: u32, steps: u32, input_class: u32) -> ListFold {
    var fold = ListFold(value, node);
    // @ties-begin
    list_claim = TieClaim();
    // @ties-end
    for (var k = 0u; k < steps && fold.node != 0u; k += 1u) {
        // The next node first: the walk's load does not wait on the claim's test.
        let next = atomic_load_links(fold.node - 1u);
        let update = load_updates(slice_dense_start(fold.node - 1u) + inner);
        // @ties-begin
        list_claim = claim_tie(list_claim, update, fold.node, input_class);
        // @ties-end
        fold.value = combine_unit(fold.value, update);
        fold.node = next;
    }
    return fold;
}

// Whether a first pass's walk of `block` leaves its ties to write_list_ties though its list
// ended: with ties, where the block's rows past the bound were set aside (their claims come
// after the pass). Never without ties.
fn ties_go_on(block: u32) -> bool {
    var on = false;
    // @ties-begin
    on = (params.in_order.fold_flags & SPILLS_ROWS) != 0u
        && atomic_load_heads(spill_counts_at() + block) > params.in_order.spill_bound;
    // @ties-end
    return on;
}

// The tie class of the input a first pass's fold starts from (0 without ties).
fn input_tie_class(input: Unit) -> u32 {
    var kind = 0u;
    // @ties-begin
    kind = tie_class(input);
    // @ties-end
    return kind;
}

struct ListFold {
    value: Unit,
    node: u32,
}

// @ties-begin
var<private> list_claim: TieClaim;

// The tie list: the blocks whose lists go on past the first pass or whose rows past the bound
// were set aside (listed by it), for write_list_ties.
fn tie_list_at() -> u32 {
    return params.in_order.slices + 4u * params.in_order.fold_capacity;
}

fn list_tie_block(block: u32) {
    let entry = atomic_add_heads(params.in_order.tie_words - 1u, 1u);
    atomic_store_links(tie_list_at() + entry, block);
}

// After the last pass (or the set-aside rows' pass, which claims by atomicMax too), a thread
// a unit of the tie list's blocks (params.count: the list's capacity times a block's units):
// write_unit_tie (shaders/scatter_slices.wgsl) with the unit's tie word.
@compute @workgroup_size(WORKGROUP_SIZE)
fn write_list_ties(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let entry = t / params.in_order.slice_units;
    if entry >= atomic_load_heads(params.in_order.tie_words - 1u) {
        return;
    }
    let block = atomic_load_links(tie_list_at() + entry);
    let u = block * params.in_order.slice_units + (t - entry * params.in_order.slice_units);
    let rank = atomic_load_heads(params.in_order.tie_words + u);
    if rank != 0u {
        write_unit_tie(u, rank);
    }
}
// @ties-end

// The list a first pass's group of threads walks (a group: a block's or a slice's units).
// Without FOLD_BY_SLICES, groups are the output's blocks, every one looked at (most have no
// list where the rows are few); with it, groups are the slices, and the slice linked last
// into its block's list, the list's head, walks it (the others return): the host picks
// whichever is fewer. first == 0: nothing to walk.
struct ListStart {
    block: u32,
    first: u32,
}

fn list_start(group: u32) -> ListStart {
    if (params.in_order.fold_flags & FOLD_BY_SLICES) == 0u {
        return ListStart(group, atomic_load_heads(group));
    }
    let slice = locate_slice(group);
    if slice.at.bad_component != IN_RANGE {
        return ListStart(0u, 0u);
    }
    let block = slice.at.indexed / params.in_order.slice_units;
    if atomic_load_heads(block) != group + 1u {
        return ListStart(0u, 0u);
    }
    return ListStart(block, group + 1u);
}

// Pass 0, a thread a unit (units narrower than a word whose blocks are not whole words): a
// thread per unit of a group (params.count: the groups' units) folds its column of the first
// FOLD_STEPS slices of the group's list; the block's first unit lists a longer one for
// fold_slice_list_runs.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_lists(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    describe_status_here(t);
    if t >= params.count {
        return;
    }
    let group = t / params.in_order.slice_units;
    let start = list_start(group);
    if start.first == 0u {
        return;
    }
    let offset = t - group * params.in_order.slice_units;
    let u = start.block * params.in_order.slice_units + offset;
    let input = load_output(u);
    let input_class = input_tie_class(input);
    let fold = fold_list(input, start.first, slice_dense_offset(offset), FOLD_STEPS, input_class);
    var value = fold.value;
    if fold.node != 0u || ties_go_on(start.block) {
        // @ties-begin
        store_tie_word(u, list_claim, input_class);
        // @ties-end
        if offset == 0u {
            if fold.node != 0u {
                list_slice_block(1u, start.block, fold.node);
            }
            // @ties-begin
            list_tie_block(start.block);
            // @ties-end
        }
    } else {
        // @ties-begin
        value = settle_tie(value, list_claim);
        // @ties-end
    }
    store_output(u, value);
}

// Pass 0 a column fold (shaders/scatter_slices.wgsl): a thread takes up to COLUMN_CELLS
// cells of a group (params.count: the groups' threads), one walk of the list for all of them.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_columns(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    describe_status_here(t);
    if t >= params.count {
        return;
    }
    let share = column_share(t);
    let start = list_start(share.group);
    if start.first == 0u {
        return;
    }
    let base = start.block * params.in_order.slice_units;
    load_columns(base, share);
    fold_list_columns(start.block, start.first, share, true, FOLD_STEPS);
    store_columns(base, share);
}

// The share's column units folded along block `block`'s list from node `first`, at most
// `steps` rows (FOLD_STEPS, or a part's share of them); where the list goes on, the block is
// listed for the next pass (by the group's first thread, where `lists`) and the units'
// claims stored, else the units' ties settled.
fn fold_list_columns(block: u32, first: u32, share: ColumnShare, lists: bool, steps: u32) {
    var node = first;
    for (var k = 0u; k < steps && node != 0u; k += 1u) {
        let next = atomic_load_links(node - 1u);
        fold_columns(node - 1u, share);
        node = next;
    }
    if node != 0u || ties_go_on(block) {
        // @ties-begin
        store_column_tie_words(share);
        // @ties-end
        if share.lane == 0u && lists {
            if node != 0u {
                list_slice_block(1u, block, node);
            }
            // @ties-begin
            list_tie_block(block);
            // @ties-end
        }
    } else {
        // @ties-begin
        settle_column_ties(share);
        // @ties-end
    }
}

// @copy-input-begin
// Pass 0 out of place, where the input and output share a layout without gaps: every block
// copied from the input (`output = input`) as its list is folded (shaders/scatter_slices.wgsl).
// It replaces the copy's dispatch, and the listed blocks are read and written once, not
// twice. A thread takes COLUMN_CELLS cells, loaded before its block's list head is known.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_copy(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    describe_status_here(t);
    if t >= params.count {
        return;
    }
    let share = column_share(t);
    let base = share.group * params.in_order.slice_units;
    load_input_columns(base, share);
    let first = atomic_load_heads(share.group);
    if first != 0u {
        locate_columns(share);
        fold_list_columns(share.group, first, share, true, FOLD_STEPS);
    }
    store_columns(base, share);
}

// The same where the lists are short and most blocks have none (narrow units): a thread
// takes COPY_CELLS cells (more loads in flight), copied at once where its block has no list,
// else folded COLUMN_CELLS at a time, each part walking the list: a part's share of
// FOLD_STEPS rows each (WIDE_PARTS walks an invocation; the next pass goes on from the node
// where they stop), so that an invocation's loops stay within Mesa's bound.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_copy_wide(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    describe_status_here(t);
    if t >= params.count {
        return;
    }
    let share = copy_share(t);
    let base = share.group * params.in_order.slice_units;
    let cells = load_copy_cells(base, share);
    let first = atomic_load_heads(share.group);
    if first == 0u {
        store_copy_cells(base, share, cells);
        return;
    }
    for (var part = 0u; part < COPY_CELLS / COLUMN_CELLS; part += 1u) {
        let columns = part_share(share, part);
        if columns.units == 0u {
            break;
        }
        load_input_columns(base, columns);
        locate_columns(columns);
        fold_list_columns(share.group, first, columns, part == 0u, FOLD_STEPS / WIDE_PARTS);
        store_columns(base, columns);
    }
}

// The same on a device that does not bound loops (a GPU), for lists without ties: FOLD_STEPS
// rows a part, a constant (read from the uniforms, it cost an H200's Float32 rows 1.3 %).
// Its body is fold_slice_list_copy_wide's, through a function: that is the form measured on
// the H200, and the form the ties' lists do not take (src/ops/scatter_lowering.rs).
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_list_copy_wide_long(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    describe_status_here(t);
    copy_fold_wide_lists(t, FOLD_STEPS);
}

fn copy_fold_wide_lists(t: u32, steps: u32) {
    if t >= params.count {
        return;
    }
    let share = copy_share(t);
    let base = share.group * params.in_order.slice_units;
    let cells = load_copy_cells(base, share);
    let first = atomic_load_heads(share.group);
    if first == 0u {
        store_copy_cells(base, share, cells);
        return;
    }
    for (var part = 0u; part < COPY_CELLS / COLUMN_CELLS; part += 1u) {
        let columns = part_share(share, part);
        if columns.units == 0u {
            break;
        }
        load_input_columns(base, columns);
        locate_columns(columns);
        fold_list_columns(share.group, first, columns, part == 0u, steps);
        store_columns(base, columns);
    }
}
// @copy-input-end

// Passes 1 on: a workgroup per listed block and tile of SLICE_TILE columns goes on along the
// list, its SLICE_TURNS rows of threads taking turns of FOLD_STEPS slices, params.in_order.
// fold_rounds rounds of them (at most LIST_ROUNDS: an invocation's walks stay within a bound
// of the library's); each row's first thread hands the next node to the next row (two slots:
// a row reads one while the row before it may still be writing the other). The turns stop
// where the list ends.
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
    let turns = SLICE_TURNS * min(params.in_order.fold_rounds, LIST_ROUNDS);
    var t = 0u;
    // The node this turn starts from (0: the list ended), after the turn before it.
    var node = workgroupUniformLoad(&list_nodes[0]);
    while node != 0u && t < turns {
        // Lane 0 of every tile is in the slice: it carries the node on.
        if column.turn == t % SLICE_TURNS && column.in_slice {
            let fold = fold_list(column_values[column.lane], node, column.inner, FOLD_STEPS, 0u);
            column_values[column.lane] = fold.value;
            // @ties-begin
            if list_claim.rank != 0u {
                atomic_max_heads(params.in_order.tie_words + column.unit, list_claim.rank);
            }
            // @ties-end
            if column.lane == 0u {
                list_nodes[(t + 1u) % 2u] = fold.node;
            }
        }
        t += 1u;
        node = workgroupUniformLoad(&list_nodes[t % 2u]);
    }
    if local == 0u && tile == 0u && node != 0u {
        list_slice_block(fold_pass + 1u, run.x, node);
    }
    store_column(column);
}
