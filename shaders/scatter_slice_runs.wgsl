// requires: common index_map arithmetic sort scatter_slices scatter_runs units
// The in-order folds by slices (ScatterND's rows), after the sort (shaders/sort.wgsl): each
// block's run of sorted slices folded into it, in order, FOLD_STEPS slices in the first
// pass (a thread a unit, or a column fold; a WIDE_PARTS-th of them where its copy walks the
// run in several parts on a device that bounds loops: FOLD_WIDE_FIRST; only the run's first
// slice where long runs fold later: FOLD_RUNS_LATER), the rest in the passes after it,
// whose workgroups take turns along the run, four slices a batch (lists of runs that go on:
// shaders/scatter_runs.wgsl).

// `value` folded with the column `inner` of the slice at sorted position `b` (a
// `sorted_position`), unless it is out of range.
fn fold_sorted_slice(value: Unit, b: u32, inner: u32) -> Unit {
    if (b & SKIPPED_SLICE) != 0u {
        return value;
    }
    return combine_unit(value, load_updates(slice_dense_start(b) + inner));
}

// By slices, pass 0: where a group of threads (a block's or a slice's units) starts folding.
// Without FOLD_BY_SLICES, groups are the output's blocks, every one looked at; with it,
// groups are the sorted slices, and the first of each block's run folds it (the others
// return): the host picks whichever is fewer. first == 0: nothing to fold. With the run's
// end and its first sorted position, loaded beside the words they do not depend on: a
// thread's first update waits on memory three times by slices (the key and position, the
// head and end, the update), not five, and the first fold is bound by those waits.
struct RunStart {
    block: u32,
    first: u32,
    end: u32,
    position: u32,
}

const NO_RUN_START: RunStart = RunStart(0u, 0u, 0u, 0u);

fn run_start(group: u32) -> RunStart {
    if (params.in_order.fold_flags & FOLD_BY_SLICES) == 0u {
        return block_run_start(group, atomic_load_heads(group));
    }
    let block = atomic_load_links(keys_at(source_array()) + group);
    let position = sorted_position(group);
    let at = min(block, params.in_order.sort_units - 1u);
    let head = atomic_load_heads(at);
    let end = atomic_load_heads(params.in_order.sort_units + at);
    if block >= params.in_order.sort_units || head != group + 1u {
        return NO_RUN_START;
    }
    return RunStart(block, group + 1u, end, position);
}

// Block `block`'s run, its head `first` (0: none); the end loaded before the head is known.
fn block_run_start(block: u32, first: u32) -> RunStart {
    let end = atomic_load_heads(params.in_order.sort_units + block);
    if first == 0u {
        return NO_RUN_START;
    }
    return RunStart(block, first, end, sorted_position(first - 1u));
}

// The sorted pairs [first, last) a block's pass 0 folds (at most first_fold_steps(); the
// first of them at `start.position`); the block's first unit lists a longer run for
// fold_slice_runs.
fn first_fold_span(start: RunStart, offset: u32) -> vec2<u32> {
    let first = start.first - 1u;
    let last = min(start.end, first + first_fold_steps());
    if last < start.end && offset == 0u {
        list_for_pass(1u, start.block);
    }
    return vec2<u32>(first, last);
}

// By slices, pass 0, a thread a unit (units narrower than a word whose blocks are not whole
// words): a thread per unit of a group (slices land on aligned blocks: unit = block *
// slice_units + offset, the same offset in every slice; neighbouring threads read
// neighbouring units of each slice) folds its column of the first first_fold_steps() slices
// of its block's run. params.count: the groups' units.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slices(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let group = t / params.in_order.slice_units;
    let start = run_start(group);
    if start.first == 0u {
        return;
    }
    let offset = t - group * params.in_order.slice_units;
    let span = first_fold_span(start, offset);
    let u = start.block * params.in_order.slice_units + offset;
    let inner = slice_dense_offset(offset);
    var value = fold_sorted_slice(load_output(u), start.position, inner);
    for (var j = span.x + 1u; j < span.y; j += 1u) {
        value = fold_sorted_slice(value, sorted_position(j), inner);
    }
    store_output(u, value);
}

