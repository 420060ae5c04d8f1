// requires: common index_map arithmetic units wide scatter_reduce partials
// Scatter reductions of 8-byte units in any order (ReduceOrder::Any and AnyWithPartials),
// where the device has 64-bit atomics: `scatter_reduce_wide` and, onto a small output, the
// partials' fold (shaders/partials.wgsl; NO_TARGET is shaders/scatter_reduce.wgsl's).

// @double-word-begin
// 8-byte units where the device has 64-bit atomics: each update into its target by one
// atomic (reduce_output: integer Add, Min and Max by WGSL's own; every other reduction, Float64
// and integer Mul, by a compare-exchange loop on the 64-bit word), params.bins.per_thread
// updates a thread (the host's choice, at most BIN_GROUP), a grid-stride apart. The
// compare-exchange reductions first combine a thread's consecutive updates aimed at one
// target (`WideUpdate`: one exchange for the lot where every update collides), then a
// workgroup's in workgroup memory: params.bins.units slots (at most WIDE_SLOTS), each taken
// by the first output unit that lands on it (the unit modulo the slots); onto an output of at
// most 8 times WIDE_SLOTS units a slot an output unit (a range of WIDE_SLOTS units a
// workgroup), so that no update misses, and up to BIN_GROUP updates a thread: a crowded
// target takes one global loop a workgroup. The native ones need no slots (the hardware
// serialises their atomics, and SHADER_INT64_ATOMIC_MIN_MAX alone has no 64-bit atomics in
// workgroup memory).

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
                store_partial(chunk, first + slot, claimed != NO_TARGET, value);
            }
        } else if claimed != NO_TARGET {
            reduce_output(claimed, value);
        }
    }
// @exchange-end
}

// @double-word-end
