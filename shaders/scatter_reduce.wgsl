// requires: common index_map arithmetic units wide
// Scatter reductions in any order (ReduceOrder::Any; ReduceOrder::Screened, after the f32
// atomics of shaders/scatter_float_add.wgsl: the screened section), and float Min and Max in
// order without lists (ReduceOrder::FirstTie: the ties section).

// A slot no output unit has taken (the last unit, 0xffffffff, never takes one: it goes
// straight to the output); shared by the narrow and the 8-byte slots.
const NO_TARGET: u32 = 0xffffffffu;

// @narrow-begin
// A reduction in any order: each update is combined into its target by a compare-exchange
// loop on the target's word (combine_placed), so no update is ever lost to a race. A thread
// takes up to REDUCE_GROUP updates (the header's; params.bins.per_thread, fewer where the
// updates are few, so that they spread over the GPU), a grid-stride apart, so that each load
// instruction of a warp reads neighbours; and a workgroup's updates aimed at one target are
// first combined in workgroup memory: a target many threads aim at then takes one global
// compare-exchange a workgroup, not one an update. The slots start at the reduction's
// identity (IDENTITY: 0, 1, the type's extremes, -0.0 for float Add), so a slot can be joined
// as soon as claimed. Integer Add, Min and Max combine by WGSL's own atomics instead of
// compare-exchange, in the slots and (4-byte units) in the output.
var<workgroup> slot_targets: array<atomic<u32>, WORKGROUP_SIZE>;
// Kept apart from the bins of shaders/scatter_bins.wgsl (a driver may give a kernel that
// holds more workgroup memory less cache: an H100's Float32 Max ran 2 % slower with them
// shared). WGSL passes no pointer to workgroup memory into a function, hence a combine a
// workgroup array.
var<workgroup> slot_values: array<atomic<ReduceWord>, WORKGROUP_SIZE>;

// Where an update goes: nowhere (out of range, another window's, or no update), a slot of
// the workgroup, or an output unit.
const NO_UPDATE: u32 = 0u;
const TO_SLOT: u32 = 1u;
const TO_OUTPUT: u32 = 2u;

struct Placed {
    place: u32,
    // The slot, or the output unit.
    at: u32,
    value: u32,
}

// @native-begin
// slot_values[slot] = slot_values[slot] op value, or the same on the output unit, by WGSL's
// own atomics. Integer Add wraps in 32 bits, which the unit's low bits keep exactly.
fn combine_placed(update: Placed) {
    if update.place == TO_OUTPUT {
        reduce_output(update.at, update.value);
        return;
    }
    if update.place != TO_SLOT {
        return;
    }
    let wide = widened(update.value);
    if REDUCTION == ADD {
        atomicAdd(&slot_values[update.at], wide);
    } else if REDUCTION == MIN {
        atomicMin(&slot_values[update.at], wide);
    } else {
        atomicMax(&slot_values[update.at], wide);
    }
}
// @native-end
// @exchange-begin
// The slot's or the output unit's value = value op update, by one compare-exchange loop on
// its word for both: the arithmetic (combine_unit) is in the kernel once, which an H100's
// driver compiles in about half the time of a loop for each (it inlines every call).
fn combine_placed(update: Placed) {
    if update.place == NO_UPDATE {
        return;
    }
    let into_slot = update.place == TO_SLOT;
    // A slot holds one unit a word; an output word holds ELEMENTS_PER_WORD units.
    var word = update.at;
    var shift = 0u;
    var mask = 0xffffffffu;
    var old: u32;
    if into_slot {
        old = bitcast<u32>(atomicLoad(&slot_values[word]));
    } else {
        let place = word_place_output(update.at);
        word = place.x;
        shift = place.y;
        mask = place.z;
        old = load_output_word(word);
    }
    loop {
        let current = ((old & mask) >> shift) & NUMBER_MASK;
        let combined = combine_unit(current, update.value);
        if combined == current {
            break;
        }
        var swapped: vec2<u32>;
        if into_slot {
            let exchange = atomicCompareExchangeWeak(&slot_values[word], bitcast<ReduceWord>(old), widened(combined));
            swapped = vec2<u32>(select(0u, 1u, exchange.exchanged), bitcast<u32>(exchange.old_value));
        } else {
            swapped = exchange_output_word(word, old, (old & ~mask) | (combined << shift));
        }
        if swapped.x != 0u {
            break;
        }
        old = swapped.y;
    }
}
// @exchange-end

