// requires: common index_map arithmetic sort scatter_slices units
// The folds of the in-order scatter reductions, after the sort (shaders/sort.wgsl): each
// key's run of sorted updates folded into its target, in order (slices into blocks:
// shaders/scatter_slice_runs.wgsl, which shares the lists of runs that go on); where the
// sort serves the default mode (FOLD_IN_ANY_ORDER), a long run grouped across a workgroup.
//
// No invocation folds more than FOLD_STEPS updates in one dispatch: Mesa's llvmpipe and
// lavapipe silently end an invocation's loops after 65535 iterations in all (counted per
// SIMD vector of up to 16 invocations), and any GPU's watchdog ends a dispatch that runs for
// seconds. A run longer than one dispatch folds is folded over several: each pass starts from
// the output, where the last one left the partial result, and the runs that go on are listed
// for the next pass (lists by pass parity in links, their counts in heads).

// The list of runs pass `fold_pass` folds (params.in_order.fold_capacity entries each, two by parity), and
// where its count lies in heads.
fn fold_list_at(fold_pass: u32) -> u32 {
    return block_sums_at() + scan_blocks() + (fold_pass & 1u) * params.in_order.fold_capacity;
}

fn fold_count_at(fold_pass: u32) -> u32 {
    return 2u * params.in_order.sort_units + fold_pass;
}

// Lists `key` (a target, or a block) for pass `fold_pass`.
fn list_for_pass(fold_pass: u32, key: u32) {
    let entry = atomic_add_heads(fold_count_at(fold_pass), 1u);
    atomic_store_links(fold_list_at(fold_pass) + entry, key);
}

// After the last pass: each key's run [start, end) of the sorted pairs, start stored plus
// one (0: none); element by element, each update's value gathered in the runs' order.
@compute @workgroup_size(WORKGROUP_SIZE)
fn find_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let j = invocation_index(workgroup, workgroups, local);
    describe_status_here(j);
    if j >= params.in_order.sort_count {
        return;
    }
    let keys = keys_at(source_array());
    let key = atomic_load_links(keys + j);
    if key >= params.in_order.sort_units {
        return;
    }
    if j == 0u || atomic_load_links(keys + j - 1u) != key {
        atomic_store_heads(key, j + 1u);
    }
    if j + 1u == params.in_order.sort_count || atomic_load_links(keys + j + 1u) != key {
        atomic_store_heads(params.in_order.sort_units + key, j + 1u);
    }
    if params.in_order.slice_units > 1u {
        return;
    }
    let value = unit_pair(load_updates(locate_base(sorted_position(j)).dense));
    atomic_store_links(values_at() + j * UNIT_WORDS, value.x);
    if UNIT_WORDS == 2u {
        atomic_store_links(values_at() + j * UNIT_WORDS + 1u, value.y);
    }
}

// A thread per output unit folds its run (at most LONG_RUN updates), or lists a longer one
// for fold_long_runs (storing the unit unchanged: no other thread of the dispatch writes it).
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let u = invocation_index(workgroup, workgroups, local);
    if u >= params.in_order.sort_units {
        return;
    }
    let start = atomic_load_heads(u);
    if start != 0u {
        store_output(u, run_folded(u, start, load_output(u)));
    }
}

// `value` folded with unit u's run, which starts at sorted pair `start` - 1; a run longer
// than LONG_RUN is listed for fold_long_runs instead, and `value` returned as it is.
fn run_folded(u: u32, start: u32, value: Unit) -> Unit {
    let end = atomic_load_heads(params.in_order.sort_units + u);
    if end - (start - 1u) > LONG_RUN {
        list_for_pass(0u, u);
        return value;
    }
    var folded = value;
    for (var j = start - 1u; j < end; j += 1u) {
        folded = combine_unit(folded, load_sorted_value(j));
    }
    return folded;
}

// @copy-input-begin
// fold_runs out of place, where the input and output share a layout without gaps: every
// unit copied from the input (`output = input`) as its run is folded. It replaces the copy's
// dispatch, and the units with runs are read and written once, not twice (a longer run's
// unit is copied here, and folded on by fold_long_runs).
@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_runs_copy(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let u = invocation_index(workgroup, workgroups, local);
    if u >= params.in_order.sort_units {
        return;
    }
    var value = load_input(u);
    let start = atomic_load_heads(u);
    if start != 0u {
        value = run_folded(u, start, value);
    }
    store_output(u, value);
}
// @copy-input-end

