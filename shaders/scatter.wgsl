// requires: common index_map
// ScatterElements and ScatterND in DuplicateMode::AnyUpdate: threads write update units to
// the output elements their index tuples select (after the output = input copy), in a single
// pass. Out-of-range tuples are skipped and reported. The registry keeps the grouped entry
// points of the unit's width (the word or sub-word section).

// Each element ends equal to one of its updates: single-word stores cannot tear, and 1- and
// 2-byte stores set their bits in their word by atomics (2-byte ones store 16 bits where the
// device can: store_output_from_updates).
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count {
        return;
    }
    let i = group_index(t);
    // Where tensors are split and only some windows bound, each update is applied by the
    // dispatch that owns its windows (see owns_tuple); elsewhere every check is true.
    let base = locate_base(i);
    if !owns_tuple(base.tuple) || !owns_updates(base.dense) {
        return;
    }
    let at = apply_index(base);
    if at.bad_component != IN_RANGE {
        report_out_of_range(i);
        return;
    }
    if owns_output(at.indexed) {
        store_output_from_updates(at.indexed, at.dense);
    }
}

// Output element e = updates element d, through the elements' accessors.
// @word-stores-begin
fn store_output_from_updates(e: u32, d: u32) {
    store_output(e, load_updates(d));
}
// @word-stores-end
// @half-stores-begin
// 2-byte elements where the device stores 16 bits (Kernel::writes_halves): the element moved
// as an f16 through the tensors' second bindings, one 16-bit store that leaves the other
// half of its word alone, where store_output takes two atomics on the word.
fn store_output_from_updates(e: u32, d: u32) {
    output_halves[e] = updates_halves[d];
}
// @half-stores-end

// Units a thread takes at once: scatter_rows' neighbours along a row, a row kernel's round.
const GROUP: u32 = 4u;

// @word-begin
// 4-byte elements, GROUP neighbours along a row a thread: the row position is worked out
// once, the indices one by one.

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / GROUP {
        return;
    }
    let first = group_index(t) * GROUP;
    let base = locate_base(first);
    // All loads first, then the stores (see shaders/strided_copy.wgsl).
    var at: array<Location, GROUP>;
    var values: array<u32, GROUP>;
    for (var e = 0u; e < GROUP; e += 1u) {
        at[e] = apply_index(step_inner(base, e));
        values[e] = load_updates(at[e].dense);
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            store_output(at[e].indexed, values[e]);
        }
    }
}

// 4-byte elements, rows a whole number of blocks of WORKGROUP_SIZE * GROUP units: a
// workgroup takes a block, and unit e * WORKGROUP_SIZE + lane of it goes to thread `lane`,
// so that every load and store instruction of a warp touches neighbouring units.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_blocks(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / GROUP {
        return;
    }
    let first = group_index(t / WORKGROUP_SIZE) * (WORKGROUP_SIZE * GROUP);
    let base = locate_base(first);
    var at: array<Location, GROUP>;
    var values: array<u32, GROUP>;
    for (var e = 0u; e < GROUP; e += 1u) {
        at[e] = apply_index(step_inner(base, e * WORKGROUP_SIZE + local));
        values[e] = load_updates(at[e].dense);
    }
    for (var e = 0u; e < GROUP; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e * WORKGROUP_SIZE + local);
        } else {
            store_output(at[e].indexed, values[e]);
        }
    }
}
// @word-end

// @rows-begin
// A workgroup a row, where the updates of each outer coordinate land in their own row of a
// packed output (ScatterElements along an inner axis) and a row fits workgroup memory: the
// row is assembled in workgroup memory, its updates scattered there, and it goes out as
// whole, coalesced words. Memory then sees no scattered stores: those cost a cache
// transaction each (ScatterElements along axis 1 of an 8192 x 8192 f32 tensor: 1.08 ms on
// an H100 with them, 0.18 ms of it the copy; 0.44 ms so), and 1- and 2-byte ones a
// pair of atomics on a word their neighbours contend for.
// Room for a row's units (a pipeline constant: params.copy.length rounded up to a bucket by
// row_capacity in src/kernels/params.rs, so that row lengths share pipelines), and the
// threads of a workgroup (params.copy.threads, up to 1024): one row of workgroup memory a
// workgroup caps how many workgroups an SM holds, so a workgroup brings many threads (an
// H100 took 0.91 ms with 256, 0.44 ms with 1024). 1- and 2-byte units take a word of
// workgroup memory each (stored without atomics) and go out as whole words.
override ROW_CAPACITY: u32 = 1u;
override ROW_THREADS: u32 = 64u;
var<workgroup> row_units: array<u32, ROW_CAPACITY>;

// @copy-rows-begin
// Out of place: the row is first read from the input, so the scatter is also the copy.
@compute @workgroup_size(ROW_THREADS)
fn scatter_copy_rows(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    scatter_through_row(workgroup_index(workgroup, workgroups), local);
}

