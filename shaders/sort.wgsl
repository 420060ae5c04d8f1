// requires: common index_map scatter_slices units
// Scatter reductions in the updates' order (ReduceOrder::InOrder), element by element or by
// slices (where trailing dimensions share one index tuple, ScatterND's rows: slices of
// params.in_order.slice_units units land on aligned blocks of the output, the block of a slice being
// the target of its first unit divided by params.in_order.slice_units), first sort the updates (or
// slices) by target (or block), keeping their order: a stable least-significant-digit radix
// sort of (key, position) pairs, one digit of log2 WORKGROUP_SIZE bits a pass, where the
// workgroup is a power of two of at least 32 threads and the scratch fits one binding (every
// window bound: never a slab). Each target's updates then lie contiguous and in order, and
// are folded into it (shaders/scatter_runs.wgsl, by slices shaders/scatter_slice_runs.wgsl).
//
// links: keys and positions twice (the radix sort's two arrays, each sort_count words), then
// the per-digit, per-tile counts (the histogram), their blocks' sums, and the two lists of
// runs that go on. heads: each key's run start (plus one), its end, and each pass's list count.

fn keys_at(array: u32) -> u32 {
    return array * 2u * params.in_order.sort_count;
}

fn positions_at(array: u32) -> u32 {
    return array * 2u * params.in_order.sort_count + params.in_order.sort_count;
}

fn histogram_at() -> u32 {
    return 4u * params.in_order.sort_count;
}

fn histogram_entries() -> u32 {
    return WORKGROUP_SIZE * params.in_order.radix_tiles;
}

fn scan_blocks() -> u32 {
    return (histogram_entries() + SCAN_BLOCK - 1u) / SCAN_BLOCK;
}

fn block_sums_at() -> u32 {
    return histogram_at() + histogram_entries();
}

// The array a pass reads: pass p = radix_shift / RADIX_BITS reads array p % 2 and writes
// the other; after the last pass, the sorted pairs are in array (passes % 2).
fn source_array() -> u32 {
    return (params.in_order.radix_shift / RADIX_BITS) & 1u;
}

fn digit(key: u32) -> u32 {
    return (key >> params.in_order.radix_shift) & (WORKGROUP_SIZE - 1u);
}

// Pass 0: the pairs in the updates' order (made by the first pass's radix_count).
const NO_KEY: u32 = 0xffffffffu;

fn store_pair(i: u32, key: u32) {
    atomic_store_links(keys_at(0u) + i, key);
    atomic_store_links(positions_at(0u) + i, i);
}

// The first pass's pair at position e, stored in array 0; returns its key. Element by
// element: update e's target (NO_KEY out of range, which sorts after every target: the host
// sorts on enough bits to cover sort_units itself). By slices: the block slice e lands on;
// a slice out of range (every unit of it; its first is the first reported) joins the last
// block's run, marked, so that the keys need no bit past the blocks'.
const SKIPPED_SLICE: u32 = 0x80000000u;

fn first_pair(e: u32) -> u32 {
    if params.in_order.slice_units > 1u {
        let slice = locate_slice(e);
        if slice.at.bad_component != IN_RANGE {
            report_out_of_range(slice.first);
            let key = params.in_order.sort_units - 1u;
            atomic_store_links(keys_at(0u) + e, key);
            atomic_store_links(positions_at(0u) + e, e | SKIPPED_SLICE);
            return key;
        }
        let key = slice.at.indexed / params.in_order.slice_units;
        store_pair(e, key);
        return key;
    }
    let at = apply_index(locate_base(e));
    var key = at.indexed;
    if at.bad_component != IN_RANGE {
        report_out_of_range(e);
        key = NO_KEY;
    }
    store_pair(e, key);
    return key;
}