// A workgroup per listed run folds the next long_rounds() spans of LONG_SPAN of its updates
// (pass params.in_order.fold_pass), one span after another, each as follows:
// threads from WORKGROUP_SIZE / 2 on load the next LONG_CHUNK updates into workgroup memory
// while one thread folds the current chunk. The folding thread changes every FOLDER_CHUNKS
// chunks (FOLD_STEPS updates), FOLDER_SPACING threads on, the partial result handed over in
// workgroup memory (spaced, so that a SIMD vector of 16 invocations holds at most eight
// folders: 8 * FOLD_STEPS iterations of the step loop, and a chain's loops an eighth or a
// sixteenth as many, within Mesa's 65535). With FOLD_IN_ANY_ORDER, every
// thread folds a share of the span instead (fold_span_in_any_order).
var<workgroup> long_run: vec3<u32>;
var<workgroup> long_value: Unit;
var<workgroup> chunk_values: array<Unit, LONG_CHUNK_PAIR>;
// Per buffer: whether a loaded value is not a normal number (the fast chain's condition).
var<workgroup> chunk_unusual: array<atomic<u32>, 2>;

fn load_chunk(run: vec3<u32>, chunk: u32, local: u32) {
    let loader = local - WORKGROUP_SIZE / 2u;
    let loaders = WORKGROUP_SIZE - WORKGROUP_SIZE / 2u;
    let buffer = chunk % 2u;
    let first = run.y + chunk * LONG_CHUNK + loader;
    // Every load first, then every store: LONG_LOADS loads in flight, not one.
    var values: array<Unit, LONG_LOADS>;
    for (var k = 0u; k < LONG_LOADS; k += 1u) {
        if first + k * loaders < run.z {
            values[k] = load_sorted_value(first + k * loaders);
        }
    }
    var unusual = false;
    for (var k = 0u; k < LONG_LOADS; k += 1u) {
        if first + k * loaders < run.z {
            chunk_values[buffer * LONG_CHUNK + k * loaders + loader] = values[k];
            unusual = unusual || !chain_operand_normal(values[k]);
        }
    }
    if FAST_CHAIN && unusual {
        atomicOr(&chunk_unusual[buffer], 1u);
    }
}

// `value` folded with the first n values of a buffer. Float32 Add and Mul, and Float64's
// where the device has f64, first try the hardware's chain of operations (chain_folded),
// exact when the start (or, for Add, the first update after a zero start), every update and
// every partial result are normal numbers (binary32_step's and binary64_step's condition),
// checked beside the chain rather than in it: the loaders check the updates; with normal
// updates an infinity stays one (inf + x, inf * x), so overflow shows at the end, and
// underflow in the smallest magnitude met (one min a step; a flushed result is zero there
// too). If any check fails, the chunk is folded again step by step.
fn fold_chunk(value: Unit, buffer: u32, n: u32) -> Unit {
    let at = buffer * LONG_CHUNK;
    if FAST_CHAIN && atomicLoad(&chunk_unusual[buffer]) == 0u {
        let chained = chain_folded(value, at, n);
        if chained.exact {
            return chained.value;
        }
    }
    var folded = value;
    for (var k = 0u; k < n; k += 1u) {
        folded = combine_unit(folded, chunk_values[at + k]);
    }
    return folded;
}

// The hardware chain's result, and whether it is IEEE's (its condition held throughout).
struct ChainFold {
    exact: bool,
    value: Unit,
}

// @narrow-begin
fn chain_operand_normal(value: Unit) -> bool {
    return binary32_normal_from(unit_word(value), 1u);
}

fn chain_folded(value: Unit, at: u32, n: u32) -> ChainFold {
    var start = unit_word(value);
    // A zero start (an output of zeros: most sums begin there) is not normal, but 0 + x is
    // x exactly for every normal x (either zero's sign): the chain starts from the first
    // update instead of the chunk falling to the exact steps.
    var k = 0u;
    if REDUCTION == ADD && (start & 0x7fffffffu) == 0u {
        start = unit_word(chunk_values[at]);
        k = 1u;
    }
    if !binary32_normal_from(start, 1u) {
        return ChainFold(false, value);
    }
    // (x, smallest |x|). Sixteen loads go out before the sixteen dependent steps: one at a
    // time, every step waited for its load.
    var state = vec2<f32>(bitcast<f32>(start), abs(bitcast<f32>(start)));
    for (; k + 16u <= n; k += 16u) {
        let a = chunk_quad(at + k);
        let b = chunk_quad(at + k + 4u);
        let c = chunk_quad(at + k + 8u);
        let d = chunk_quad(at + k + 12u);
        state = chain4(chain4(chain4(chain4(state, a), b), c), d);
    }
    for (; k < n; k += 1u) {
        let x = chain_step(state.x, bitcast<f32>(unit_word(chunk_values[at + k])));
        state = vec2<f32>(x, min(state.y, abs(x)));
    }
    let bits = bitcast<u32>(state.x);
    // At least 2^-125 throughout, and finite at the end.
    let exact = bitcast<u32>(state.y) >= 0x01000000u && (bits & 0x7fffffffu) < 0x7f800000u;
    return ChainFold(exact, word_unit(bits));
}

