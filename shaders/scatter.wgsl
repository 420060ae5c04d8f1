// ScatterElements and ScatterND: threads write update units to the output elements their
// index tuples select (after the output = input copy). Out-of-range tuples are skipped and
// reported. The registry keeps the any-update or the in-order section, and the grouped
// entry point of the unit's width.

// @any-update-begin
// Each element ends equal to one of its updates: single-word stores cannot tear, and
// 1- and 2-byte stores compare-exchange their word.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    // Where tensors are split and only some windows bound, each update is applied by the
    // dispatch that owns its windows (see owns_tuple); elsewhere every check is true.
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        return;
    }
    if owns_output(at.indexed) {
        store_output(at.indexed, load_updates(at.dense));
    }
}

// @word-begin
// 4-byte elements, GROUP neighbours along a row a thread: the row position is worked out
// once, the indices one by one.
const GROUP: u32 = 4u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / GROUP {
        return;
    }
    let first = group_index(t) * GROUP;
    let base = locate_base(first);
    // All loads first, then the stores (see shaders/strided_copy.wgsl).
    var at: array<Location, GROUP>;
    var values: array<u32, GROUP>;
    for (var e = 0u; e < GROUP; e += 1u) {
        at[e] = apply_index(step_inner(base, e));
        values[e] = load_updates(at[e].dense);
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            store_output(at[e].indexed, values[e]);
        }
    }
}

// 4-byte elements, rows a whole number of blocks of WORKGROUP_SIZE * GROUP units: a
// workgroup takes a block, and unit e * WORKGROUP_SIZE + lane of it goes to thread `lane`,
// so that every load and store instruction of a warp touches neighbouring units.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_blocks(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / GROUP {
        return;
    }
    let first = group_index(t / WORKGROUP_SIZE) * (WORKGROUP_SIZE * GROUP);
    let base = locate_base(first);
    var at: array<Location, GROUP>;
    var values: array<u32, GROUP>;
    for (var e = 0u; e < GROUP; e += 1u) {
        at[e] = apply_index(step_inner(base, e * WORKGROUP_SIZE + local));
        values[e] = load_updates(at[e].dense);
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e * WORKGROUP_SIZE + local);
        } else {
            store_output(at[e].indexed, values[e]);
        }
    }
}
// @copy-rows-begin
// Out of place, where the updates of each outer coordinate land in their own row of a packed
// output (ScatterElements along an inner axis) and a row fits workgroup memory: a workgroup
// reads its row of the input into workgroup memory, scatters the row's updates there, and
// writes the row out whole. Memory then sees only whole, coalesced rows; scattered 4-byte
// stores to memory cost a cache transaction each (ScatterElements along axis 1 of an 8192 x
// 8192 f32 tensor: 1.08 ms on an H100 with them, 0.18 ms of it the copy; 0.44 ms so).
// The units of a row (a pipeline constant: params.copy_length), and the threads of a
// workgroup (params.copy_threads, up to 1024): one row of workgroup memory a workgroup caps
// how many workgroups an SM holds, so a workgroup brings many threads (an H100 took 0.91 ms
// with 256, 0.44 ms with 1024).
override ROW_CAPACITY: u32 = 1u;
override ROW_THREADS: u32 = 64u;
var<workgroup> row_units: array<u32, ROW_CAPACITY>;

@compute @workgroup_size(ROW_THREADS)
fn scatter_copy_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let row = workgroup_index(workgroup, workgroups);
    if row >= params.copy_rows {
        return;
    }
    let length = params.copy_length;
    let start = row * length;
    for (var first = local; first < length; first += ROW_THREADS * GROUP) {
        var values: array<u32, GROUP>;
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < length {
                values[e] = load_input(start + u);
            }
        }
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < length {
                row_units[u] = values[e];
            }
        }
    }
    workgroupBarrier();
    // Rows past the updates' outer size are only copied.
    if row < size_at(0u) {
        let units = params.copy_row_units;
        let row_base = locate_base(row * units);
        for (var first = local; first < units; first += ROW_THREADS * GROUP) {
            var at: array<Location, GROUP>;
            var values: array<u32, GROUP>;
            for (var e = 0u; e < GROUP; e += 1u) {
                let u = first + e * ROW_THREADS;
                if u < units {
                    // Rank 2: the row's units are steps along the innermost dimension.
                    var base = row_base;
                    if RANK == 2u {
                        base = step_inner(row_base, u);
                    } else {
                        base = locate_base(row * units + u);
                    }
                    at[e] = apply_index(base);
                    values[e] = load_updates(at[e].dense);
                }
            }
            for (var e = 0u; e < GROUP; e += 1u) {
                let u = first + e * ROW_THREADS;
                if u < units {
                    if at[e].bad_component != IN_RANGE {
                        report_out_of_range(row * units + u);
                    } else {
                        // Within the row: the host checked every update's reach.
                        row_units[at[e].indexed - start] = values[e];
                    }
                }
            }
        }
    }
    workgroupBarrier();
    for (var u = local; u < length; u += ROW_THREADS) {
        store_output(start + u, row_units[u]);
    }
}
// @copy-rows-end
// @word-end