// The row of `length` units from unit `start` into workgroup memory, from the input, GROUP
// loads a thread before its stores.
fn read_row(start: u32, length: u32, local: u32) {
    for (var first = local; first < length; first += ROW_THREADS * GROUP) {
        var values: array<u32, GROUP>;
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < length {
                values[e] = load_input(start + u);
            }
        }
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < length {
                row_units[u] = values[e];
            }
        }
    }
}
// @copy-rows-end

// @rows-in-place-begin
// In place, 1- and 2-byte units (4-byte ones share no word: the plain passes store them):
// the row is read from the output itself, so that its words go back whole, not merged
// element by element (only the row's end words, which it may share with its neighbours, are
// merged). A workgroup owns its row's units: no other writes them meanwhile. One workgroup
// a row of updates (params.copy.rows is the updates' outer size).
@compute @workgroup_size(ROW_THREADS)
fn scatter_rows_in_place(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    scatter_through_row(workgroup_index(workgroup, workgroups), local);
}

// The row of `length` units from unit `start` into workgroup memory, from the output: a
// word a load (atomic loads go to the L2 cache: one a unit, four to a word of 1-byte units,
// took an H100 0.084 ms where a word a load takes 0.066, Int8 rows of 4096), GROUP loads a
// thread before its units are unpacked; the units of the end words that are a neighbouring
// row's are left out.
fn read_row(start: u32, length: u32, local: u32) {
    let end = start + length;
    let first_word = start / ELEMENTS_PER_WORD;
    let words = (end - 1u) / ELEMENTS_PER_WORD - first_word + 1u;
    for (var first = local; first < words; first += ROW_THREADS * GROUP) {
        var values: array<u32, GROUP>;
        for (var e = 0u; e < GROUP; e += 1u) {
            let w = first + e * ROW_THREADS;
            if w < words {
                values[e] = load_output_word(first_word + w);
            }
        }
        for (var e = 0u; e < GROUP; e += 1u) {
            let w = first + e * ROW_THREADS;
            if w < words {
                let word_start = (first_word + w) * ELEMENTS_PER_WORD;
                for (var k = 0u; k < ELEMENTS_PER_WORD; k += 1u) {
                    let element = word_start + k;
                    if element >= start && element < end {
                        row_units[element - start] = (values[e] >> (k * ELEMENT_BITS)) & ELEMENT_MASK;
                    }
                }
            }
        }
    }
}
// @rows-in-place-end

// Output row `row` (of params.copy.rows) through workgroup memory: read (read_row: from the
// input out of place, from the output in place), its updates scattered into it, written out.
fn scatter_through_row(row: u32, local: u32) {
    if row >= params.copy.rows {
        return;
    }
    let length = params.copy.length;
    let start = row * length;
    read_row(start, length, local);
    workgroupBarrier();
    // Rows past the updates' outer size are only copied (out of place).
    if row < size_at(0u) {
        scatter_row(row, start, local);
    }
    workgroupBarrier();
    store_row(start, length, local);
}

// The updates of outer coordinate `row` into the row in workgroup memory (which starts at
// output unit `start`).
fn scatter_row(row: u32, start: u32, local: u32) {
    let units = params.copy.row_units;
    let row_base = locate_base(row * units);
    for (var first = local; first < units; first += ROW_THREADS * GROUP) {
        var at: array<Location, GROUP>;
        var values: array<u32, GROUP>;
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < units {
                // Rank 2: the row's units are steps along the innermost dimension.
                var base = row_base;
                if RANK == 2u {
                    base = step_inner(row_base, u);
                } else {
                    base = locate_base(row * units + u);
                }
                at[e] = apply_index(base);
                values[e] = load_updates(at[e].dense);
            }
        }
        for (var e = 0u; e < GROUP; e += 1u) {
            let u = first + e * ROW_THREADS;
            if u < units {
                if at[e].bad_component != IN_RANGE {
                    report_out_of_range(row * units + u);
                } else {
                    // Within the row: the host checked every update's reach.
                    row_units[at[e].indexed - start] = values[e];
                }
            }
        }
    }
}

// @word-begin
fn store_row(start: u32, length: u32, local: u32) {
    for (var u = local; u < length; u += ROW_THREADS) {
        store_output(start + u, row_units[u]);
    }
}
// @word-end