// Update unit i placed: its slot (claimed if free), else its output unit; or nowhere, its
// index reported if out of range.
fn place_unit(i: u32) -> Placed {
    let nowhere = Placed(NO_UPDATE, 0u, 0u);
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return nowhere;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        return nowhere;
    }
    if !owns_output(at.indexed) {
        return nowhere;
    }
    let value = load_updates(at.dense);
    // @screened-begin
    if refused_updates_only && !needs_exact_add(value) {
        return nowhere;
    }
    // @screened-end
    // (NO_TARGET is a valid element index too: that one element goes straight to the output.)
    let slot = at.indexed % WORKGROUP_SIZE;
    if at.indexed != NO_TARGET {
        loop {
            let claim = atomicCompareExchangeWeak(&slot_targets[slot], NO_TARGET, at.indexed);
            if claim.exchanged || claim.old_value == at.indexed {
                return Placed(TO_SLOT, slot, value);
            }
            if claim.old_value != NO_TARGET {
                break;
            }
        }
    }
    return Placed(TO_OUTPUT, at.indexed, value);
}

// @screened-begin
// After the float atomics (shaders/scatter_float_add.wgsl): what they left, as the status
// word SCREENED says (0: nothing; SCREENED_UPDATES: the updates they refused; SCREENED_ALL:
// every update).
var<workgroup> screened: u32;
var<private> refused_updates_only: bool;
// @screened-end

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_reduce(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // @screened-begin
    // A uniform return, before any barrier, where the float atomics left nothing.
    if local == 0u {
        screened = atomic_load_status(SCREENED);
    }
    let left = workgroupUniformLoad(&screened);
    if left == 0u {
        return;
    }
    refused_updates_only = left == SCREENED_UPDATES;
    // @screened-end
    // No early return past here: every thread reaches the barriers.
    atomicStore(&slot_targets[local], NO_TARGET);
    atomicStore(&slot_values[local], widened(IDENTITY));
    workgroupBarrier();
    let t = invocation_index(workgroup, workgroups, local);
    let threads = params.bins.threads;
    let steps = min(params.bins.per_thread, REDUCE_GROUP);
    // Step k < steps combines the thread's k-th update; step `steps`, after the barrier,
    // its slot's value into the output. One call of combine_placed for both (see there).
    for (var k = 0u; k <= steps; k += 1u) {
        var update = Placed(NO_UPDATE, 0u, 0u);
        if k == steps {
            workgroupBarrier();
            let claimed = atomicLoad(&slot_targets[local]);
            if claimed != NO_TARGET {
                update = Placed(TO_OUTPUT, claimed, narrowed(atomicLoad(&slot_values[local])));
            }
        } else if t < threads {
            let j = t + k * threads;
            if j < params.count {
                update = place_unit(group_index(j));
            }
        }
        combine_placed(update);
    }
}

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
// @narrow-end

// @double-word-begin
// 8-byte units where the device has 64-bit atomics: each update into its target by one
// atomic (reduce_output: integer Add, Min and Max by WGSL's own; every other reduction, Float64
// and integer Mul, by a compare-exchange loop on the 64-bit word), up to REDUCE_GROUP updates a
// thread (as scatter_reduce), a grid-stride apart. The compare-exchange reductions first
// combine a thread's consecutive updates aimed at one target (`WideUpdate`: one exchange for
// the lot where every update collides), then a workgroup's in workgroup memory:
// params.bins.units slots (at most WIDE_SLOTS), each taken by the first output unit that lands
// on it (the unit modulo the slots); onto an output of at most 8 times WIDE_SLOTS units a slot
// an output unit (a range of WIDE_SLOTS units a workgroup), so that no update misses, and
// BIN_GROUP updates a thread: a crowded target takes one global loop a workgroup. The native ones need no slots (the hardware serialises
// their atomics, and SHADER_INT64_ATOMIC_MIN_MAX alone has no 64-bit atomics in workgroup
// memory).