// @sub-word-begin
// 1- and 2-byte elements, ELEMENTS_PER_WORD neighbours a thread (rows contiguous in updates
// and output, word-aligned). When they land on consecutive elements of one output word,
// that word is stored whole; otherwise each element is stored by compare-exchange.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_words(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / ELEMENTS_PER_WORD {
        return;
    }
    let first = group_index(t) * ELEMENTS_PER_WORD;
    let base = locate_base(first);
    var at: array<Location, ELEMENTS_PER_WORD>;
    var whole = true;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        at[e] = apply_index(step_inner(base, e));
        whole = whole && at[e].bad_component == IN_RANGE && at[e].indexed == at[0].indexed + e;
    }
    if whole && at[0].indexed % ELEMENTS_PER_WORD == 0u {
        store_output_word(at[0].indexed / ELEMENTS_PER_WORD, load_updates_word(base.dense / ELEMENTS_PER_WORD));
        return;
    }
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            store_output(at[e].indexed, load_updates(at[e].dense));
        }
    }
}

// 1- and 2-byte elements where rows do not fill whole words (odd row lengths, unaligned
// rows): ELEMENTS_PER_WORD neighbours of the walk a thread. A thread whose elements land on
// consecutive output elements (a run) shares it in workgroup memory; an output word that two
// neighbouring runs fill between them is stored whole by the later thread, so only words a
// run shares with no neighbour are merged by compare-exchange. (Two words a thread measured
// 1.5x slower on an H100 for int8 rows of 4097: more index loads and registers a thread.)
const NO_RUN: u32 = 0xffffffffu;
var<workgroup> run_starts: array<u32, WORKGROUP_SIZE>;
var<workgroup> run_words: array<u32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_spans(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    let first = t * ELEMENTS_PER_WORD;
    var at: array<Location, ELEMENTS_PER_WORD>;
    // This thread's elements inside the tensor.
    var count = 0u;
    var run = false;
    var word = 0u;
    if first < params.count {
        count = min(ELEMENTS_PER_WORD, params.count - first);
        let base = locate_base(first);
        let inner = first % size_at(RANK - 1u);
        run = count == ELEMENTS_PER_WORD;
        // Loops of a constant count guarded by `count`: unrolled, with `at` in registers (a
        // loop to `count` kept such arrays in memory on an H100).
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            if e < count {
                at[e] = apply_index(locate_along(base, inner, first, e));
                run = run && at[e].bad_component == IN_RANGE
                    && at[e].indexed == at[0].indexed + e;
            }
        }
        if run {
            for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
                word |= load_updates(at[e].dense) << (e * ELEMENT_BITS);
            }
        }
    }
    run_starts[local] = select(NO_RUN, at[0].indexed, run);
    run_words[local] = word;
    workgroupBarrier();
    if !run {
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            if e < count {
                if at[e].bad_component != IN_RANGE {
                    report_out_of_range(first + e);
                } else {
                    store_output(at[e].indexed, load_updates(at[e].dense));
                }
            }
        }
        return;
    }
    let start = at[0].indexed;
    let w = start / ELEMENTS_PER_WORD;
    let bits = (start % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    if bits == 0u {
        store_output_word(w, word);
        return;
    }
    // Word w: this run's first elements from position `bits` on; the positions before are
    // the previous run's last elements if it ends right there.
    let previous_ends_here = local > 0u && start >= ELEMENTS_PER_WORD
        && run_starts[local - 1u] == start - ELEMENTS_PER_WORD;
    if previous_ends_here {
        store_output_word(w, (run_words[local - 1u] >> (32u - bits)) | (word << bits));
    } else {
        store_output_bits(w, 0xffffffffu << bits, word << bits);
    }
    // Word w + 1: this run's last elements below position `bits`; a run starting right after
    // this one stores that word whole.
    let next_continues = local + 1u < WORKGROUP_SIZE
        && run_starts[local + 1u] == start + ELEMENTS_PER_WORD;
    if !next_continues {
        store_output_bits(w + 1u, ~(0xffffffffu << bits), word >> (32u - bits));
    }
}
// @sub-word-end
// @any-update-end

// @in-order-begin
// Pass 1: every target remembers the last (highest) update unit aimed at it, plus one.
@compute @workgroup_size(WORKGROUP_SIZE)
fn claim_targets(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    let base = locate_base(i);
    if !owns_tuple(base.tuple) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        return;
    }
    if owns_winners(at.indexed) {
        atomic_max_winners(at.indexed, i + 1u);
    }
}

// Pass 2: only the winner writes, so no store can tear and the result is deterministic.
@compute @workgroup_size(WORKGROUP_SIZE)
fn write_winners(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE || !owns_winners(at.indexed) || !owns_output(at.indexed) {
        return;
    }
    if atomic_load_winners(at.indexed) == i + 1u {
        store_output(at.indexed, load_updates(at.dense));
    }
}
// @in-order-end