// @sub-word-begin
// Rows of 1- and 2-byte units, one unit a word of workgroup memory: the row's output words
// stored whole, but for the first and last where a row shares them with its neighbours
// (rows that are not whole words), whose bits go by atomics (store_output_bits).
fn store_row(start: u32, length: u32, local: u32) {
    let end = start + length;
    let first_word = start / ELEMENTS_PER_WORD;
    let words = (end - 1u) / ELEMENTS_PER_WORD - first_word + 1u;
    for (var w = local; w < words; w += ROW_THREADS) {
        let word_start = (first_word + w) * ELEMENTS_PER_WORD;
        var word = 0u;
        var mask = 0u;
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            let element = word_start + e;
            if element >= start && element < end {
                let shift = e * ELEMENT_BITS;
                word |= (row_units[element - start] & ELEMENT_MASK) << shift;
                mask |= ELEMENT_MASK << shift;
            }
        }
        if mask == 0xffffffffu {
            store_output_word(first_word + w, word);
        } else {
            store_output_bits(first_word + w, mask, word);
        }
    }
}
// @sub-word-end
// @rows-end

// @sub-word-begin
// 1- and 2-byte elements, ELEMENTS_PER_WORD neighbours a thread (rows contiguous in updates
// and output, word-aligned). When they land on consecutive elements of one output word,
// that word is stored whole; otherwise each element is stored alone
// (store_output_from_updates: two atomics on the word, or a 16-bit store).
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_words(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    if t >= params.count / ELEMENTS_PER_WORD {
        return;
    }
    let first = group_index(t) * ELEMENTS_PER_WORD;
    let base = locate_base(first);
    var at: array<Location, ELEMENTS_PER_WORD>;
    var whole = true;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        at[e] = apply_index(step_inner(base, e));
        whole = whole && at[e].bad_component == IN_RANGE && at[e].indexed == at[0].indexed + e;
    }
    if whole && at[0].indexed % ELEMENTS_PER_WORD == 0u {
        store_output_word(at[0].indexed / ELEMENTS_PER_WORD, load_updates_word(base.dense / ELEMENTS_PER_WORD));
        return;
    }
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        if at[e].bad_component != IN_RANGE {
            report_out_of_range(first + e);
        } else {
            store_output_from_updates(at[e].indexed, at[e].dense);
        }
    }
}

// 1- and 2-byte elements where rows do not fill whole words (odd row lengths, unaligned
// rows): ELEMENTS_PER_WORD neighbours of the walk a thread. A thread whose elements land on
// consecutive output elements (a run) shares it in workgroup memory; an output word that two
// neighbouring runs fill between them is stored whole by the later thread, so only words a
// run shares with no neighbour are merged by atomics. (Two words a thread measured
// 1.5x slower on an H100 for int8 rows of 4097: more index loads and registers a thread.)
const NO_RUN: u32 = 0xffffffffu;
var<workgroup> run_starts: array<u32, WORKGROUP_SIZE>;
var<workgroup> run_words: array<u32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_spans(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let t = invocation_index(workgroup, workgroups, local);
    let first = t * ELEMENTS_PER_WORD;
    var at: array<Location, ELEMENTS_PER_WORD>;
    // This thread's elements inside the tensor.
    var count = 0u;
    var run = false;
    var word = 0u;
    if first < params.count {
        count = min(ELEMENTS_PER_WORD, params.count - first);
        let base = locate_base(first);
        let inner = first % size_at(RANK - 1u);
        run = count == ELEMENTS_PER_WORD;
        // Loops of a constant count guarded by `count`: unrolled, with `at` in registers (a
        // loop to `count` kept such arrays in memory on an H100).
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            if e < count {
                at[e] = apply_index(locate_along(base, inner, first, e));
                run = run && at[e].bad_component == IN_RANGE
                    && at[e].indexed == at[0].indexed + e;
            }
        }
        if run {
            for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
                word |= load_updates(at[e].dense) << (e * ELEMENT_BITS);
            }
        }
    }
    run_starts[local] = select(NO_RUN, at[0].indexed, run);
    run_words[local] = word;
    workgroupBarrier();
    if !run {
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            if e < count {
                if at[e].bad_component != IN_RANGE {
                    report_out_of_range(first + e);
                } else {
                    store_output_from_updates(at[e].indexed, at[e].dense);
                }
            }
        }
        return;
    }
    let start = at[0].indexed;
    let w = start / ELEMENTS_PER_WORD;
    let bits = (start % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    if bits == 0u {
        store_output_word(w, word);
        return;
    }
    // Word w: this run's first elements from position `bits` on; the positions before are
    // the previous run's last elements if it ends right there.
    let previous_ends_here = local > 0u && start >= ELEMENTS_PER_WORD
        && run_starts[local - 1u] == start - ELEMENTS_PER_WORD;
    if previous_ends_here {
        store_output_word(w, (run_words[local - 1u] >> (32u - bits)) | (word << bits));
    } else {
        store_output_bits(w, 0xffffffffu << bits, word << bits);
    }
    // Word w + 1: this run's last elements below position `bits`; a run starting right after
    // this one stores that word whole.
    let next_continues = local + 1u < WORKGROUP_SIZE
        && run_starts[local + 1u] == start + ELEMENTS_PER_WORD;
    if !next_continues {
        store_output_bits(w + 1u, ~(0xffffffffu << bits), word >> (32u - bits));
    }
}
// @sub-word-end
