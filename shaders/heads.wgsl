// requires: common index_map
// The scatter reductions' heads (the float ties' claims, the in-order reductions' run and
// list heads and pass counts) zeroed before their first pass inside the compute pass,
// CLEAR_WORDS words a thread, a workgroup's width apart: a clear command and the barrier
// after it cost more on NVIDIA's driver.
@compute @workgroup_size(WORKGROUP_SIZE)
fn clear_heads(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    zero_heads(workgroup_index(workgroup, workgroups), local, params.count);
}
