// requires: common index_map units
// The partials of the any-order reductions onto a small output: the workgroups of the bins
// (units of at most 4 bytes, shaders/scatter_bins.wgsl) and of the 8-byte slots
// (shaders/scatter_reduce_wide.wgsl), at most WIDE_PARTIAL_GROUPS (params.bins.partial_groups),
// each store their bins or slots (whether taken, and the value) to the heads' scratch rather
// than exchanging them into the output: hundreds of workgroups exchanging into the same few
// units wait on each other (4 Mi Float32 updates onto 1000 targets: 1.2 ms on an H100 that
// way), where the threads of fold_partials folding a unit's partials in a tree wait on no one.

// @partials-begin
// A partial in the heads: whether taken, then the unit's words (one, or a (low, high) pair).
// @narrow-begin
const PARTIAL_WORDS: u32 = 2u;

fn store_partial_value(at: u32, value: Unit) {
    atomic_store_heads(at, value);
}

fn load_partial_value(at: u32) -> Unit {
    return atomic_load_heads(at);
}
// @narrow-end
// @double-word-begin
const PARTIAL_WORDS: u32 = 3u;

fn store_partial_value(at: u32, value: Unit) {
    atomic_store_heads(at, value.x);
    atomic_store_heads(at + 1u, value.y);
}

fn load_partial_value(at: u32) -> Unit {
    return Unit(atomic_load_heads(at), atomic_load_heads(at + 1u));
}
// @double-word-end

fn store_partial(chunk: u32, unit: u32, taken: bool, value: Unit) {
    let at = PARTIAL_WORDS * (chunk * params.bins.units + unit);
    atomic_store_heads(at, select(0u, 1u, taken));
    store_partial_value(at + 1u, value);
}

var<workgroup> partial_taken: array<u32, WORKGROUP_SIZE>;
var<workgroup> partial_values: array<Unit, WORKGROUP_SIZE>;

// params.bins.fold_units output units a workgroup, each folded by WORKGROUP_SIZE /
// fold_units threads (`slices`; their product at most WORKGROUP_SIZE): each thread folds the
// partials of every slices-th workgroup, then a unit's threads fold theirs in a tree, and the
// unit takes the total (if any workgroup took it) by one exchange. Onto a few units, a
// workgroup a unit (the partials of one unit in parallel); onto thousands, 16 threads a unit,
// so that a warp's loads read neighbouring units (4 Mi Float64 updates onto 4096 units: 0.232
// ms on an H200 a workgroup a unit, 62 us of it this fold's scattered loads; 0.196 ms so).
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_partials(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let fold_units = params.bins.fold_units;
    let slices = WORKGROUP_SIZE / fold_units;
    let slice = local / fold_units;
    let unit = workgroup_index(workgroup, workgroups) * fold_units + local % fold_units;
    let units = params.bins.units;
    var taken = false;
    var value = Unit();
    if unit < units && slice < slices {
        let groups = min(params.bins.partial_groups, WIDE_PARTIAL_GROUPS);
        for (var w = slice; w < groups; w += slices) {
            let at = PARTIAL_WORDS * (w * units + unit);
            if atomic_load_heads(at) != 0u {
                let partial = load_partial_value(at + 1u);
                if taken {
                    value = combine_unit(value, partial);
                } else {
                    value = partial;
                }
                taken = true;
            }
        }
    }
    partial_taken[local] = select(0u, 1u, taken);
    partial_values[local] = value;
    for (var stride = 1u; stride < slices; stride *= 2u) {
        workgroupBarrier();
        let other = local + stride * fold_units;
        if slice % (2u * stride) == 0u && slice + stride < slices && partial_taken[other] != 0u {
            if partial_taken[local] != 0u {
                partial_values[local] = combine_unit(partial_values[local], partial_values[other]);
            } else {
                partial_values[local] = partial_values[other];
                partial_taken[local] = 1u;
            }
        }
    }
    workgroupBarrier();
    if slice == 0u && unit < units && partial_taken[local] != 0u {
        reduce_output(unit, partial_values[local]);
    }
}
// @partials-end