// @exchange-begin
var<workgroup> wide_slot_targets: array<atomic<u32>, WIDE_SLOTS>;
var<workgroup> wide_slot_values: array<atomic<WideWord>, WIDE_SLOTS>;

// The slots this dispatch uses.
fn wide_slots() -> u32 {
    return clamp(params.bins.units, 1u, WIDE_SLOTS);
}
// @exchange-end

// The ranges of WIDE_SLOTS output units a workgroup a chunk of updates takes (a slot an
// output unit): more than one where params.bins.units, then the output's units, passes the
// slots.
fn wide_ranges() -> u32 {
    return max(1u, (params.bins.units + WIDE_SLOTS - 1u) / WIDE_SLOTS);
}
// @exchange-begin

// wide_slot_values[slot] = wide_slot_values[slot] op value.
fn combine_in_wide_slot(slot: u32, value: vec2<u32>) {
    var old = atomicLoad(&wide_slot_values[slot]);
    loop {
        let current = wide_pair(old);
        let combined = combine_unit(current, value);
        if all(combined == current) {
            break;
        }
        let swapped = atomicCompareExchangeWeak(&wide_slot_values[slot], old, pair_wide(combined));
        if swapped.exchanged {
            break;
        }
        old = swapped.old_value;
    }
}

// Combines `value` into the workgroup's slot of output unit `element`, if the slot is free
// or already the element's (NO_TARGET, a valid element index too, never takes a slot).
fn combined_in_wide_slot(element: u32, value: vec2<u32>) -> bool {
    let slot = element % wide_slots();
    if element == NO_TARGET {
        return false;
    }
    loop {
        let claim = atomicCompareExchangeWeak(&wide_slot_targets[slot], NO_TARGET, element);
        if claim.exchanged || claim.old_value == element {
            combine_in_wide_slot(slot, value);
            return true;
        }
        if claim.old_value != NO_TARGET {
            break;
        }
    }
    return false;
}
// @exchange-end

// An update located: its output unit and value (`held`: there is one; none where its index
// is out of range, reported, or where another dispatch owns it).
struct WideUpdate {
    held: bool,
    element: u32,
    value: vec2<u32>,
}

// Onto an output of more than WIDE_SLOTS units, a slot an output unit a range at a time
// (wide_ranges): only updates of the range from `first` are located there, and the first
// range reports an index out of range.
fn locate_wide_update(i: u32, first: u32) -> WideUpdate {
    var update = WideUpdate(false, 0u, vec2<u32>(0u, 0u));
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return update;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        if first == 0u {
            report_out_of_range(i);
        }
        return update;
    }
    if wide_ranges() > 1u && at.indexed - first >= WIDE_SLOTS {
        return update;
    }
    if owns_output(at.indexed) {
        update = WideUpdate(true, at.indexed, load_updates(at.dense));
    }
    return update;
}

