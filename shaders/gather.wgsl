// requires: common index_map
// Gather, GatherElements and GatherND: threads read the input elements their index tuples
// select. An out-of-range tuple reads nothing: its output is zero and the tuple is reported.

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    // Where tensors are split and only some windows bound, each element is handled by the
    // dispatch that owns its windows (see owns_tuple); elsewhere every check is true.
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_output(base.dense) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        store_output(at.dense, Unit());
        return;
    }
    if owns_input(at.indexed) {
        store_output(at.dense, load_input(at.indexed));
    }
}

// @word-begin
// 4-byte elements, GROUP neighbours along a row a thread: the row position is worked out
// once, the indices one by one.
const GROUP: u32 = 4u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_rows(
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
    var dense: array<u32, GROUP>;
    var values: array<u32, GROUP>;
    var bad = 0u;
    for (var e = 0u; e < GROUP; e += 1u) {
        let at = apply_index(step_inner(base, e));
        dense[e] = at.dense;
        if at.bad_component != IN_RANGE {
            bad |= 1u << e;
        } else {
            values[e] = load_input(at.indexed);
        }
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if (bad & (1u << e)) != 0u {
            report_out_of_range(first + e);
        }
        store_output(dense[e], values[e]);
    }
}

// 4-byte elements in blocks of WORKGROUP_SIZE * GROUP units a workgroup, unit
// e * WORKGROUP_SIZE + lane to thread `lane` (see scatter_blocks).
@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_blocks(
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
    var dense: array<u32, GROUP>;
    var values: array<u32, GROUP>;
    var bad = 0u;
    for (var e = 0u; e < GROUP; e += 1u) {
        let at = apply_index(step_inner(base, e * WORKGROUP_SIZE + local));
        dense[e] = at.dense;
        if at.bad_component != IN_RANGE {
            bad |= 1u << e;
        } else {
            values[e] = load_input(at.indexed);
        }
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if (bad & (1u << e)) != 0u {
            report_out_of_range(first + e * WORKGROUP_SIZE + local);
        }
        store_output(dense[e], values[e]);
    }
}
// @word-end

// @sub-word-begin
// 1- and 2-byte elements, a whole output word a thread (output rows contiguous and
// word-aligned): the word is assembled from its elements and stored once.
@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_words(
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
    // All loads first, the reports after (see gather_rows): a report is an atomic, which
    // keeps the loads behind it from being issued before it.
    var word = 0u;
    var bad = 0u;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        let at = apply_index(step_inner(base, e));
        if at.bad_component != IN_RANGE {
            bad |= 1u << e;
        } else {
            word |= load_input(at.indexed) << (e * ELEMENT_BITS);
        }
    }
    report_out_of_range_in(first, bad);
    store_output_word(base.dense / ELEMENTS_PER_WORD, word);
}

// 1- and 2-byte elements, output packed but its rows not whole words (odd row lengths): a
// whole output word a thread, its elements located one by one (a word may span two rows).
@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_spans(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    let first = t * ELEMENTS_PER_WORD;
    if first >= params.count {
        return;
    }
    let count = min(ELEMENTS_PER_WORD, params.count - first);
    let base = locate_base(first);
    let inner = first % size_at(RANK - 1u);
    var word = 0u;
    for (var e = 0u; e < count; e += 1u) {
        let at = apply_index(locate_along(base, inner, first, e));
        if at.bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            word |= load_input(at.indexed) << (e * ELEMENT_BITS);
        }
    }
    if count == ELEMENTS_PER_WORD {
        store_output_word(t, word);
    } else {
        // The tensor's last word: the bytes past its end are not the operator's.
        store_output_bits(t, ~(0xffffffffu << (count * ELEMENT_BITS)), word);
    }
}
// @sub-word-end