// @reduce-begin
// A reduction in any order: each update is combined into its target by a compare-exchange
// loop on the target's word (reduce_output), so no update is ever lost to a race. A thread
// takes REDUCE_GROUP updates (the header's) (a grid-stride apart, so each load instruction of a warp reads
// neighbours), and a workgroup's updates aimed at one target are first combined in
// workgroup memory: a target many threads aim at then takes one global compare-exchange a
// workgroup, not one an update. The slots start at the reduction's identity (IDENTITY: 0,
// 1, the type's extremes, -0.0 for float Add), so a slot can be joined as soon as claimed.
const NO_TARGET: u32 = 0xffffffffu;
var<workgroup> slot_targets: array<atomic<u32>, WORKGROUP_SIZE>;
var<workgroup> slot_values: array<atomic<u32>, WORKGROUP_SIZE>;

// slot_values[slot] = slot_values[slot] op value.
fn combine_into_slot(slot: u32, value: u32) {
    var old = atomicLoad(&slot_values[slot]);
    loop {
        let combined = combine_unit(old, value);
        if combined == old {
            break;
        }
        let swapped = atomicCompareExchangeWeak(&slot_values[slot], old, combined);
        if swapped.exchanged {
            break;
        }
        old = swapped.old_value;
    }
}

// Combines update unit i into its target (its slot, or the output), or reports its index.
fn reduce_unit(i: u32) {
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        return;
    }
    if !owns_output(at.indexed) {
        return;
    }
    let value = load_updates(at.dense);
    // (NO_TARGET is a valid element index too: that one element goes straight to the output.)
    let slot = at.indexed % WORKGROUP_SIZE;
    if at.indexed != NO_TARGET {
        loop {
            let claim = atomicCompareExchangeWeak(&slot_targets[slot], NO_TARGET, at.indexed);
            if claim.exchanged || claim.old_value == at.indexed {
                combine_into_slot(slot, value);
                return;
            }
            if claim.old_value != NO_TARGET {
                break;
            }
        }
    }
    reduce_output(at.indexed, value);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_reduce(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // No early return: every thread reaches the barriers.
    atomicStore(&slot_targets[local], NO_TARGET);
    atomicStore(&slot_values[local], IDENTITY);
    workgroupBarrier();
    let t = invocation_index(workgroup, workgroups, local);
    let threads = params.count / REDUCE_GROUP + select(0u, 1u, params.count % REDUCE_GROUP != 0u);
    if t < threads {
        for (var k = 0u; k < REDUCE_GROUP; k += 1u) {
            let j = t + k * threads;
            if j < params.count {
                reduce_unit(group_index(j));
            }
        }
    }
    workgroupBarrier();
    let claimed = atomicLoad(&slot_targets[local]);
    if claimed != NO_TARGET {
        reduce_output(claimed, atomicLoad(&slot_values[local]));
    }
}
// @reduce-end

// @ties-begin
// Float Min and Max in order, without lists: the any-order pass already gives every target
// the right number, and equal numbers have equal bits but for the two tie classes, zeros
// (+0.0, -0.0) and NaNs (any payload). In order, the first value of the winning class wins
// (an update replaces the current value only when strictly smaller or larger, and a NaN
// current value stays), so two passes beside scatter_reduce settle those: before it,
// claim_ties records for each target its first zero and its first NaN update whose class
// the input does not hold already (heads: the NaN class ranks above, earlier updates above
// later ones); after it, write_ties lets that update store its bits where the target ended
// in its class. Other updates only read their value: one coalesced load each.
const NO_TIE: u32 = 0u;
const ZERO_TIE: u32 = 1u;
const NAN_TIE: u32 = 2u;

fn tie_class(bits: u32) -> u32 {
    let f = number_format();
    if narrow_is_nan(bits, f) {
        return NAN_TIE;
    }
    if narrow_is_zero(bits, f) {
        return ZERO_TIE;
    }
    return NO_TIE;
}

// The rank of update i of a class in heads (atomicMax): NaNs above zeros, then earlier
// updates above later ones (the host keeps i below 2^31 - 1, so a rank is never 0).
fn tie_rank(kind: u32, i: u32) -> u32 {
    return select(0u, 0x80000000u, kind == NAN_TIE) | (0x7fffffffu - i);
}

// Update unit i where it is a zero or a NaN aimed in range; otherwise its kind is NO_TIE
// (the index is read only for zeros and NaNs; scatter_reduce reports out-of-range ones).
struct TieUpdate {
    value: u32,
    kind: u32,
    at: Location,
}

