// requires: common index_map arithmetic units
// A scatter reduction in any order onto an output of at most BIN_CAPACITY units (a
// histogram, a few segments): each workgroup combines its updates into bins of its own in
// workgroup memory, one a unit of the whole output, then combines each bin that took updates
// into the output once. A target takes one global operation a workgroup, whatever the number
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

// Combines update unit i into its bin, or reports its index.
fn bin_unit(i: u32) {
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
    combine_in_bin(at.indexed, load_updates(at.dense));
// @float-begin
    atomicOr(&touched[at.indexed / 32u], 1u << (at.indexed % 32u));
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
    let t = invocation_index(workgroup, workgroups, local);
    if t < params.bins.threads {
        for (var k = 0u; k < BIN_GROUP; k += 1u) {
            let j = t + k * params.bins.threads;
            if k >= params.bins.per_thread || j >= params.count {
                break;
            }
            bin_unit(group_index(j));
        }
    }
    workgroupBarrier();
    for (var b = local; b < BIN_CAPACITY; b += WORKGROUP_SIZE) {
        if b < params.bins.units && owns_output(b) {
            let value = narrowed(atomicLoad(&bins[b]));
            if bin_taken(b, value) {
                reduce_output(b, value);
            }
        }
    }
}
// @narrow-end
