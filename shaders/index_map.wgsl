// requires: common
// The indexed walk shared by the scatter and gather families (src/ops/index_map.rs):
// for element i of the dense tensor, where the indexed tensor's element lies, after reading
// and range-checking the index tuple. The header declares the `indices` words and the
// `status` atomics.

// Mirrors InOrderParams in src/kernels/params.rs: in-order reductions sorted by target, and
// reductions by rows (slices), sorted or listed.
struct InOrderParams {
    // The units of a row (trailing dimensions sharing one index tuple), the rows, and the
    // trailing dimensions a row spans.
    slice_units: u32,
    slices: u32,
    slice_rank: u32,
    // The updates sorted, the output units, the radix pass's shift (past the last pass:
    // which array holds the result), its tiles and their rounds.
    sort_count: u32,
    sort_units: u32,
    radix_shift: u32,
    radix_tiles: u32,
    radix_rounds: u32,
    // The folds' passes: this pass, the entries of each list of runs that go on, and the
    // column tiles of a row.
    fold_pass: u32,
    fold_capacity: u32,
    fold_tiles: u32,
    // FOLD_BY_SLICES, FOLD_IN_ANY_ORDER, FOLD_WIDE_FIRST, DESCRIBES_STATUS
    // (shaders/scatter_slices.wgsl).
    fold_flags: u32,
    // Float Min and Max in order by lists: where the units' tie words start in the heads
    // (shaders/scatter_lists.wgsl).
    tie_words: u32,
    // The lists' later passes: rounds of SLICE_TURNS turns (fold_slice_list_runs).
    fold_rounds: u32,
    // The rows a block's list holds at most where link_slices sets the rest aside.
    spill_bound: u32,
    // Rows a workgroup of reduce_spilled_rows or reduce_sorted_rows combines.
    run_rows: u32,
}

// Mirrors CopyRowParams in src/kernels/params.rs: scatters that take a workgroup a row
// (scatter_copy_rows, scatter_rows_in_place): the rows the dispatch takes, their units, the
// updates a row takes, and the threads of a workgroup (a row's).
struct CopyRowParams {
    rows: u32,
    length: u32,
    row_units: u32,
    threads: u32,
}

// Mirrors SequenceParams in src/kernels/params.rs: TensorScatter's write positions
// (INDEX_SEQUENCE): a tuple position is entry * length + s, the entry's write index is indices
// element entry * write_stride.
struct SequenceParams {
    length: u32,
    write_stride: u32,
    padding: vec2<u32>,
}

// Mirrors BinParams in src/kernels/params.rs: the any-order reduction into workgroup bins
// (scatter_reduce_bins): the output's units, the updates a thread takes, the threads, the
// workgroups leaving partials, and the partials' fold's units a workgroup.
struct BinParams {
    units: u32,
    per_thread: u32,
    threads: u32,
    partial_groups: u32,
    fold_units: u32,
    claims: u32,
    sign_atomics: u32,
    padding_word: u32,
}

