// requires: common
// A strided copy (Slice, Slice1, a scatter's output = input). For every coordinate c of `sizes`,
// output[output_base + c . output_strides] = input[input_base + c . input_strides],
// in units of the header's element (1, 2, 4, 8 or 16 bytes). Strides are two's-complement:
// wrapping u32 arithmetic reaches the right element for negative (reversed) strides.
//
// A thread copies COPY_GROUP neighbours along the innermost dimension: the outer
// coordinates are worked out once a thread, not once an element.

// Mirrors StridedCopyParams in src/kernels/params.rs (a test compares the two through naga).
struct StridedCopyParams {
    // Threads: rows (the product of the outer sizes) times row_groups.
    count: u32,
    rank: u32,
    input_base: u32,
    output_base: u32,
    // The innermost size, and the groups of COPY_GROUP units that cover it.
    inner: u32,
    row_groups: u32,
    // Units a thread of strided_copy_planes (1 up to COPY_GROUP).
    plane_group: u32,
    // Where nonzero, the unit after the copy's is copied too, only these bits of it
    // (copy_last_word).
    last_mask: u32,
    // Per dimension, 8 values as two vec4s (a uniform array's stride is 16 bytes).
    sizes: array<vec4<u32>, 2>,
    input_strides: array<vec4<u32>, 2>,
    output_strides: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<uniform> params: StridedCopyParams;

// RANK as a pipeline constant (`Parameters::pipeline_constants`): the driver unrolls
// row_start and reads each dimension's values from fixed places of the uniform block.
override RANK: u32;

// Whether params.last_mask may be nonzero (copy_last_word): a pipeline of its own, so that
// every other copy's kernels hold no check of it.
override MERGES_LAST_WORD: bool;

fn size_at(k: u32) -> u32 {
    return params.sizes[k >> 2u][k & 3u];
}

fn input_stride_at(k: u32) -> u32 {
    return params.input_strides[k >> 2u][k & 3u];
}

fn output_stride_at(k: u32) -> u32 {
    return params.output_strides[k >> 2u][k & 3u];
}

// The input and output elements where row `row` starts: its coordinates in every dimension
// but the innermost, worked out once a thread.
fn row_start(row: u32) -> vec2<u32> {
    var rest = row;
    var at = vec2<u32>(params.input_base, params.output_base);
    for (var d = RANK - 1u; d > 0u; d -= 1u) {
        let k = d - 1u;
        let size = size_at(k);
        let c = rest % size;
        rest = rest / size;
        at += c * vec2<u32>(input_stride_at(k), output_stride_at(k));
    }
    return at;
}

// A run of 1- or 2-byte elements whose byte length is not a whole number of words is copied
// as words, in one dispatch (not a wide body and a narrow tail, a barrier between them): the
// copy's units are its whole words, and the first thread also copies the word after them,
// where params.last_mask is nonzero. That word also holds bytes past the tensor, which keep
// their value: only the bits under last_mask are replaced. No other thread writes it, so a
// plain load and store merge it. Only in pipelines built with MERGES_LAST_WORD: a check on
// every store made a crop of the benchmark 2 % slower, a check once a thread about 1 %. The
// host takes strided_copy_blocks or strided_copy_planes for such a copy.
fn copy_last_word() {
    let input_unit = params.input_base + params.inner;
    let output_unit = params.output_base + params.inner;
    let mask = Unit(params.last_mask);
    let kept = load_output(output_unit) & ~mask;
    store_output(output_unit, (load_input(input_unit) & mask) | kept);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn strided_copy(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let row = t / params.row_groups;
    let first = (t - row * params.row_groups) * COPY_GROUP;
    let k = RANK - 1u;
    let input_step = input_stride_at(k);
    let output_step = output_stride_at(k);
    let start = row_start(row);
    let from_element = start.x + first * input_step;
    let to_element = start.y + first * output_step;
    // All loads first, then the stores: a load cannot move past a store the compiler
    // must assume may alias it, and loads in flight together hide each other's latency.
    // Loops of a constant count guarded by n: unrolled, with `values` in registers.
    let n = min(COPY_GROUP, params.inner - first);
    var values: array<Unit, COPY_GROUP>;
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        if e < n {
            values[e] = load_input(from_element + e * input_step);
        }
    }
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        // Always true unless tensors are split and only some windows bound: then the
        // dispatch that owns both elements' windows copies them.
        if e < n && owns_input(from_element + e * input_step)
            && owns_output(to_element + e * output_step) {
            store_output(to_element + e * output_step, values[e]);
        }
    }
}