fn tie_update(i: u32) -> TieUpdate {
    let base = locate_base(i);
    let value = load_updates(base.dense);
    var update = TieUpdate(value, tie_class(value), base);
    if update.kind != NO_TIE {
        update.at = apply_index(base);
        if update.at.bad_component != IN_RANGE {
            update.kind = NO_TIE;
        }
    }
    return update;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn claim_ties(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    let update = tie_update(i);
    // The output still holds the input here: a target whose input is of the class keeps it.
    if update.kind == NO_TIE || tie_class(load_output(update.at.indexed)) == update.kind {
        return;
    }
    atomic_max_heads(update.at.indexed, tie_rank(update.kind, i));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn write_ties(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    let update = tie_update(i);
    if update.kind == NO_TIE || atomic_load_heads(update.at.indexed) != tie_rank(update.kind, i) {
        return;
    }
    if tie_class(load_output(update.at.indexed)) == update.kind {
        store_output(update.at.indexed, update.value);
    }
}
// @ties-end

// @in-order-reduce-begin
// A reduction in the updates' order, element by element or by slices (where trailing
// dimensions share one index tuple, ScatterND's rows: slices of params.slice_units units land
// on aligned blocks of the output, the block of a slice being the target of its first unit
// divided by params.slice_units). The updates (or slices) are sorted by target (or block),
// keeping their order: a stable least-significant-digit radix sort of (key, position) pairs,
// one digit of log2 WORKGROUP_SIZE bits a pass, where the workgroup is a power of two of at
// least 32 threads and the scratch fits one binding (every window bound: never a slab).
// Each target's updates then lie contiguous and in order, and are folded into it.
//
// No invocation folds more than FOLD_STEPS updates in one dispatch: Mesa's llvmpipe and
// lavapipe silently end an invocation's loops after 65535 iterations in all (counted per
// SIMD vector of up to 16 invocations), and any GPU's watchdog ends a dispatch that runs for
// seconds. A run longer than one dispatch folds is folded over several: each pass starts from
// the output, where the last one left the partial result, and the runs that go on are listed
// for the next pass (lists by pass parity in links, their counts in heads).
//
// links: keys and positions twice (the radix sort's two arrays, each sort_count words), then
// the per-digit, per-tile counts (the histogram), their blocks' sums, and the two lists of
// runs that go on. heads: each key's run start (plus one), its end, and each pass's list count.
struct Slice {
    // The slice's first unit and where it lands.
    first: u32,
    at: Location,
}

fn locate_slice(b: u32) -> Slice {
    let first = b * params.slice_units;
    return Slice(first, apply_index(locate_base(first)));
}

// Where unit `offset` of a slice lies in the updates, from the slice's first unit.
fn slice_dense_offset(offset: u32) -> u32 {
    var rest = offset;
    var dense = 0u;
    for (var d = RANK; d > RANK - params.slice_rank; d -= 1u) {
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
    for (var d = RANK - params.slice_rank; d > 1u; d -= 1u) {
        let k = d - 1u;
        let size = size_at(k);
        dense += (rest % size) * dense_stride_at(k);
        rest = rest / size;
    }
    return dense + rest * dense_stride_at(0u);
}

fn keys_at(array: u32) -> u32 {
    return array * 2u * params.sort_count;
}

fn positions_at(array: u32) -> u32 {
    return array * 2u * params.sort_count + params.sort_count;
}

fn histogram_at() -> u32 {
    return 4u * params.sort_count;
}

fn histogram_entries() -> u32 {
    return WORKGROUP_SIZE * params.radix_tiles;
}

fn scan_blocks() -> u32 {
    return (histogram_entries() + SCAN_BLOCK - 1u) / SCAN_BLOCK;
}

fn block_sums_at() -> u32 {
    return histogram_at() + histogram_entries();
}

// The list of runs pass `fold_pass` folds (params.fold_capacity entries each, two by parity), and
// where its count lies in heads.
fn fold_list_at(fold_pass: u32) -> u32 {
    return block_sums_at() + scan_blocks() + (fold_pass & 1u) * params.fold_capacity;
}

fn fold_count_at(fold_pass: u32) -> u32 {
    return 2u * params.sort_units + fold_pass;
}

// Lists `key` (a target, or a block) for pass `fold_pass`.
fn list_for_pass(fold_pass: u32, key: u32) {
    let entry = atomic_add_heads(fold_count_at(fold_pass), 1u);
    atomic_store_links(fold_list_at(fold_pass) + entry, key);
}

// The array a pass reads: pass p = radix_shift / RADIX_BITS reads array p % 2 and writes
// the other; after the last pass, the sorted pairs are in array (passes % 2).
fn source_array() -> u32 {
    return (params.radix_shift / RADIX_BITS) & 1u;
}

fn digit(key: u32) -> u32 {
    return (key >> params.radix_shift) & (WORKGROUP_SIZE - 1u);
}

// Pass 0: the pairs in the updates' order; out-of-range updates get the key NO_KEY, which
// sorts after every target (the host sorts on enough bits to cover sort_units itself).
const NO_KEY: u32 = 0xffffffffu;

fn store_pair(i: u32, key: u32) {
    atomic_store_links(keys_at(0u) + i, key);
    atomic_store_links(positions_at(0u) + i, i);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sort_keys(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    let at = apply_index(locate_base(i));
    var key = at.indexed;
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        key = NO_KEY;
    }
    store_pair(i, key);
}

// The same for slices: the key is the block the slice lands on.
const SKIPPED_SLICE: u32 = 0x80000000u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn sort_slice_keys(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let b = invocation_index(workgroup, workgroups, local);
    if b >= params.sort_count {
        return;
    }
    let slice = locate_slice(b);
    if slice.at.bad_component != IN_RANGE {
        // Every unit of the slice is out of range; its first is the first reported. It
        // joins the last block's run, marked, so that the keys need no bit past the blocks'.
        report_out_of_range(slice.first);
        atomic_store_links(keys_at(0u) + b, params.sort_units - 1u);
        atomic_store_links(positions_at(0u) + b, b | SKIPPED_SLICE);
        return;
    }
    store_pair(b, slice.at.indexed / params.slice_units);
}

// A radix pass, 1: a workgroup per tile of params.radix_rounds * WORKGROUP_SIZE pairs (at
// most RADIX_ROUNDS rounds: small sorts take fewer, so that more workgroups share the work)
// counts its digits.
var<workgroup> digit_counts: array<atomic<u32>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_count(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let tile = workgroup_index(workgroup, workgroups);
    if tile >= params.radix_tiles {
        return;
    }
    atomicStore(&digit_counts[local], 0u);
    workgroupBarrier();
    let keys = keys_at(source_array());
    for (var r = 0u; r < min(params.radix_rounds, RADIX_ROUNDS); r += 1u) {
        let e = (tile * params.radix_rounds + r) * WORKGROUP_SIZE + local;
        if e < params.sort_count {
            atomicAdd(&digit_counts[digit(atomic_load_links(keys + e))], 1u);
        }
    }
    workgroupBarrier();
    // Digit-major: the exclusive scan of this order is where each (digit, tile) begins.
    atomic_store_links(histogram_at() + local * params.radix_tiles + tile, atomicLoad(&digit_counts[local]));
}

// The exclusive prefix sum of `value` over the workgroup's threads, and the total.
var<workgroup> scan_values: array<u32, WORKGROUP_SIZE>;

fn workgroup_exclusive_scan(local: u32, value: u32) -> vec2<u32> {
    workgroupBarrier();
    scan_values[local] = value;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset *= 2u) {
        var add = 0u;
        if local >= offset {
            add = scan_values[local - offset];
        }
        workgroupBarrier();
        scan_values[local] += add;
        workgroupBarrier();
    }
    return vec2<u32>(scan_values[local] - value, scan_values[WORKGROUP_SIZE - 1u]);
}

// Entries [first, first + SCAN_BLOCK) of the words at `at` (those below `count`) replaced by
// their exclusive prefix sum plus `carry`; returns the block's total.
fn scan_block(at: u32, first: u32, count: u32, carry: u32, local: u32) -> u32 {
    var values: array<u32, SCAN_ITEMS>;
    var sum = 0u;
    for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
        let e = first + local * SCAN_ITEMS + k;
        values[k] = 0u;
        if e < count {
            values[k] = atomic_load_links(at + e);
        }
        sum += values[k];
    }
    let scanned = workgroup_exclusive_scan(local, sum);
    var running = carry + scanned.x;
    for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
        let e = first + local * SCAN_ITEMS + k;
        if e < count {
            atomic_store_links(at + e, running);
        }
        running += values[k];
    }
    return scanned.y;
}

