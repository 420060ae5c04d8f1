// requires: common index_map arithmetic units partials
// A scatter reduction in any order onto an output of at most BIN_CAPACITY units (a
// histogram, a few segments; by compare-exchange up to 8 times that, by the integers' own
// atomics twice that, a range of BIN_CAPACITY a workgroup): each workgroup combines its updates into bins of its own in workgroup memory,
// one a unit of the output (or of its range), then combines each bin that took updates into
// the output once, or leaves them as partials (shaders/partials.wgsl). A target takes one global operation a workgroup, whatever the number
// of updates aimed at it, so a histogram costs about a read of its updates and indices.
//
// A thread takes params.bins.per_thread updates (at most BIN_GROUP, a bound the library
// sets), a grid-stride apart, so that each load instruction of a warp reads neighbours.

// @narrow-begin
var<workgroup> bins: array<atomic<ReduceWord>, BIN_CAPACITY>;

// bins[b] = bins[b] op value.
fn combine_in_bin(b: u32, value: u32) {
// @native-begin
    // Integer Add wraps in 32 bits, which the unit's low bits keep exactly.
    let wide = widened(value);
    if REDUCTION == ADD {
        atomicAdd(&bins[b], wide);
    } else if REDUCTION == MIN {
        atomicMin(&bins[b], wide);
    } else {
        atomicMax(&bins[b], wide);
    }
// @native-end
// @exchange-begin
    var old = narrowed(atomicLoad(&bins[b]));
    loop {
        let combined = combine_unit(old, value);
        if combined == old {
            break;
        }
        let swapped = atomicCompareExchangeWeak(&bins[b], widened(old), widened(combined));
        if swapped.exchanged {
            break;
        }
        old = narrowed(swapped.old_value);
    }
// @exchange-end
}

// @float-begin
// Float Add and Mul quiet a NaN target even with the identity: a bin's identity value does
// not tell whether it took updates, so floats flag the bins that did.
var<workgroup> touched: array<atomic<u32>, BIN_CAPACITY / 32u>;
// @float-end

// An update located: its output unit and value (`held`: there is one; none where its index
// is out of range, reported, or where another dispatch owns it).
struct Binned {
    held: bool,
    unit: u32,
    value: u32,
}

// Update unit i located, if it lands in the bins' range of units from `first` (the first
// range reports an index out of range).
fn locate_binned(i: u32, first: u32) -> Binned {
    var update = Binned(false, 0u, 0u);
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
    if at.indexed - first < BIN_CAPACITY && owns_output(at.indexed) {
        update = Binned(true, at.indexed - first, load_updates(at.dense));
        // @ties-begin
        claim_placed_tie(params.bins.claims, i, at.indexed, update.value);
        // @ties-end
    }
    return update;
}

// Combines a located update into its bin.
fn bin_update(update: Binned) {
    if !update.held {
        return;
    }
    combine_in_bin(update.unit, update.value);
// @float-begin
    atomicOr(&touched[update.unit / 32u], 1u << (update.unit % 32u));
// @float-end
}

// Whether bin b took updates whose combination may change its target.
fn bin_taken(b: u32, value: u32) -> bool {
// @float-begin
    return (atomicLoad(&touched[b / 32u]) & (1u << (b % 32u))) != 0u;
// @float-end
// @integer-begin
    // Integers: combining the identity leaves every value alone.
    return value != IDENTITY;
// @integer-end
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_reduce_bins(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // No early return: every thread reaches the barriers.
    for (var b = local; b < BIN_CAPACITY; b += WORKGROUP_SIZE) {
        atomicStore(&bins[b], widened(IDENTITY));
    }
// @float-begin
    for (var w = local; w < BIN_CAPACITY / 32u; w += WORKGROUP_SIZE) {
        atomicStore(&touched[w], 0u);
    }
// @float-end
    workgroupBarrier();
    // Outputs of more than BIN_CAPACITY units (with partials) are binned a range at a time:
    // workgroup w takes range w % ranges of the updates of chunk w / ranges, reading the
    // chunk's indices once a range (two to eight) and its values once.
    let w = workgroup_index(workgroup, workgroups);
    let ranges = max(1u, (params.bins.units + BIN_CAPACITY - 1u) / BIN_CAPACITY);
    let chunk = w / ranges;
    let first = (w % ranges) * BIN_CAPACITY;
    let t = chunk * WORKGROUP_SIZE + local;
    if t < params.bins.threads {
        // Compare-exchange reductions combine a thread's consecutive updates of one unit
        // first: onto one target, a thread's updates take one exchange of its bin, not
        // dozens of them all waiting on each other (4 Mi Float32 updates onto one
        // target: 5 ms on an H100 that way).
        var pending = Binned(false, 0u, 0u);
        for (var k = 0u; k < BIN_GROUP; k += 1u) {
            let j = t + k * params.bins.threads;
            if k >= params.bins.per_thread || j >= params.count {
                break;
            }
            let update = locate_binned(group_index(j), first);
// @native-begin
            bin_update(update);
// @native-end
// @exchange-begin
            if update.held && pending.held && update.unit == pending.unit {
                pending.value = combine_unit(pending.value, update.value);
            } else if update.held {
                bin_update(pending);
                pending = update;
            }
// @exchange-end
        }
        bin_update(pending);
    }
    workgroupBarrier();
    for (var b = local; b < BIN_CAPACITY; b += WORKGROUP_SIZE) {
        let unit = first + b;
        if unit < params.bins.units && owns_output(unit) {
            let value = narrowed(atomicLoad(&bins[b]));
            let taken = bin_taken(b, value);
// @partials-begin
            // (A workgroup past the chunks, padding a grid split in two dimensions, holds
            // nothing and stores nothing.)
            if chunk < params.bins.partial_groups {
                store_partial(chunk, unit, taken, value);
            }
            continue;
// @partials-end
            if taken {
                reduce_output(unit, value);
            }
        }
    }
}

// @narrow-end