// Rank 3 at most (padded to 3 by the host, sizes [A, B, C]) with rows too short for
// blocks: workgroups along x cover the B x C planes in blocks of WORKGROUP_SIZE * G units
// (G = params.plane_group), unit e * WORKGROUP_SIZE + lane of a block by thread `lane` (a
// warp's loads and stores touch neighbouring units, and each thread has G loads in flight:
// with one unit a thread the crop of an NCHW tensor ran at 68 % of an H100's copy roof;
// small copies take G = 1, for more workgroups), and y counts the A planes. A thread
// divides by C once; its next units are WORKGROUP_SIZE further on, a fixed step of rows and
// columns.
@compute @workgroup_size(WORKGROUP_SIZE)
fn strided_copy_planes(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let sizes = params.sizes[0];
    let plane = sizes[1] * sizes[2];
    // The host keeps the grid's units within u32.
    let group = min(params.plane_group, COPY_GROUP);
    let first = workgroup.x * (WORKGROUP_SIZE * group) + local;
    if MERGES_LAST_WORD && first == 0u && workgroup.y == 0u {
        copy_last_word();
    }
    if first >= plane {
        return;
    }
    let n = min(group, (plane - first - 1u) / WORKGROUP_SIZE + 1u);
    var b = first / sizes[2];
    var c = first - b * sizes[2];
    let step_rows = WORKGROUP_SIZE / sizes[2];
    let step_columns = WORKGROUP_SIZE - step_rows * sizes[2];
    let a = workgroup.y;
    let input_strides = params.input_strides[0];
    let output_strides = params.output_strides[0];
    let input_plane = params.input_base + a * input_strides[0];
    let output_plane = params.output_base + a * output_strides[0];
    // Loops of a constant count (unrolled, the arrays kept in registers), guarded by n.
    var to_elements: array<u32, COPY_GROUP>;
    var values: array<Unit, COPY_GROUP>;
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        if e < n {
            values[e] = load_input(input_plane + b * input_strides[1] + c * input_strides[2]);
            to_elements[e] = output_plane + b * output_strides[1] + c * output_strides[2];
            c += step_columns;
            b += step_rows;
            if c >= sizes[2] {
                c -= sizes[2];
                b += 1u;
            }
        }
    }
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        if e < n {
            store_output(to_elements[e], values[e]);
        }
    }
}

// Rows a whole number of blocks of WORKGROUP_SIZE * COPY_GROUP units: a workgroup copies a
// block, unit e * WORKGROUP_SIZE + lane of it by thread `lane`, so that every load and
// store instruction of a warp touches neighbouring units. row_groups counts blocks here.
@compute @workgroup_size(WORKGROUP_SIZE)
fn strided_copy_blocks(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if MERGES_LAST_WORD && t == 0u {
        copy_last_word();
    }
    if t >= params.count {
        return;
    }
    let block = t / WORKGROUP_SIZE;
    let row = block / params.row_groups;
    let first = (block - row * params.row_groups) * (WORKGROUP_SIZE * COPY_GROUP) + local;
    let k = RANK - 1u;
    let input_step = input_stride_at(k);
    let output_step = output_stride_at(k);
    let start = row_start(row);
    let from_element = start.x + first * input_step;
    let to_element = start.y + first * output_step;
    var values: array<Unit, COPY_GROUP>;
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        values[e] = load_input(from_element + e * WORKGROUP_SIZE * input_step);
    }
    for (var e = 0u; e < COPY_GROUP; e += 1u) {
        store_output(to_element + e * WORKGROUP_SIZE * output_step, values[e]);
    }
}