fn chain_step(x: f32, update: f32) -> f32 {
    if REDUCTION == ADD {
        return x + update;
    }
    return x * update;
}

// Four steps of the chain on (x, smallest |x|).
fn chain4(state: vec2<f32>, updates: vec4<f32>) -> vec2<f32> {
    var x = chain_step(state.x, updates.x);
    var smallest = min(state.y, abs(x));
    x = chain_step(x, updates.y);
    smallest = min(smallest, abs(x));
    x = chain_step(x, updates.z);
    smallest = min(smallest, abs(x));
    x = chain_step(x, updates.w);
    smallest = min(smallest, abs(x));
    return vec2<f32>(x, smallest);
}

fn chunk_quad(at: u32) -> vec4<f32> {
    return vec4<f32>(
        bitcast<f32>(unit_word(chunk_values[at])),
        bitcast<f32>(unit_word(chunk_values[at + 1u])),
        bitcast<f32>(unit_word(chunk_values[at + 2u])),
        bitcast<f32>(unit_word(chunk_values[at + 3u])),
    );
}
// @narrow-end

// @double-word-begin
// Float64's chain needs the device's f64 (FAST_CHAIN only where the module has it).
fn chain_operand_normal(value: Unit) -> bool {
    var normal = false;
// @hardware-float64-begin
    normal = binary64_normal_from(value, 1u);
// @hardware-float64-end
    return normal;
}

fn chain_folded(value: Unit, at: u32, n: u32) -> ChainFold {
    var chained = ChainFold(false, value);
// @hardware-float64-begin
    chained = chain_folded_binary64(value, at, n);
// @hardware-float64-end
    return chained;
}
// @double-word-end

// @hardware-float64-begin
// Float32's chain (above) in f64: at least 2^-1021 throughout, as binary64_step asks of its
// results. Eight loads go out before the eight dependent steps (no inner loop: on Mesa's
// drivers its iterations would count against the folders' budget).
fn chain_folded_binary64(value: vec2<u32>, at: u32, n: u32) -> ChainFold {
    var start = value;
    var k = 0u;
    if REDUCTION == ADD && start.x == 0u && (start.y & 0x7fffffffu) == 0u {
        start = chunk_values[at];
        k = 1u;
    }
    if !binary64_normal_from(start, 1u) {
        return ChainFold(false, value);
    }
    // (x, smallest |x|).
    var state = vec2<f64>(as_f64(start), abs(as_f64(start)));
    for (; k + 8u <= n; k += 8u) {
        let a = chunk_quad_binary64(at + k);
        let b = chunk_quad_binary64(at + k + 4u);
        state = chain4_binary64(chain4_binary64(state, a), b);
    }
    for (; k < n; k += 1u) {
        let x = chain_step_binary64(state.x, as_f64(chunk_values[at + k]));
        state = vec2<f64>(x, min(state.y, abs(x)));
    }
    let bits = f64_pair(state.x);
    let exact = binary64_normal_from(f64_pair(state.y), 2u) && binary64_normal_from(bits, 1u);
    return ChainFold(exact, bits);
}

fn chain_step_binary64(x: f64, update: f64) -> f64 {
    if REDUCTION == ADD {
        return x + update;
    }
    return x * update;
}

fn chain4_binary64(state: vec2<f64>, updates: vec4<f64>) -> vec2<f64> {
    var x = chain_step_binary64(state.x, updates.x);
    var smallest = min(state.y, abs(x));
    x = chain_step_binary64(x, updates.y);
    smallest = min(smallest, abs(x));
    x = chain_step_binary64(x, updates.z);
    smallest = min(smallest, abs(x));
    x = chain_step_binary64(x, updates.w);
    smallest = min(smallest, abs(x));
    return vec2<f64>(x, smallest);
}

fn chunk_quad_binary64(at: u32) -> vec4<f64> {
    return vec4<f64>(
        as_f64(chunk_values[at]),
        as_f64(chunk_values[at + 1u]),
        as_f64(chunk_values[at + 2u]),
        as_f64(chunk_values[at + 3u]),
    );
}
// @hardware-float64-end