// A radix pass, 2: each block of the histogram scanned, its total kept.
@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scan_blocks(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let block = workgroup_index(workgroup, workgroups);
    if block >= scan_blocks() {
        return;
    }
    let total = scan_block(histogram_at(), block * SCAN_BLOCK, histogram_entries(), 0u, local);
    if local == 0u {
        atomic_store_links(block_sums_at() + block, total);
    }
}

// A radix pass, 3: one workgroup scans the blocks' totals.
@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scan_sums(@builtin(local_invocation_index) local: u32) {
    let count = scan_blocks();
    var carry = 0u;
    for (var first = 0u; first < count; first += SCAN_BLOCK) {
        carry += scan_block(block_sums_at(), first, count, carry, local);
    }
}

// A radix pass, 4: a workgroup per tile moves its pairs to their places, WORKGROUP_SIZE at a
// time and in order: a pair's rank among the round's pairs of its digit is the number of
// earlier threads whose bit is set in the digit's mask, so equal digits keep their order.
var<workgroup> digit_masks: array<atomic<u32>, RADIX_MASK_WORDS>;
var<workgroup> digit_next: array<u32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scatter(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let tile = workgroup_index(workgroup, workgroups);
    if tile >= params.radix_tiles {
        return;
    }
    let words = WORKGROUP_SIZE / 32u;
    let entry = local * params.radix_tiles + tile;
    digit_next[local] = atomic_load_links(histogram_at() + entry)
        + atomic_load_links(block_sums_at() + entry / SCAN_BLOCK);
    for (var w = 0u; w < words; w += 1u) {
        atomicStore(&digit_masks[local * words + w], 0u);
    }
    workgroupBarrier();
    let source = source_array();
    let lane = local % 32u;
    let word = local / 32u;
    for (var r = 0u; r < min(params.radix_rounds, RADIX_ROUNDS); r += 1u) {
        let e = (tile * params.radix_rounds + r) * WORKGROUP_SIZE + local;
        let valid = e < params.sort_count;
        var key = 0u;
        var position = 0u;
        var d = 0u;
        if valid {
            key = atomic_load_links(keys_at(source) + e);
            position = atomic_load_links(positions_at(source) + e);
            d = digit(key);
            atomicOr(&digit_masks[d * words + word], 1u << lane);
        }
        workgroupBarrier();
        if valid {
            var rank = countOneBits(atomicLoad(&digit_masks[d * words + word]) & ((1u << lane) - 1u));
            for (var w = 0u; w < word; w += 1u) {
                rank += countOneBits(atomicLoad(&digit_masks[d * words + w]));
            }
            let slot = digit_next[d] + rank;
            atomic_store_links(keys_at(1u - source) + slot, key);
            atomic_store_links(positions_at(1u - source) + slot, position);
        }
        workgroupBarrier();
        var count = 0u;
        for (var w = 0u; w < words; w += 1u) {
            count += countOneBits(atomicLoad(&digit_masks[local * words + w]));
            atomicStore(&digit_masks[local * words + w], 0u);
        }
        digit_next[local] += count;
        workgroupBarrier();
    }
}

