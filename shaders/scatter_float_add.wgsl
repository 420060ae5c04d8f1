// requires: common index_map
// Float32 Add in any order by the device's float atomics (wgpu's SHADER_FLOAT32_ATOMIC,
// ReduceOrder::FloatAtomics): an update, one atomicAdd on its target, no compare-exchange.
//
// The device's atomic add may flush subnormal operands and results to zero and give NaNs
// other bits, so it takes only values safe for it (needs_exact_add: zeros, and finite
// numbers of at least 2^-102 in magnitude) onto outputs that hold only such values. Those
// are multiples of 2^-125, and so is every sum of them and its rounding: each step's exact
// sum is zero or at least 2^-125 in magnitude, a normal number, and the device's correctly
// rounded (nearest even) sum is the IEEE bits combine_unit gives. The status word SCREENED
// says what is left to the compare-exchange kernel after these (ReduceOrder::Screened,
// scatter_reduce gated on it): SCREENED_UPDATES, the updates refused here, added after all
// the others (an order of the updates as good as any); SCREENED_ALL, every update, where
// screen_float_add found an output value that is not safe, and these added nothing (both
// constants src/status.rs declares).

// Output unit t's bits before the atomics: out of place in the copying variant
// (Kernel::copying), read from the input and stored (`output = input`: the copy's own
// dispatch spared); else read from the output the copy left.
// @copy-input-begin
fn screen_load_bits(t: u32) -> u32 {
    return load_input(t);
}

fn screen_store_bits(t: u32, bits: u32) {
    store_output_bits(t, bits);
}
// @copy-input-end
// @reads-output-begin
fn screen_load_bits(t: u32) -> u32 {
    return load_output_bits(t);
}

fn screen_store_bits(t: u32, bits: u32) {
    // The output already holds the bits.
}
// @reads-output-end

// CLEAR_WORDS output units a thread (of params.bins.units, the output's span), a workgroup's
// width apart, their loads in flight together (all read before any is stored or tested).
@compute @workgroup_size(WORKGROUP_SIZE)
fn screen_float_add(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let first = workgroup_index(workgroup, workgroups) * CLEAR_WORDS * WORKGROUP_SIZE + local;
    var bits: array<u32, CLEAR_WORDS>;
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let t = first + k * WORKGROUP_SIZE;
        if t < params.bins.units && owns_output(t) {
            bits[k] = screen_load_bits(t);
        }
    }
    var found = false;
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let t = first + k * WORKGROUP_SIZE;
        if t < params.bins.units && owns_output(t) {
            screen_store_bits(t, bits[k]);
            found = found || needs_exact_add(bits[k]);
        }
    }
    // The word read first: an output full of such values stores it once a few threads, not
    // once a thread.
    if found && atomic_load_status(SCREENED) != SCREENED_ALL {
        atomic_store_status(SCREENED, SCREENED_ALL);
    }
}

// Up to params.bins.per_thread updates a thread (at most REDUCE_GROUP), a grid-stride apart,
// each safe one added to its target by one atomicAdd; nothing where the screen refused the
// output.
var<workgroup> screen_status: u32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_add_float_atomics(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    // The screen's word read once a workgroup, not once a thread (all of a grid's loads of
    // one word wait on one place in the cache).
    if local == 0u {
        screen_status = atomic_load_status(SCREENED);
    }
    if workgroupUniformLoad(&screen_status) == SCREENED_ALL {
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
        if !owns_output(at.indexed) {
            continue;
        }
        let value = load_updates(at.dense);
        if needs_exact_add(value) {
            // Left to the compare-exchange kernel (the word read first, as in the screen;
            // atomicMax never lowers SCREENED_ALL, though no thread gets here after it).
            if atomic_load_status(SCREENED) == 0u {
                atomic_max_status(SCREENED, SCREENED_UPDATES);
            }
        } else {
            add_output(at.indexed, bitcast<f32>(value));
        }
    }
}