// A radix pass, 1: a workgroup per tile of params.in_order.radix_rounds * WORKGROUP_SIZE pairs (at
// most RADIX_ROUNDS rounds: small sorts take fewer, so that more workgroups share the work)
// counts its digits.
var<workgroup> digit_counts: array<atomic<u32>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_count(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let tile = workgroup_index(workgroup, workgroups);
    if tile >= params.in_order.radix_tiles {
        return;
    }
    atomicStore(&digit_counts[local], 0u);
    workgroupBarrier();
    let keys = keys_at(source_array());
    // The first pass makes the pairs it counts (no pass of their own: a dispatch and its
    // wait saved).
    let first = params.in_order.radix_shift == 0u;
    for (var r = 0u; r < min(params.in_order.radix_rounds, RADIX_ROUNDS); r += 1u) {
        let e = (tile * params.in_order.radix_rounds + r) * WORKGROUP_SIZE + local;
        if e < params.in_order.sort_count {
            var key: u32;
            if first {
                key = first_pair(e);
            } else {
                key = atomic_load_links(keys + e);
            }
            atomicAdd(&digit_counts[digit(key)], 1u);
        }
    }
    workgroupBarrier();
    // Digit-major: the exclusive scan of this order is where each (digit, tile) begins.
    atomic_store_links(histogram_at() + local * params.in_order.radix_tiles + tile, atomicLoad(&digit_counts[local]));
}

// The exclusive prefix sum of `value` over the workgroup's threads, and the total.
var<workgroup> scan_values: array<u32, WORKGROUP_SIZE>;

fn workgroup_exclusive_scan(local: u32, value: u32) -> vec2<u32> {
    workgroupBarrier();
    scan_values[local] = value;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset *= 2u) {
        var add = 0u;
        if local >= offset {
            add = scan_values[local - offset];
        }
        workgroupBarrier();
        scan_values[local] += add;
        workgroupBarrier();
    }
    return vec2<u32>(scan_values[local] - value, scan_values[WORKGROUP_SIZE - 1u]);
}

// Entries [first, first + SCAN_BLOCK) of the words at `at` (those below `count`) replaced by
// their exclusive prefix sum plus `carry`; returns the block's total.
fn scan_block(at: u32, first: u32, count: u32, carry: u32, local: u32) -> u32 {
    var values: array<u32, SCAN_ITEMS>;
    var sum = 0u;
    for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
        let e = first + local * SCAN_ITEMS + k;
        values[k] = 0u;
        if e < count {
            values[k] = atomic_load_links(at + e);
        }
        sum += values[k];
    }
    let scanned = workgroup_exclusive_scan(local, sum);
    var running = carry + scanned.x;
    for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
        let e = first + local * SCAN_ITEMS + k;
        if e < count {
            atomic_store_links(at + e, running);
        }
        running += values[k];
    }
    return scanned.y;
}

// A radix pass, 2: each block of the histogram scanned, its total kept (past
// HISTOGRAM_ITEMS tiles only: radix_scatter scans a smaller histogram itself, below).
@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scan_blocks(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let block = workgroup_index(workgroup, workgroups);
    if block >= scan_blocks() {
        return;
    }
    let total = scan_block(histogram_at(), block * SCAN_BLOCK, histogram_entries(), 0u, local);
    if local == 0u {
        atomic_store_links(block_sums_at() + block, total);
    }
}