// The sorted positions j .. j + 3 below `end` (a place past it: SKIPPED_SLICE). A skipped
// slice (out of range) or a place past `end` is not folded, though its units are still
// loaded, from its own row or slice 0's (in range: slices b < sort_count, and there are
// updates); not issuing those loads measured slower.
fn batch_positions(j: u32, end: u32) -> vec4<u32> {
    var positions = vec4<u32>(SKIPPED_SLICE);
    if j < end {
        positions.x = sorted_position(j);
    }
    if j + 1u < end {
        positions.y = sorted_position(j + 1u);
    }
    if j + 2u < end {
        positions.z = sorted_position(j + 2u);
    }
    if j + 3u < end {
        positions.w = sorted_position(j + 3u);
    }
    return positions;
}

// @min-max-begin
// Min and Max: the share's units folded with a batch's four sorted slices, in that order.
// The four positions are loaded together, then every unit of the four slices: a thread
// walking its block's run waits for memory twice a batch, not twice a slice (the first fold
// of sorted runs is bound by those waits), and the next batch's positions are loaded before
// this one is folded. Only where the combine is a compare: four inlined copies of Add's or
// Mul's exact arithmetic made the fold slower.
fn fold_columns_batch(positions: vec4<u32>, share: ColumnShare) {
    let skipped = (positions & vec4<u32>(SKIPPED_SLICE)) != vec4<u32>(0u);
    let slices = positions & vec4<u32>(~SKIPPED_SLICE);
    let starts = vec4<u32>(slice_dense_start(slices.x), slice_dense_start(slices.y), slice_dense_start(slices.z), slice_dense_start(slices.w));
    for (var k = 0u; k < COLUMN_UNITS; k += 1u) {
        if k < share.units {
            let inner = column_inner[k];
            let updates = array<Unit, 4>(
                load_updates(starts.x + inner),
                load_updates(starts.y + inner),
                load_updates(starts.z + inner),
                load_updates(starts.w + inner),
            );
            var value = column_units[k];
            if !skipped.x {
                value = combine_unit(value, updates[0]);
            }
            if !skipped.y {
                value = combine_unit(value, updates[1]);
            }
            if !skipped.z {
                value = combine_unit(value, updates[2]);
            }
            if !skipped.w {
                value = combine_unit(value, updates[3]);
            }
            column_units[k] = value;
        }
    }
}
// @min-max-end

// The same a column fold (shaders/scatter_slices.wgsl): a thread takes up to COLUMN_CELLS
// cells of a group (params.count: the groups' threads), one walk of the run for all of them.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_columns(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let share = column_share(t);
    let start = run_start(share.group);
    if start.first == 0u {
        return;
    }
    let span = first_fold_span(start, share.lane);
    let base = start.block * params.in_order.slice_units;
    load_columns(base, share);
    fold_sorted_columns(start.position, span, share);
    store_columns(base, share);
}

// @copy-input-begin
// The same by blocks out of place, where the input and output share a layout without gaps:
// every block copied from the input (`output = input`) as its run is folded, as
// fold_slice_list_copy does for lists. It replaces the copy's dispatch, and the blocks with
// runs are read and written once, not twice.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_columns_copy(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let share = column_share(t);
    let base = share.group * params.in_order.slice_units;
    load_input_columns(base, share);
    let start = block_run_start(share.group, atomic_load_heads(share.group));
    if start.first != 0u {
        locate_columns(share);
        fold_sorted_columns(start.position, first_fold_span(start, share.lane), share);
    }
    store_columns(base, share);
}

// The same, a thread taking COPY_CELLS cells (as fold_slice_list_copy_wide does for lists),
// where the runs are short: most blocks have none, and their threads copy 16 bytes at a
// time; a thread whose block has a run folds its cells COLUMN_CELLS at a time, each part
// walking the run (FOLD_WIDE_FIRST: the pass's first_fold_steps() are a part's share).
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_columns_copy_wide(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let share = copy_share(t);
    let base = share.group * params.in_order.slice_units;
    let cells = load_copy_cells(base, share);
    let start = block_run_start(share.group, atomic_load_heads(share.group));
    if start.first == 0u {
        store_copy_cells(base, share, cells);
        return;
    }
    let span = first_fold_span(start, share.lane);
    for (var part = 0u; part < COPY_CELLS / COLUMN_CELLS; part += 1u) {
        let columns = part_share(share, part);
        if columns.units == 0u {
            break;
        }
        load_input_columns(base, columns);
        locate_columns(columns);
        fold_sorted_columns(start.position, span, columns);
        store_columns(base, columns);
    }
}
// @copy-input-end