// Mirrors IndexParams in src/kernels/params.rs (a test compares the two through naga).
struct IndexParams {
    count: u32,
    rank: u32,
    tuple_size: u32,
    // INDEX_SIGNED, INDEX_WORD_PAIRS, INDEX_SEQUENCE, INDEX_CIRCULAR, and bit 2: out-of-range
    // indices are clamped (OutOfRange::Clamp), which the kernels read as CLAMP_INDICES.
    index_flags: u32,
    tuple_stride: u32,
    // Threads take groups of neighbouring units; with tile > 0 the groups are visited in
    // column blocks of `tile` groups, all rows of a block before the next block (see
    // group_index), so that scattered accesses of neighbouring threads share cache lines.
    tile: u32,
    row_groups: u32,
    rows: u32,
    // The in-order and row reductions' members, and scatter_copy_rows' (two groups).
    in_order: InOrderParams,
    copy: CopyRowParams,
    sequence: SequenceParams,
    bins: BinParams,
    sizes: array<vec4<u32>, 2>,
    dense_strides: array<vec4<u32>, 2>,
    indexed_strides: array<vec4<u32>, 2>,
    indices_strides: array<vec4<u32>, 2>,
    index_bounds: array<vec4<u32>, 2>,
    index_strides: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<uniform> params: IndexParams;

// OutOfRange::Clamp, as a pipeline constant: pipelines that report out-of-range indices keep
// exactly the code they had before clamping existed (a runtime test in the index walk cost
// 9 to 15 % on an H100's row scatters).
override CLAMP_INDICES: bool = false;

// The rank, the tuple size and the index format (index_flags without the clamp bit) are
// pipeline constants too (`Parameters::pipeline_constants`): the driver then unrolls the
// walks below, reads each dimension's values from fixed places of the uniform block instead
// of indexing it at run time, and drops the format branches of every index load.
override RANK: u32;
override TUPLE_SIZE: u32;
override INDEX_FLAGS: u32;

// Per-dimension values: 8 a field, as two vec4s (a uniform array's stride is 16 bytes).
fn size_at(k: u32) -> u32 {
    return params.sizes[k >> 2u][k & 3u];
}

fn dense_stride_at(k: u32) -> u32 {
    return params.dense_strides[k >> 2u][k & 3u];
}

fn indexed_stride_at(k: u32) -> u32 {
    return params.indexed_strides[k >> 2u][k & 3u];
}

fn indices_stride_at(k: u32) -> u32 {
    return params.indices_strides[k >> 2u][k & 3u];
}

fn index_bound_at(k: u32) -> u32 {
    return params.index_bounds[k >> 2u][k & 3u];
}

fn index_stride_at(k: u32) -> u32 {
    return params.index_strides[k >> 2u][k & 3u];
}

// No valid index equals this: bounds are at most 2^32 - 1.
const IN_RANGE: u32 = 0xffffffffu;

struct Location {
    dense: u32,
    indexed: u32,
    // The indices element holding the tuple's first component.
    tuple: u32,
    // The first component out of range, or IN_RANGE.
    bad_component: u32,
}

// The indices element a tuple position reads: itself, or with INDEX_SEQUENCE the write index
// of the position's batch entry.
fn index_element(e: u32) -> u32 {
    if (INDEX_FLAGS & INDEX_SEQUENCE) != 0u {
        return (e / params.sequence.length) * params.sequence.write_stride;
    }
    return e;
}

// The index at tuple position e as (low, high) words; 32-bit signed values are sign-extended.
fn index_words(e: u32) -> vec2<u32> {
    let element = index_element(e);
    if (INDEX_FLAGS & INDEX_WORD_PAIRS) != 0u {
        return load_indices_pair(element);
    }
    let low = load_indices_word(element);
    let negative = (INDEX_FLAGS & INDEX_SIGNED) != 0u && (low & 0x80000000u) != 0u;
    return vec2<u32>(low, select(0u, 0xffffffffu, negative));
}

// The index mapped onto [0, bound): [0, bound) as is, [-bound, 0) (signed types) from the
// end; anything else gives IN_RANGE, or with clamping the nearest end of [0, bound) (after
// a negative index is counted from the end). 64-bit values are compared whole, never
// truncated. A bound of 0 (an empty dimension) takes no index: the negative range is tested
// as `v.x + bound` wrapping below `bound`, which no value does for 0 (clamping never meets a
// bound of 0: validation refuses it).
fn normalise(v: vec2<u32>, bound: u32) -> u32 {
    if v.y == 0u && v.x < bound {
        return v.x;
    }
    if (INDEX_FLAGS & INDEX_SIGNED) != 0u && v.y == 0xffffffffu && v.x + bound < bound {
        return v.x + bound;
    }
    if CLAMP_INDICES {
        // Clamped to 0 below (negative signed values) and bound - 1 above.
        let below = (INDEX_FLAGS & INDEX_SIGNED) != 0u && (v.y & 0x80000000u) != 0u;
        return select(bound - 1u, 0u, below);
    }
    return IN_RANGE;
}

// v mod n (n >= 1) for a 64-bit two's-complement v, in [0, n). Values that fit 32 bits take
// one remainder; others divide bit by bit, 64 steps at most.
fn floor_mod(v: vec2<u32>, n: u32) -> u32 {
    let signed = (INDEX_FLAGS & INDEX_SIGNED) != 0u;
    if v.y == 0u {
        return v.x % n;
    }
    if signed && v.y == 0xffffffffu {
        // v = -(m + 1) with m = !v.x: v mod n = n - 1 - (m mod n).
        return n - 1u - (~v.x % n);
    }
    // Binary long division of the 64-bit pattern; a negative signed value is 2^64 - |v|, and
    // 2^64 mod n is added back below.
    var r = 0u;
    for (var bit = 63i; bit >= 0; bit -= 1) {
        let word = select(v.x, v.y, bit >= 32);
        let b = (word >> (u32(bit) & 31u)) & 1u;
        // r < n, so 2r + b < 2n: one subtraction (wrapping where 2r passes 2^32) suffices.
        let carry = r >> 31u;
        let doubled = (r << 1u) | b;
        r = select(doubled, doubled - n, carry != 0u || doubled >= n);
    }
    if signed && (v.y & 0x80000000u) != 0u {
        // The pattern read as unsigned is v + 2^64: take 2^64 mod n off again.
        var power = 1u % n;
        for (var step = 0u; step < 64u; step += 1u) {
            let carry = power >> 31u;
            let doubled = power << 1u;
            power = select(doubled, doubled - n, carry != 0u || doubled >= n);
        }
        r = select(r - power, r + (n - power), r < power);
    }
    return r;
}

// TensorScatter's write position along the sequence axis (of size `bound`) for tuple position
// e: the entry's write index w plus the update's position s. Linear: in range where
// 0 <= w <= bound - length (the whole run fits), clamped there with CLAMP_INDICES, else
// IN_RANGE. Circular: (w + s) mod bound, always in range.
fn sequence_position(e: u32, bound: u32) -> u32 {
    let length = params.sequence.length;
    let s = e % length;
    let w = index_words(e);
    if (INDEX_FLAGS & INDEX_CIRCULAR) != 0u {
        let r = floor_mod(w, bound);
        // r + s < 2 * bound, which may pass 2^32.
        return select(r + s, s - (bound - r), s >= bound - r);
    }
    let last = bound - length;
    if w.y == 0u && w.x <= last {
        return w.x + s;
    }
    if CLAMP_INDICES {
        let below = (INDEX_FLAGS & INDEX_SIGNED) != 0u && (w.y & 0x80000000u) != 0u;
        return select(last, 0u, below) + s;
    }
    return IN_RANGE;
}

// Where unit i (within the tensor) and its index tuple lie, before the index is applied.
fn locate_base(i: u32) -> Location {
    var rest = i;
    var at = Location(0u, 0u, 0u, IN_RANGE);
    for (var d = RANK; d > 1u; d -= 1u) {
        let k = d - 1u;
        let size = size_at(k);
        let c = rest % size;
        rest = rest / size;
        at.dense += c * dense_stride_at(k);
        at.indexed += c * indexed_stride_at(k);
        at.tuple += c * indices_stride_at(k);
    }
    // The outermost coordinate is what remains: no division.
    at.dense += rest * dense_stride_at(0u);
    at.indexed += rest * indexed_stride_at(0u);
    at.tuple += rest * indices_stride_at(0u);
    return at;
}

// The unit e places further along the innermost dimension (same row).
fn step_inner(base: Location, e: u32) -> Location {
    let k = RANK - 1u;
    var at = base;
    at.dense += e * dense_stride_at(k);
    at.indexed += e * indexed_stride_at(k);
    at.tuple += e * indices_stride_at(k);
    return at;
}

// Unit first + e, where `base` is unit `first`, `inner` units along its row: a step along
// the row, or a fresh walk where the run crosses into the next row.
fn locate_along(base: Location, inner: u32, first: u32, e: u32) -> Location {
    if inner + e < size_at(RANK - 1u) {
        return step_inner(base, e);
    }
    return locate_base(first + e);
}

// Adds the index tuple's contribution, or marks its first bad component.
fn apply_index(base: Location) -> Location {
    var at = base;
    for (var k = 0u; k < TUPLE_SIZE; k += 1u) {
        let bound = index_bound_at(k);
        let e = at.tuple + k * params.tuple_stride;
        var v: u32;
        if (INDEX_FLAGS & INDEX_SEQUENCE) != 0u {
            v = sequence_position(e, bound);
        } else {
            v = normalise(index_words(e), bound);
        }
        if v == IN_RANGE {
            at.bad_component = k;
            break;
        }
        at.indexed += v * index_stride_at(k);
    }
    return at;
}

// Whether this dispatch handles the tuple starting at indices element e: always, unless the
// indices are split into windows and only some are bound (the whole tuple is then bound
// where its first component is owned).
fn owns_tuple(e: u32) -> bool {
    let element = index_element(e);
    if (INDEX_FLAGS & INDEX_WORD_PAIRS) != 0u {
        return owns_indices_pair(element);
    }
    return owns_indices(element);
}

// The group a thread handles: row-major, or column block by column block when tiled.
fn group_index(t: u32) -> u32 {
    if params.tile == 0u {
        return t;
    }
    let per_block = params.rows * params.tile;
    let block = t / per_block;
    let rest = t - block * per_block;
    let row = rest / params.tile;
    return row * params.row_groups + block * params.tile + (rest - row * params.tile);
}

// Records an out-of-range tuple met at dense unit i. The status words (src/status.rs):
// FOUND_BAD_UNIT holds 0xffffffff - i (0: none), so a zeroed word means no error and
// atomicMax keeps the lowest i, whose tuple is the first bad one in the indices' row-major
// order.
fn report_out_of_range(i: u32) {
    atomic_max_status(FOUND_BAD_UNIT, 0xffffffffu - i);
}

// Records the first out-of-range tuple of the units first + e whose bit e `bad` sets (the
// lowest is the only one the status keeps).
fn report_out_of_range_in(first: u32, bad: u32) {
    if bad != 0u {
        report_out_of_range(first + firstTrailingBit(bad));
    }
}

// One thread, after the main pass: the execution's report for the host
// (describe_first_bad_unit). The in-order reductions' passes after their last report do it
// instead, saving a dispatch (shaders/scatter_slices.wgsl's describe_status_here).
@compute @workgroup_size(WORKGROUP_SIZE)
fn describe_status(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if local != 0u || any(workgroup != vec3<u32>(0u)) {
        return;
    }
    describe_first_bad_unit();
}

// The execution's report for the host (the first bad unit, its tuple's bad component and
// raw value, so the host can name them exactly), by one thread of a dispatch after every
// report. The first of the step's dispatches (one per slab of a partial windowing; each binds
// the indices of its own) moves the running word to the report and zeroes it, so the next
// execution starts clean without a clear command; the dispatch owning the bad tuple
// describes it.
fn describe_first_bad_unit() {
    if first_slabs_status() {
        atomic_store_status(FIRST_BAD_UNIT, atomic_exchange_status(FOUND_BAD_UNIT, 0u));
        atomic_store_status(SCREENED, 0u);
    }
    let encoded = atomic_load_status(FIRST_BAD_UNIT);
    if encoded == 0u {
        return;
    }
    let base = locate_base(0xffffffffu - encoded);
    if !owns_tuple(base.tuple) {
        return;
    }
    let at = apply_index(base);
    let v = index_words(at.tuple + at.bad_component * params.tuple_stride);
    atomic_store_status(BAD_COMPONENT, at.bad_component);
    atomic_store_status(VALUE_LOW, v.x);
    atomic_store_status(VALUE_HIGH, v.y);
}