// The sorted updates' values, gathered once by find_runs into the array the last pass read
// (2 * sort_count words: room for 8-byte units), so that folds read them in order.
fn values_at() -> u32 {
    return keys_at(1u - source_array());
}

fn load_sorted_value(j: u32) -> Unit {
    let at = values_at() + j * UNIT_WORDS;
    var pair = vec2<u32>(atomic_load_links(at), 0u);
    if UNIT_WORDS == 2u {
        pair.y = atomic_load_links(at + 1u);
    }
    return pair_unit(pair);
}

// The position (update or slice) that sorted pair j came from.
fn sorted_position(j: u32) -> u32 {
    return atomic_load_links(positions_at(source_array()) + j);
}

// After the last pass: each key's run [start, end) of the sorted pairs, start stored plus
// one (0: none); element by element, each update's value gathered in the runs' order.
@compute @workgroup_size(WORKGROUP_SIZE)
fn find_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let j = invocation_index(workgroup, workgroups, local);
    if j >= params.sort_count {
        return;
    }
    let keys = keys_at(source_array());
    let key = atomic_load_links(keys + j);
    if key >= params.sort_units {
        return;
    }
    if j == 0u || atomic_load_links(keys + j - 1u) != key {
        atomic_store_heads(key, j + 1u);
    }
    if j + 1u == params.sort_count || atomic_load_links(keys + j + 1u) != key {
        atomic_store_heads(params.sort_units + key, j + 1u);
    }
    if params.slice_units > 1u {
        return;
    }
    let value = unit_pair(load_updates(locate_base(sorted_position(j)).dense));
    atomic_store_links(values_at() + j * UNIT_WORDS, value.x);
    if UNIT_WORDS == 2u {
        atomic_store_links(values_at() + j * UNIT_WORDS + 1u, value.y);
    }
}

// A thread per output unit folds its run (at most LONG_RUN updates), or lists a longer one
// for fold_long_runs.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let u = invocation_index(workgroup, workgroups, local);
    if u >= params.sort_units {
        return;
    }
    let start = atomic_load_heads(u);
    if start == 0u {
        return;
    }
    let end = atomic_load_heads(params.sort_units + u);
    if end - (start - 1u) > LONG_RUN {
        list_for_pass(0u, u);
        return;
    }
    var value = load_output(u);
    for (var j = start - 1u; j < end; j += 1u) {
        value = combine_unit(value, load_sorted_value(j));
    }
    store_output(u, value);
}

// A workgroup per listed run folds the next LONG_SPAN of its updates (pass params.pass):
// threads from WORKGROUP_SIZE / 2 on load the next LONG_CHUNK updates into workgroup memory
// while one thread folds the current chunk. The folding thread changes every FOLDER_CHUNKS
// chunks (FOLD_STEPS updates), FOLDER_SPACING threads on, the partial result handed over in
// workgroup memory (spaced, so that a SIMD vector of 16 invocations holds at most four
// folders: 4 * FOLD_STEPS iterations, within Mesa's 65535).
var<workgroup> long_run: vec3<u32>;
var<workgroup> long_value: Unit;
var<workgroup> chunk_values: array<Unit, LONG_CHUNK_PAIR>;
// Per buffer: whether a loaded value is not a normal number (the fast chain's condition).
var<workgroup> chunk_unusual: array<atomic<u32>, 2>;