// The share's units (loaded, located) folded along the sorted slices [span.x, span.y), the
// first at sorted position `first` (loaded with the run's start).
fn fold_sorted_columns(first: u32, span: vec2<u32>, share: ColumnShare) {
    if (first & SKIPPED_SLICE) == 0u {
        fold_columns(first, share);
    }
    var j = span.x + 1u;
    // @min-max-begin
    var next = batch_positions(j, span.y);
    for (; j < span.y; j += 4u) {
        let positions = next;
        next = batch_positions(j + 4u, span.y);
        fold_columns_batch(positions, share);
    }
    // @min-max-end
    for (; j < span.y; j += 1u) {
        let b = sorted_position(j);
        if (b & SKIPPED_SLICE) == 0u {
            fold_columns(b, share);
        }
    }
}

// Column `inner` of a batch's four sorted slices (batch_positions).
fn load_batch(positions: vec4<u32>, inner: u32) -> array<Unit, 4> {
    let slices = positions & vec4<u32>(~SKIPPED_SLICE);
    return array<Unit, 4>(
        load_updates(slice_dense_start(slices.x) + inner),
        load_updates(slice_dense_start(slices.y) + inner),
        load_updates(slice_dense_start(slices.z) + inner),
        load_updates(slice_dense_start(slices.w) + inner),
    );
}

// `value` folded with a batch's units in order, but the skipped slices and places past the
// run: the units go through one copy of the combine in turn (four inlined copies of Add's
// or Mul's exact arithmetic made the first fold's column fold slower, where it was tried).
fn fold_batch(value: Unit, positions: vec4<u32>, units: array<Unit, 4>) -> Unit {
    var folded = value;
    var skipped = (positions & vec4<u32>(SKIPPED_SLICE)) != vec4<u32>(0u);
    var unit = units[0];
    var later = array<Unit, 3>(units[1], units[2], units[3]);
    for (var k = 0u; k < 4u; k += 1u) {
        if !skipped.x {
            folded = combine_unit(folded, unit);
        }
        unit = later[0];
        later = array<Unit, 3>(later[1], later[2], unit);
        skipped = skipped.yzwx;
    }
    return folded;
}

// `value` folded with column `inner` of the sorted slices [first, last) (at most FOLD_STEPS),
// four at a time, each batch's units loaded a batch ahead and its positions two: a run of
// thousands of slices into few blocks (a chain of folds one after another) waits on memory
// about once a batch, not twice a slice.
fn fold_sorted_span(value: Unit, first: u32, last: u32, inner: u32) -> Unit {
    var folded = value;
    var positions = batch_positions(first, last);
    var units = load_batch(positions, inner);
    var next = batch_positions(first + 4u, last);
    for (var j = first; j < last; j += 4u) {
        let batch = positions;
        let batch_units = units;
        positions = next;
        units = load_batch(positions, inner);
        next = batch_positions(j + 8u, last);
        folded = fold_batch(folded, batch, batch_units);
    }
    return folded;
}

// By slices, passes 1 on: a workgroup per listed block and tile of SLICE_TILE columns folds
// the next SLICE_SPAN slices of the block's run. Its SLICE_TURNS rows of threads take turns,
// FOLD_STEPS slices each, every column's partial result handed over in workgroup memory.
var<workgroup> slice_run: vec3<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    let fold_pass = params.in_order.fold_pass;
    let entry = w / params.in_order.fold_tiles;
    let tile = w - entry * params.in_order.fold_tiles;
    if local == 0u {
        // (block, first, end) of this pass's share of the block's run, or an empty run.
        var run = vec3<u32>(0u, 0u, 0u);
        if entry < atomic_load_heads(fold_count_at(fold_pass)) {
            let block = atomic_load_links(fold_list_at(fold_pass) + entry);
            let first = atomic_load_heads(block) - 1u + first_fold_steps() + (fold_pass - 1u) * SLICE_SPAN;
            let end = atomic_load_heads(params.in_order.sort_units + block);
            if end - first > SLICE_SPAN && tile == 0u {
                list_for_pass(fold_pass + 1u, block);
            }
            run = vec3<u32>(block, first, min(end, first + SLICE_SPAN));
        }
        slice_run = run;
    }
    let run = workgroupUniformLoad(&slice_run);
    if run.z == run.y {
        return;
    }
    let column = slice_column(run.x, tile, local);
    for (var t = 0u; t < SLICE_TURNS; t += 1u) {
        workgroupBarrier();
        let first = run.y + t * FOLD_STEPS;
        if column.turn == t && column.in_slice && first < run.z {
            let last = min(run.z, first + FOLD_STEPS);
            let value = column_values[column.lane];
            column_values[column.lane] = fold_sorted_span(value, first, last, column.inner);
        }
    }
    workgroupBarrier();
    store_column(column);
}
