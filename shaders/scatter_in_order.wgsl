// requires: common index_map
// ScatterElements and ScatterND in DuplicateMode::InOrder: two passes, so that each output
// element ends equal to the last update aimed at it in the updates' row-major order.

// Before pass 1: the winners zeroed (0: no update yet) inside the compute pass, CLEAR_WORDS
// words a thread, a workgroup's width apart (a clear command and the barrier after it cost
// more on NVIDIA's driver).
@compute @workgroup_size(WORKGROUP_SIZE)
fn clear_winners(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    zero_winners(workgroup_index(workgroup, workgroups), local, params.count);
}

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
