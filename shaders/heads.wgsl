// requires: common index_map
// The scatter reductions' heads (the float ties' claims, the in-order reductions' run and
// list heads and pass counts) zeroed before their first pass, a word a thread, inside the
// compute pass: a clear command and the barrier after it cost more on NVIDIA's driver, and
// its fill runs at a copy command's speed (about 0.85 TB/s on an H100, against 2.9 for a
// kernel).
@compute @workgroup_size(WORKGROUP_SIZE)
fn clear_heads(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = invocation_index(workgroup, workgroups, local);
    if w < params.count && owns_heads(w) {
        atomic_store_heads(w, 0u);
    }
}