fn load_chunk(run: vec3<u32>, chunk: u32, local: u32) {
    let loader = local - WORKGROUP_SIZE / 2u;
    let loaders = WORKGROUP_SIZE - WORKGROUP_SIZE / 2u;
    let buffer = chunk % 2u;
    let first = run.y + chunk * LONG_CHUNK + loader;
    // Every load first, then every store: LONG_LOADS loads in flight, not one.
    var values: array<Unit, LONG_LOADS>;
    for (var k = 0u; k < LONG_LOADS; k += 1u) {
        if first + k * loaders < run.z {
            values[k] = load_sorted_value(first + k * loaders);
        }
    }
    var unusual = false;
    for (var k = 0u; k < LONG_LOADS; k += 1u) {
        if first + k * loaders < run.z {
            chunk_values[buffer * LONG_CHUNK + k * loaders + loader] = values[k];
            unusual = unusual || !binary32_normal_from(unit_word(values[k]), 1u);
        }
    }
    if FAST_CHAIN && unusual {
        atomicOr(&chunk_unusual[buffer], 1u);
    }
}

// `value` folded with the first n values of a buffer. Float32 Add and Mul first try the
// hardware's chain of f32 operations, exact when the start, every update and every partial
// result are normal numbers (binary32_step's condition), checked beside the chain rather
// than in it: the loaders check the updates; with normal updates an infinity stays one
// (inf + x, inf * x), so overflow shows at the end, and underflow in the smallest
// magnitude met (one min a step; a flushed result is zero there too). If any check fails,
// the chunk is folded again step by step.
fn fold_chunk(value: Unit, buffer: u32, n: u32) -> Unit {
    let at = buffer * LONG_CHUNK;
    if FAST_CHAIN {
        let start = unit_word(value);
        if atomicLoad(&chunk_unusual[buffer]) == 0u && binary32_normal_from(start, 1u) {
            // (x, smallest |x|). Sixteen loads go out before the sixteen dependent steps:
            // one at a time, every step waited for its load.
            var state = vec2<f32>(bitcast<f32>(start), abs(bitcast<f32>(start)));
            var k = 0u;
            for (; k + 16u <= n; k += 16u) {
                let a = chunk_quad(at + k);
                let b = chunk_quad(at + k + 4u);
                let c = chunk_quad(at + k + 8u);
                let d = chunk_quad(at + k + 12u);
                state = chain4(chain4(chain4(chain4(state, a), b), c), d);
            }
            for (; k < n; k += 1u) {
                let x = chain_step(state.x, bitcast<f32>(unit_word(chunk_values[at + k])));
                state = vec2<f32>(x, min(state.y, abs(x)));
            }
            let bits = bitcast<u32>(state.x);
            // At least 2^-125 throughout, and finite at the end.
            if bitcast<u32>(state.y) >= 0x01000000u && (bits & 0x7fffffffu) < 0x7f800000u {
                return word_unit(bits);
            }
        }
    }
    var folded = value;
    for (var k = 0u; k < n; k += 1u) {
        folded = combine_unit(folded, chunk_values[at + k]);
    }
    return folded;
}

fn chain_step(x: f32, update: f32) -> f32 {
    if REDUCTION == ADD {
        return x + update;
    }
    return x * update;
}

// Four steps of the chain on (x, smallest |x|).
fn chain4(state: vec2<f32>, updates: vec4<f32>) -> vec2<f32> {
    var x = chain_step(state.x, updates.x);
    var smallest = min(state.y, abs(x));
    x = chain_step(x, updates.y);
    smallest = min(smallest, abs(x));
    x = chain_step(x, updates.z);
    smallest = min(smallest, abs(x));
    x = chain_step(x, updates.w);
    smallest = min(smallest, abs(x));
    return vec2<f32>(x, smallest);
}

fn chunk_quad(at: u32) -> vec4<f32> {
    return vec4<f32>(
        bitcast<f32>(unit_word(chunk_values[at])),
        bitcast<f32>(unit_word(chunk_values[at + 1u])),
        bitcast<f32>(unit_word(chunk_values[at + 2u])),
        bitcast<f32>(unit_word(chunk_values[at + 3u])),
    );
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_long_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    let fold_pass = params.fold_pass;
    if local == 0u {
        // (unit, first, end) of this pass's share of the workgroup's run, or an empty run.
        var run = vec3<u32>(0u, 0u, 0u);
        if w < atomic_load_heads(fold_count_at(fold_pass)) {
            let u = atomic_load_links(fold_list_at(fold_pass) + w);
            let first = atomic_load_heads(u) - 1u + fold_pass * LONG_SPAN;
            let end = atomic_load_heads(params.sort_units + u);
            if end - first > LONG_SPAN {
                list_for_pass(fold_pass + 1u, u);
            }
            run = vec3<u32>(u, first, min(end, first + LONG_SPAN));
            long_value = load_output(u);
        }
        long_run = run;
        atomicStore(&chunk_unusual[0], 0u);
        atomicStore(&chunk_unusual[1], 0u);
    }
    let run = workgroupUniformLoad(&long_run);
    if run.z == run.y {
        return;
    }
    // At most LONG_SPAN / LONG_CHUNK chunks.
    let chunks = (run.z - run.y + LONG_CHUNK - 1u) / LONG_CHUNK;
    let loading = local >= WORKGROUP_SIZE / 2u;
    if loading {
        load_chunk(run, 0u, local);
    }
    workgroupBarrier();
    for (var c = 0u; c < chunks; c += 1u) {
        if loading && c + 1u < chunks {
            load_chunk(run, c + 1u, local);
        }
        if local == (c / FOLDER_CHUNKS) * FOLDER_SPACING {
            let n = min(LONG_CHUNK, run.z - run.y - c * LONG_CHUNK);
            long_value = fold_chunk(long_value, c % 2u, n);
            atomicStore(&chunk_unusual[c % 2u], 0u);
        }
        workgroupBarrier();
    }
    if local == 0u {
        store_output(run.x, long_value);
    }
}