// Spans of LONG_SPAN a fold_long_runs workgroup takes a pass (params.in_order.fold_rounds:
// 1 where the device bounds loops; at most LONG_ROUNDS).
fn long_rounds() -> u32 {
    return clamp(params.in_order.fold_rounds, 1u, LONG_ROUNDS);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn fold_long_runs(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    let fold_pass = params.in_order.fold_pass;
    if local == 0u {
        // (unit, first, end) of this pass's share of the workgroup's run, or an empty run.
        var run = vec3<u32>(0u, 0u, 0u);
        if w < atomic_load_heads(fold_count_at(fold_pass)) {
            let u = atomic_load_links(fold_list_at(fold_pass) + w);
            let reach = long_rounds() * LONG_SPAN;
            let first = atomic_load_heads(u) - 1u + fold_pass * reach;
            let end = atomic_load_heads(params.in_order.sort_units + u);
            if end - first > reach {
                list_for_pass(fold_pass + 1u, u);
            }
            run = vec3<u32>(u, first, min(end, first + reach));
            long_value = load_output(u);
        }
        long_run = run;
        atomicStore(&chunk_unusual[0], 0u);
        atomicStore(&chunk_unusual[1], 0u);
    }
    let run = workgroupUniformLoad(&long_run);
    if run.z == run.y {
        return;
    }
// @double-word-begin
    if (params.in_order.fold_flags & FOLD_IN_ANY_ORDER) != 0u {
        fold_span_in_any_order(run, local);
        return;
    }
// @double-word-end
    let loading = local >= WORKGROUP_SIZE / 2u;
    // At most long_rounds() spans (the run's share is at most that many), each entering its
    // loops afresh as a pass of one span would.
    let spans = (run.z - run.y + LONG_SPAN - 1u) / LONG_SPAN;
    for (var s = 0u; s < min(spans, LONG_ROUNDS); s += 1u) {
        let first = run.y + s * LONG_SPAN;
        let span = vec3<u32>(run.x, first, min(run.z, first + LONG_SPAN));
        // At most LONG_SPAN / LONG_CHUNK chunks. Both buffers' flags are clear here: each
        // chunk's folder clears its buffer's.
        let chunks = (span.z - span.y + LONG_CHUNK - 1u) / LONG_CHUNK;
        if loading {
            load_chunk(span, 0u, local);
        }
        workgroupBarrier();
        for (var c = 0u; c < chunks; c += 1u) {
            if loading && c + 1u < chunks {
                load_chunk(span, c + 1u, local);
            }
            if local == (c / FOLDER_CHUNKS) * FOLDER_SPACING {
                let n = min(LONG_CHUNK, span.z - span.y - c * LONG_CHUNK);
                long_value = fold_chunk(long_value, c % 2u, n);
                atomicStore(&chunk_unusual[c % 2u], 0u);
            }
            workgroupBarrier();
        }
    }
    if local == 0u {
        store_output(run.x, long_value);
    }
}

// @double-word-begin
// In any order (FOLD_IN_ANY_ORDER: the default duplicate mode, where the sort serves 8-byte
// elements without 64-bit atomics, and order-free integers): every thread folds every
// WORKGROUP_SIZE-th update of the pass's share (about FOLD_STEPS / 4 of them a span: LONG_SPAN
// is that many a thread), then the threads' results fold in a tree, and the tree's into the
// unit. The share's updates grouped in WORKGROUP_SIZE lanes, as that mode allows, instead of
// one thread's sequential fold (4 Mi Float64 updates of one target: seconds). Only 8-byte units
// reach the sort in any order (narrower ones take atomics or lists), so only their modules
// keep it: three more copies of the arithmetic cost a driver's compile (lavapipe's build of
// Float32 Add's fold_long_runs: 34 ms with them, 20 without).
fn fold_span_in_any_order(run: vec3<u32>, local: u32) {
    let lanes = min(run.z - run.y, WORKGROUP_SIZE);
    if local < lanes {
        var value = load_sorted_value(run.y + local);
        for (var at = run.y + local + WORKGROUP_SIZE; at < run.z; at += WORKGROUP_SIZE) {
            value = combine_unit(value, load_sorted_value(at));
        }
        chunk_values[local] = value;
    }
    // The lanes are a prefix of the workgroup: a lane below `lanes` always holds a value.
    for (var stride = 1u; stride < WORKGROUP_SIZE; stride *= 2u) {
        workgroupBarrier();
        if local % (2u * stride) == 0u && local + stride < lanes {
            chunk_values[local] = combine_unit(chunk_values[local], chunk_values[local + stride]);
        }
    }
    if local == 0u {
        store_output(run.x, combine_unit(long_value, chunk_values[0]));
    }
}
// @double-word-end
