// Slice and Slice1: a strided copy. For every coordinate c of `sizes`,
// output[output_base + c . output_strides] = input[input_base + c . input_strides],
// in units of the header's element (1, 2, 4, 8 or 16 bytes). Strides are two's-complement:
// wrapping u32 arithmetic reaches the right element for negative (reversed) strides.

struct Params {
    count: u32,
    rank: u32,
    input_base: u32,
    output_base: u32,
    sizes: array<vec4<u32>, 2>,
    input_strides: array<vec4<u32>, 2>,
    output_strides: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(WORKGROUP_SIZE)
fn strided_copy(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let i = invocation_index(workgroup, workgroups, local);
    if i >= params.count {
        return;
    }
    var rest = i;
    var from_element = params.input_base;
    var to_element = params.output_base;
    for (var d = params.rank; d > 0u; d -= 1u) {
        let k = d - 1u;
        let size = params.sizes[k >> 2u][k & 3u];
        let c = rest % size;
        rest = rest / size;
        from_element += c * params.input_strides[k >> 2u][k & 3u];
        to_element += c * params.output_strides[k >> 2u][k & 3u];
    }
    store_output(to_element, load_input(from_element));
}
