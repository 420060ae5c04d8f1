// requires: common index_map arithmetic units wide
// Scatter reductions in any order (ReduceOrder::Any; ReduceOrder::Screened, after the f32
// atomics of shaders/scatter_float_add.wgsl: the screened section), and float Min and Max in
// order without lists (ReduceOrder::FirstTie: the ties section); 8-byte units in
// shaders/scatter_reduce_wide.wgsl.

// A slot no output unit has taken (the last unit, 0xffffffff, never takes one: it goes
// straight to the output); shared by the narrow and the 8-byte slots
// (shaders/scatter_reduce_wide.wgsl).
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
    if SIGN_ATOMICS_ON && sign_atomics && on_atomic_side(update.value) {
        if update.place == TO_SLOT {
            atomicMax(&slot_values[update.at], bitcast<ReduceWord>(update.value));
        } else {
            max_output_word(update.at, update.value);
        }
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
    // @ties-begin
    claim_placed_tie(params.bins.claims, i, at.indexed, value);
    // @ties-end
    if SIGN_ATOMICS_ON && (refused_nans_only || sign_atomics) {
        let replaceable = is_replaceable_nan(value);
        if replaceable && sign_atomics {
            atomic_max_status(SCREENED, SCREENED_UPDATES);
        }
        if replaceable == sign_atomics {
            return nowhere;
        }
    }
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

// Float32 Min and Max (SIGN_ATOMICS_ON): an update on the reduction's side of the sign (Max:
// positive, Min: negative; neither a zero nor a NaN) goes by one atomicMax on its word, no load
// and no loop: positive floats order as their bits read as i32 words (Max's words), negative
// ones as u32 words (Min's), and every other value (the other side, both zeros, the NaNs that
// stay) lies below them, or above for the NaNs a Max or Min keeps. Only a NaN of the side's
// own sign would be replaced, where a NaN must stay: screen_output first raises the status word
// SCREENED to SCREENED_ALL where the output holds one (and every update then takes the loop),
// and the fast pass (params.bins.sign_atomics == SIGN_ATOMICS_PASS) leaves such NaN updates
// to a pass after it (REFUSED_NANS_PASS, which returns at once unless the fast pass raised
// SCREENED to SCREENED_UPDATES). Other reductions, and the bins, take the loop.
// The passes' pipelines have SIGN_ATOMICS_ON (a pipeline constant, set where
// params.bins.sign_atomics is not 0: only Float32 Min and Max's): the kernel's other
// pipelines carry none of this path.
override SIGN_ATOMICS_ON: bool = false;
const SIGN_ATOMICS_PASS: u32 = 1u;
const REFUSED_NANS_PASS: u32 = 2u;
var<workgroup> sign_status: u32;
// This workgroup's pass: its side's updates by atomicMax, NaNs of that side refused; or only
// those NaNs, by the loop.
var<private> sign_atomics: bool;
var<private> refused_nans_only: bool;

fn on_atomic_side(bits: u32) -> bool {
    if REDUCTION == MAX {
        return bits - 1u < 0x7f800000u;
    }
    return bits - 0x80000001u < 0x7f800000u;
}

fn is_replaceable_nan(bits: u32) -> bool {
    return (bits & 0x7fffffffu) > 0x7f800000u && (bits >= 0x80000000u) == (REDUCTION == MAX);
}

// Before the reduction, out of place in the copying variant (Kernel::copying): output unit
// u's value read from the input, and stored (`output = input`: the copy's own dispatch
// spared); else read from the output the copy left.
// @copy-input-begin
fn screened_load(u: u32) -> u32 {
    return load_input(u);
}

fn store_screened(u: u32, value: u32) {
    store_output(u, value);
}
// @copy-input-end
// @reads-output-begin
fn screened_load(u: u32) -> u32 {
    return load_output(u);
}

fn store_screened(u: u32, value: u32) {
    // The output already holds the value.
}
// @reads-output-end

// Before the reduction, CLEAR_WORDS output units a thread (of params.bins.units, the output's
// span), a workgroup's width apart, their loads in flight together (all loaded before any is
// stored): where the updates claim ties as they are placed (params.bins.claims), each unit's
// heads word the input's claim where the input is of a tie class (position 0: the top of the
// class), else 0, in place of clearing the heads; where Float32 Min and Max take the sign
// atomics (params.bins.sign_atomics), a screen for a NaN they would replace (the status word
// read first, as screen_float_add's).
@compute @workgroup_size(WORKGROUP_SIZE)
fn screen_output(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let first = workgroup_index(workgroup, workgroups) * CLEAR_WORDS * WORKGROUP_SIZE + local;
    var values: array<u32, CLEAR_WORDS>;
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let u = first + k * WORKGROUP_SIZE;
        if u < params.bins.units && owns_output(u) {
            values[k] = screened_load(u);
        }
    }
    var found = false;
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let u = first + k * WORKGROUP_SIZE;
        if u < params.bins.units && owns_output(u) {
            let value = values[k];
            store_screened(u, value);
            // @ties-begin
            if params.bins.claims != 0u {
                let kind = tie_class(value);
                atomic_store_heads(u, select(tie_rank(kind, 0u), 0u, kind == NO_TIE));
            }
            // @ties-end
            if params.bins.sign_atomics != 0u && is_replaceable_nan(value) {
                found = true;
            }
        }
    }
    if found && atomic_load_status(SCREENED) != SCREENED_ALL {
        atomic_store_status(SCREENED, SCREENED_ALL);
    }
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
    // Float32 Min and Max's passes: a uniform return too (see sign_atomics).
    if SIGN_ATOMICS_ON && params.bins.sign_atomics != 0u {
        if local == 0u {
            sign_status = atomic_load_status(SCREENED);
        }
        let status = workgroupUniformLoad(&sign_status);
        refused_nans_only = params.bins.sign_atomics == REFUSED_NANS_PASS;
        if refused_nans_only && status != SCREENED_UPDATES {
            return;
        }
        sign_atomics = params.bins.sign_atomics == SIGN_ATOMICS_PASS && status != SCREENED_ALL;
    }
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
// current value stays), so each target's first zero and first NaN are claimed in the heads
// (the NaN class ranks above, earlier positions above later ones; the input is position 0,
// update unit i position i + 1), and after the pass the first of the class a target ended
// in stores its bits. Two ways, by the host's choice (params.bins.claims): where the
// updates are fewer than the output's units, claim_ties before scatter_reduce claims for
// the updates whose class the input does not hold already, and write_ties after it lets the
// claiming update store its bits (other updates only read their value: one coalesced load
// each); else screen_output claims for the inputs (in place of clearing the heads), the
// updates claim as scatter_reduce places them, and write_unit_ties
// (shaders/scatter_slices.wgsl) goes over the output's units. (The classes and ranks:
// shaders/units.wgsl.)

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
    atomic_max_heads(update.at.indexed, tie_rank(update.kind, i + 1u));
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
    if update.kind == NO_TIE
        || atomic_load_heads(update.at.indexed) != tie_rank(update.kind, i + 1u) {
        return;
    }
    if tie_class(load_output(update.at.indexed)) == update.kind {
        store_output(update.at.indexed, update.value);
    }
}

// @ties-end
// @narrow-end