// `value` folded with the column `inner` of sorted slice j, unless it is out of range.
fn fold_sorted_slice(value: Unit, j: u32, inner: u32) -> Unit {
    let b = sorted_position(j);
    if (b & SKIPPED_SLICE) != 0u {
        return value;
    }
    return combine_unit(value, load_updates(slice_dense_start(b) + inner));
}

// By slices, pass 0: a thread per output unit folds its column of the first FOLD_STEPS
// slices of its block's run (slices land on aligned blocks: unit = block * slice_units +
// offset, the same offset in every slice; neighbouring threads read neighbouring units of
// each slice), and the block's first unit lists a longer run for fold_slice_runs.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slices(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let u = invocation_index(workgroup, workgroups, local);
    if u >= params.count {
        return;
    }
    let block = u / params.slice_units;
    let start = atomic_load_heads(block);
    if start == 0u {
        return;
    }
    let end = atomic_load_heads(params.sort_units + block);
    let first = start - 1u;
    let last = min(end, first + FOLD_STEPS);
    let offset = u - block * params.slice_units;
    if last < end && offset == 0u {
        list_for_pass(1u, block);
    }
    let inner = slice_dense_offset(offset);
    var value = load_output(u);
    for (var j = first; j < last; j += 1u) {
        value = fold_sorted_slice(value, j, inner);
    }
    store_output(u, value);
}

// By slices, passes 1 on: a workgroup per listed block and tile of SLICE_TILE columns folds
// the next SLICE_SPAN slices of the block's run. Its SLICE_TURNS rows of threads take turns,
// FOLD_STEPS slices each, every column's partial result handed over in workgroup memory.
var<workgroup> slice_run: vec3<u32>;
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
    var column = Column(lane, local / SLICE_TILE, offset < params.slice_units, 0u, 0u);
    column.unit = block * params.slice_units + offset;
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

@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_slice_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    let fold_pass = params.fold_pass;
    let entry = w / params.fold_tiles;
    let tile = w - entry * params.fold_tiles;
    if local == 0u {
        // (block, first, end) of this pass's share of the block's run, or an empty run.
        var run = vec3<u32>(0u, 0u, 0u);
        if entry < atomic_load_heads(fold_count_at(fold_pass)) {
            let block = atomic_load_links(fold_list_at(fold_pass) + entry);
            let first = atomic_load_heads(block) - 1u + FOLD_STEPS + (fold_pass - 1u) * SLICE_SPAN;
            let end = atomic_load_heads(params.sort_units + block);
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
            var value = column_values[column.lane];
            for (var j = first; j < last; j += 1u) {
                value = fold_sorted_slice(value, j, column.inner);
            }
            column_values[column.lane] = value;
        }
    }
    workgroupBarrier();
    store_column(column);
}
// By slices in any order (order-free reductions of rows of 64+ units, and 8-byte rows, in
// the default mode): each block's slices linked into a list, walked at most FOLD_STEPS nodes
// an invocation a pass (no sort: any order is the mode's promise, and a list costs one
// exchange a slice). heads: each block's last slice linked plus one (0: none), then each
// pass's list count; links: the slice linked before each slice (plus one; 0 ends the list),
// then the two lists of (block, next node) pairs of the blocks that go on.
fn slice_list_at(fold_pass: u32) -> u32 {
    return params.slices + (fold_pass & 1u) * 2u * params.fold_capacity;
}

fn slice_list_count_at(fold_pass: u32) -> u32 {
    return params.sort_units + fold_pass;
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
    if b >= params.slices {
        return;
    }
    let slice = locate_slice(b);
    if slice.at.bad_component != IN_RANGE {
        // Every unit of the slice is out of range; its first is the first reported.
        report_out_of_range(slice.first);
        return;
    }
    atomic_store_links(b, atomic_exchange_heads(slice.at.indexed / params.slice_units, b + 1u));
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
    let block = u / params.slice_units;
    let first = atomic_load_heads(block);
    if first == 0u {
        return;
    }
    let offset = u - block * params.slice_units;
    let fold = fold_list(load_output(u), first, slice_dense_offset(offset));
    if fold.node != 0u && offset == 0u {
        list_slice_block(1u, block, fold.node);
    }
    store_output(u, fold.value);
}

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
    let fold_pass = params.fold_pass;
    let entry = w / params.fold_tiles;
    let tile = w - entry * params.fold_tiles;
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
// @in-order-reduce-end