// A radix pass, 3: one workgroup scans the blocks' totals, where they are more than a
// workgroup's threads (else radix_scatter's workgroups each scan them, and this pass and its
// dispatch's wait are saved: `totals_scanned_apart`).
fn totals_scanned_apart() -> bool {
    return scan_blocks() > WORKGROUP_SIZE;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scan_sums(@builtin(local_invocation_index) local: u32) {
    let count = scan_blocks();
    var carry = 0u;
    for (var first = 0u; first < count; first += SCAN_BLOCK) {
        carry += scan_block(block_sums_at(), first, count, carry, local);
    }
}

// Where the histogram has at most HISTOGRAM_ITEMS entries a thread (few tiles), each
// radix_scatter workgroup scans it whole, and radix_scan_blocks does not run (a dispatch and
// its wait saved; the host agrees: SortPlan). Returns `entry`'s exclusive prefix: a thread
// sums HISTOGRAM_ITEMS entries, the sums are scanned, and the chunk holding `entry` adds the
// entries before it.
fn histogram_scanned_here() -> bool {
    return histogram_entries() <= WORKGROUP_SIZE * HISTOGRAM_ITEMS;
}

fn histogram_prefix(entry: u32, local: u32) -> u32 {
    let at = histogram_at();
    var sum = 0u;
    for (var k = 0u; k < HISTOGRAM_ITEMS; k += 1u) {
        let e = local * HISTOGRAM_ITEMS + k;
        if e < histogram_entries() {
            sum += atomic_load_links(at + e);
        }
    }
    // scan_values then holds the chunks' inclusive sums.
    workgroup_exclusive_scan(local, sum);
    let chunk = entry / HISTOGRAM_ITEMS;
    var prefix = 0u;
    if chunk > 0u {
        prefix = scan_values[chunk - 1u];
    }
    for (var e = chunk * HISTOGRAM_ITEMS; e < entry; e += 1u) {
        prefix += atomic_load_links(at + e);
    }
    return prefix;
}

// A radix pass, 4: a workgroup per tile moves its pairs to their places, WORKGROUP_SIZE at a
// time and in order: a pair's rank among the round's pairs of its digit is the number of
// earlier threads whose bit is set in the digit's mask, so equal digits keep their order.
var<workgroup> digit_masks: array<atomic<u32>, RADIX_MASK_WORDS>;
var<workgroup> digit_next: array<u32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn radix_scatter(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let tile = workgroup_index(workgroup, workgroups);
    if tile >= params.in_order.radix_tiles {
        return;
    }
    let words = WORKGROUP_SIZE / 32u;
    let entry = local * params.in_order.radix_tiles + tile;
    if histogram_scanned_here() {
        digit_next[local] = histogram_prefix(entry, local);
    } else {
        let block = entry / SCAN_BLOCK;
        var before_block = 0u;
        if totals_scanned_apart() {
            before_block = atomic_load_links(block_sums_at() + block);
        } else {
            // The blocks' totals, a thread each, scanned: scan_values holds the inclusive sums.
            var total = 0u;
            if local < scan_blocks() {
                total = atomic_load_links(block_sums_at() + local);
            }
            workgroup_exclusive_scan(local, total);
            if block > 0u {
                before_block = scan_values[block - 1u];
            }
        }
        digit_next[local] = atomic_load_links(histogram_at() + entry) + before_block;
    }
    for (var w = 0u; w < words; w += 1u) {
        atomicStore(&digit_masks[local * words + w], 0u);
    }
    workgroupBarrier();
    let source = source_array();
    let lane = local % 32u;
    let word = local / 32u;
    for (var r = 0u; r < min(params.in_order.radix_rounds, RADIX_ROUNDS); r += 1u) {
        let e = (tile * params.in_order.radix_rounds + r) * WORKGROUP_SIZE + local;
        let valid = e < params.in_order.sort_count;
        var key = 0u;
        var position = 0u;
        var d = 0u;
        if valid {
            key = atomic_load_links(keys_at(source) + e);
            position = atomic_load_links(positions_at(source) + e);
            d = digit(key);
            atomicOr(&digit_masks[d * words + word], 1u << lane);
        }
        workgroupBarrier();
        if valid {
            var rank = countOneBits(atomicLoad(&digit_masks[d * words + word]) & ((1u << lane) - 1u));
            for (var w = 0u; w < word; w += 1u) {
                rank += countOneBits(atomicLoad(&digit_masks[d * words + w]));
            }
            let slot = digit_next[d] + rank;
            atomic_store_links(keys_at(1u - source) + slot, key);
            atomic_store_links(positions_at(1u - source) + slot, position);
        }
        workgroupBarrier();
        var count = 0u;
        for (var w = 0u; w < words; w += 1u) {
            count += countOneBits(atomicLoad(&digit_masks[local * words + w]));
            atomicStore(&digit_masks[local * words + w], 0u);
        }
        digit_next[local] += count;
        workgroupBarrier();
    }
}

// The sorted updates' values, gathered once by find_runs into the array the last pass read
// (2 * sort_count words: room for 8-byte units), so that folds read them in order.
fn values_at() -> u32 {
    return keys_at(1u - source_array());
}

fn load_sorted_value(j: u32) -> Unit {
    let at = values_at() + j * UNIT_WORDS;
    var pair = vec2<u32>(atomic_load_links(at), 0u);
    if UNIT_WORDS == 2u {
        pair.y = atomic_load_links(at + 1u);
    }
    return pair_unit(pair);
}

// The position (update or slice) that sorted pair j came from.
fn sorted_position(j: u32) -> u32 {
    return atomic_load_links(positions_at(source_array()) + j);
}