fn apply_wide_update(update: WideUpdate) {
    if !update.held {
        return;
    }
// @exchange-begin
    if combined_in_wide_slot(update.element, update.value) {
        return;
    }
// @exchange-end
    reduce_output(update.element, update.value);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_reduce_wide(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // No early return: every thread reaches the barriers (where there are slots).
// @exchange-begin
    for (var slot = local; slot < wide_slots(); slot += WORKGROUP_SIZE) {
        atomicStore(&wide_slot_targets[slot], NO_TARGET);
        atomicStore(&wide_slot_values[slot], pair_wide(WIDE_IDENTITY));
    }
    workgroupBarrier();
// @exchange-end
    // Workgroup w takes range w % ranges of chunk w / ranges (one range but onto outputs
    // of more than WIDE_SLOTS units a slot each).
    let w = workgroup_index(workgroup, workgroups);
    let chunk = w / wide_ranges();
    let first = (w % wide_ranges()) * WIDE_SLOTS;
    let t = chunk * WORKGROUP_SIZE + local;
    let threads = params.bins.threads;
    if t < threads {
        var pending = WideUpdate(false, 0u, vec2<u32>(0u, 0u));
        for (var k = 0u; k < min(params.bins.per_thread, BIN_GROUP); k += 1u) {
            let j = t + k * threads;
            if j < params.count {
                let update = locate_wide_update(group_index(j), first);
// @native-begin
                apply_wide_update(update);
// @native-end
// @exchange-begin
                if update.held && pending.held && update.element == pending.element {
                    pending.value = combine_unit(pending.value, update.value);
                } else if update.held {
                    apply_wide_update(pending);
                    pending = update;
                }
// @exchange-end
            }
        }
        apply_wide_update(pending);
    }
// @exchange-begin
    workgroupBarrier();
    for (var slot = local; slot < wide_slots(); slot += WORKGROUP_SIZE) {
        let claimed = atomicLoad(&wide_slot_targets[slot]);
        let value = wide_pair(atomicLoad(&wide_slot_values[slot]));
        if params.bins.partial_groups != 0u {
            // (Not a workgroup past the chunks, padding a grid split in two dimensions.)
            if first + slot < params.bins.units && chunk < params.bins.partial_groups {
                store_wide_partial(chunk, first + slot, claimed != NO_TARGET, value);
            }
        } else if claimed != NO_TARGET {
            reduce_output(claimed, value);
        }
    }
// @exchange-end
}

// @exchange-begin
// Onto a small output (params.bins.partial_groups workgroups, a slot an output unit), every
// workgroup of scatter_reduce_wide stores its slots (whether taken, and the value) to the
// heads' scratch, three words each, rather than exchanging them into the output: thousands
// of workgroups exchanging into the same few units wait on each other, where a workgroup a
// unit folding the partials in a tree waits on no one.
fn store_wide_partial(chunk: u32, unit: u32, taken: bool, value: vec2<u32>) {
    let at = 3u * (chunk * params.bins.units + unit);
    atomic_store_heads(at, select(0u, 1u, taken));
    atomic_store_heads(at + 1u, value.x);
    atomic_store_heads(at + 2u, value.y);
}

var<workgroup> wide_partial_taken: array<u32, WORKGROUP_SIZE>;
var<workgroup> wide_partial_values: array<vec2<u32>, WORKGROUP_SIZE>;

// A workgroup an output unit: each thread folds the partials of every WORKGROUP_SIZE-th
// workgroup, then the threads' results fold in a tree, and the unit takes the total (if any
// workgroup took it) by one exchange.
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_wide_partials(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let unit = workgroup_index(workgroup, workgroups);
    let units = params.bins.units;
    var taken = false;
    var value = vec2<u32>(0u, 0u);
    if unit < units {
        let groups = min(params.bins.partial_groups, WIDE_PARTIAL_GROUPS);
        for (var w = local; w < groups; w += WORKGROUP_SIZE) {
            let at = 3u * (w * units + unit);
            if atomic_load_heads(at) != 0u {
                let partial = vec2<u32>(atomic_load_heads(at + 1u), atomic_load_heads(at + 2u));
                if taken {
                    value = combine_unit(value, partial);
                } else {
                    value = partial;
                }
                taken = true;
            }
        }
    }
    wide_partial_taken[local] = select(0u, 1u, taken);
    wide_partial_values[local] = value;
    for (var stride = 1u; stride < WORKGROUP_SIZE; stride *= 2u) {
        workgroupBarrier();
        let other = local + stride;
        if local % (2u * stride) == 0u && other < WORKGROUP_SIZE && wide_partial_taken[other] != 0u {
            if wide_partial_taken[local] != 0u {
                wide_partial_values[local] = combine_unit(wide_partial_values[local], wide_partial_values[other]);
            } else {
                wide_partial_values[local] = wide_partial_values[other];
                wide_partial_taken[local] = 1u;
            }
        }
    }
    workgroupBarrier();
    if local == 0u && unit < units && wide_partial_taken[0] != 0u {
        reduce_output(unit, wide_partial_values[0]);
    }
}
// @exchange-end
// @double-word-end
