// Helpers shared by every kernel. The registry (src/kernels/) prepends a header that
// defines WORKGROUP_SIZE, the element unit and the buffer bindings with their accessors.

// The flat invocation index of a dispatch folded into 2-D or 3-D past 65535 workgroups.
// Workgroups past the last whole one that fits u32 get 0xffffffff, which every kernel's
// `i >= count` guard rejects (the host keeps count + WORKGROUP_SIZE within u32).
fn invocation_index(workgroup: vec3<u32>, workgroups: vec3<u32>, local: u32) -> u32 {
    let group = workgroup_index(workgroup, workgroups);
    if group >= 0xffffffffu / WORKGROUP_SIZE {
        return 0xffffffffu;
    }
    return group * WORKGROUP_SIZE + local;
}

// The flat workgroup index of a dispatch folded into 2-D or 3-D (kernels that take a
// workgroup per tile or run).
fn workgroup_index(workgroup: vec3<u32>, workgroups: vec3<u32>) -> u32 {
    return (workgroup.z * workgroups.y + workgroup.y) * workgroups.x + workgroup.x;
}

// Whether the device's f32 atomic add may get a step with this f32 operand wrong (a NaN, an
// infinity, a subnormal, or a number under 2^-102 in magnitude: see
// shaders/scatter_float_add.wgsl): such values take the compare-exchange path.
fn needs_exact_add(bits: u32) -> bool {
    let exponent = (bits >> 23u) & 0xffu;
    return exponent == 0xffu || ((bits & 0x7fffffffu) != 0u && exponent < 25u);
}
