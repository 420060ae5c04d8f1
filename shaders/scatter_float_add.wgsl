// requires: common index_map heads
// Float32 Add in any order by the device's float atomics (wgpu's SHADER_FLOAT32_ATOMIC,
// ReduceOrder::FloatAtomics): an update, one atomicAdd on its target, no compare-exchange.
//
// The device's atomic add may flush subnormal operands and results to zero and give NaNs
// other bits, so it runs only where screen_float_add finds every update and every output
// value (before the scatter) zero or finite and at least 2^-102 in magnitude. Such numbers
// are multiples of 2^-125, and so is every sum of them and its rounding: each step's exact
// sum is zero or at least 2^-125 in magnitude, a normal number, and the device's correctly
// rounded (nearest even) sum is the IEEE bits combine_unit gives. Otherwise the
// compare-exchange kernel (ReduceOrder::Screened: scatter_reduce gated on the same heads word)
// reduces instead, and this one returns at once. The screen's word is the heads' word
// SCREEN_WORD (a constant of the reductions' prelude), cleared by clear_heads before it.

fn needs_exact_add(bits: u32) -> bool {
    let exponent = (bits >> 23u) & 0xffu;
    return exponent == 0xffu || ((bits & 0x7fffffffu) != 0u && exponent < 25u);
}

// Thread t screens update t (of params.count) and output unit t (of params.bins.units, the
// output's span): any value the device's add might get wrong raises the screen word.
@compute @workgroup_size(WORKGROUP_SIZE)
fn screen_float_add(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    var exact = false;
    if t < params.count {
        let base = locate_base(t);
        exact = owns_updates(base.dense) && needs_exact_add(load_updates(base.dense));
    }
    if t < params.bins.units && owns_output(t) {
        exact = exact || needs_exact_add(load_output_bits(t));
    }
    if exact {
        atomic_store_heads(SCREEN_WORD, 1u);
    }
}

// Up to REDUCE_GROUP updates a thread (params.bins.per_thread), a grid-stride apart, each
// added to its target by one atomicAdd; nothing where the screen word is raised.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_add_float_atomics(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if atomic_load_heads(SCREEN_WORD) != 0u {
        return;
    }
    let t = invocation_index(workgroup, workgroups, local);
    let threads = params.bins.threads;
    if t >= threads {
        return;
    }
    let steps = min(params.bins.per_thread, REDUCE_GROUP);
    for (var k = 0u; k < steps; k += 1u) {
        let j = t + k * threads;
        if j >= params.count {
            return;
        }
        let i = group_index(j);
        let base = locate_base(i);
        if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
            continue;
        }
        let at = apply_index(base);
        if at.bad_component != IN_RANGE {
            report_out_of_range(i);
            continue;
        }
        if owns_output(at.indexed) {
            add_output(at.indexed, bitcast<f32>(load_updates(at.dense)));
        }
    }
}
