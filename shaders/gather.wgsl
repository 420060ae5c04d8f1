// Gather, GatherElements and GatherND: one thread per output unit reads the input element
// its index tuple selects. An out-of-range tuple reads nothing: its output is zero and the
// tuple is reported.

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let i = invocation_index(workgroup, workgroups, local);
    if i >= params.count {
        return;
    }
    let at = locate(i);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        store_output(at.dense, Unit());
        return;
    }
    store_output(at.dense, load_input(at.indexed));
}

// @sub-word-begin
// 1- and 2-byte elements, a whole output word a thread (output rows contiguous and
// word-aligned): the word is assembled from its elements and stored once.
@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_words(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let i = invocation_index(workgroup, workgroups, local);
    if i >= params.count / ELEMENTS_PER_WORD {
        return;
    }
    let first = i * ELEMENTS_PER_WORD;
    var word = 0u;
    var dense = 0u;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        let at = locate(first + e);
        if e == 0u {
            dense = at.dense;
        }
        if at.bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            word |= load_input(at.indexed) << (e * ELEMENT_BITS);
        }
    }
    atomicStore(&output[dense / ELEMENTS_PER_WORD], word);
}
// @sub-word-end
