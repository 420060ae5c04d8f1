// requires: common index_map scatter heads
// ScatterElements of 1- and 2-byte units along an outer axis (each element its own index, the
// output's column that of the update), DuplicateMode::AnyUpdate, binned by output region
// (RowKernel::Binned). An element landing alone in an output word costs a word load and a
// compare-exchange where PyTorch makes one byte store, and the cache's rate of those bounds
// the scatter (a diagonal: every element of an updates row to another output row). Two
// passes instead: scatter_tiles walks tiles of the updates; runs of neighbouring elements
// onto neighbouring units go out as whole words (as scatter_spans), every other element
// becomes an entry of its bin (its column block's region of REGION_ROWS output rows), the
// bin's run of entries reserved by one atomic a workgroup; apply_bins then takes a bin a
// workgroup, reads its region of the output into workgroup memory, applies the entries
// there and writes the region back as whole words. Memory sees coalesced entries and
// regions, not an atomic pair an element.

// @sub-word-begin
// A region: REGION_ROWS output rows of REGION_UNITS units (a column block of the tile walk),
// staged as ROW_WORDS words a row (a row's units may start mid-word). About 8 KiB of
// workgroup memory for either unit width.
const REGION_UNITS: u32 = 128u;
const REGION_ROWS: u32 = 16u * ELEMENTS_PER_WORD;
const ROW_WORDS: u32 = REGION_UNITS / ELEMENTS_PER_WORD + 1u;
// The most regions a column block has (params.regions.regions; the host checks).
const MAX_REGIONS: u32 = 512u;
// Entries: the row in the region (bits 23 up), the column in the block (16 to 22), the
// unit's bits (0 to 15).
const ENTRY_ROW_SHIFT: u32 = 23u;
const ENTRY_COLUMN_SHIFT: u32 = 16u;
const NO_ENTRY: u32 = 0xffffffffu;

var<workgroup> region_counts: array<atomic<u32>, MAX_REGIONS>;
var<workgroup> region_bases: array<u32, MAX_REGIONS>;

// Tiles column block by column block (all rows of a block before the next), each
// WORKGROUP_SIZE / params.tile rows of params.tile groups of ELEMENTS_PER_WORD units (the
// last block of a row and the last rows may be partial); the map has rank 2, its index the
// output row (index_stride_at(0): the output's row length) and its column the update's.
@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_tiles(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let regions = params.regions.regions;
    for (var q = local; q < regions; q += WORKGROUP_SIZE) {
        atomicStore(&region_counts[q], 0u);
    }
    let tile_rows = WORKGROUP_SIZE / params.tile;
    let row_tiles = (params.rows + tile_rows - 1u) / tile_rows;
    let w = workgroup_index(workgroup, workgroups);
    let block = w / row_tiles;
    let row = (w % row_tiles) * tile_rows + local / params.tile;
    let group = block * params.tile + local % params.tile;
    let inner = size_at(RANK - 1u);
    var count = 0u;
    var first = 0u;
    if block < params.regions.blocks && row < params.rows && group < params.row_groups {
        first = row * inner + group * ELEMENTS_PER_WORD;
        count = min(ELEMENTS_PER_WORD, inner - group * ELEMENTS_PER_WORD);
    }
    var at: array<Location, ELEMENTS_PER_WORD>;
    var run = count == ELEMENTS_PER_WORD;
    var word = 0u;
    if count > 0u {
        let base = locate_base(first);
        // Loops of a constant count guarded by `count` (see scatter_spans).
        for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
            if e < count {
                at[e] = apply_index(step_inner(base, e));
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
    // The other elements' entries, each with its region and rank there (region << 16 | rank).
    var entries: array<u32, ELEMENTS_PER_WORD>;
    var ranks: array<u32, ELEMENTS_PER_WORD>;
    let row_length = index_stride_at(0u);
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        entries[e] = NO_ENTRY;
        if !run && e < count {
            if at[e].bad_component != IN_RANGE {
                report_out_of_range(first + e);
            } else {
                let target_row = at[e].indexed / row_length;
                let column = at[e].indexed - target_row * row_length;
                let region = target_row / REGION_ROWS;
                entries[e] = ((target_row % REGION_ROWS) << ENTRY_ROW_SHIFT)
                    | ((column % REGION_UNITS) << ENTRY_COLUMN_SHIFT)
                    | load_updates(at[e].dense);
                ranks[e] = (region << 16u) | atomicAdd(&region_counts[region], 1u);
            }
        }
    }
    let run_start = at[0].indexed;
    workgroupBarrier();
    if run {
        store_run(run_start, word, local);
    }
    for (var q = local; q < regions; q += WORKGROUP_SIZE) {
        let n = atomicLoad(&region_counts[q]);
        if n > 0u {
            region_bases[q] = atomic_add_heads(block * regions + q, n);
        }
    }
    workgroupBarrier();
    let capacity = params.regions.capacity;
    for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
        if entries[e] != NO_ENTRY {
            let region = ranks[e] >> 16u;
            let slot = region_bases[region] + (ranks[e] & 0xffffu);
            if slot < capacity {
                atomic_store_links((block * regions + region) * capacity + slot, entries[e]);
            } else {
                // A full bin: this element goes straight out (apply_bins, after, keeps it).
                // Its unit from the entry (so that `at` is not kept live across the barriers).
                let target_row = region * REGION_ROWS + (entries[e] >> ENTRY_ROW_SHIFT);
                let column = block * REGION_UNITS + ((entries[e] >> ENTRY_COLUMN_SHIFT) & (REGION_UNITS - 1u));
                store_output(target_row * row_length + column, entries[e] & ELEMENT_MASK);
            }
        }
    }
}

// A run of ELEMENTS_PER_WORD units from output unit `start` (its bits `word`), as
// scatter_spans stores it: whole words where the neighbouring threads' runs fill them, the
// rest merged by compare-exchange.
fn store_run(start: u32, word: u32, local: u32) {
    let w = start / ELEMENTS_PER_WORD;
    let bits = (start % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    if bits == 0u {
        store_output_word(w, word);
        return;
    }
    let previous_ends_here = local > 0u && start >= ELEMENTS_PER_WORD
        && run_starts[local - 1u] == start - ELEMENTS_PER_WORD;
    if previous_ends_here {
        store_output_word(w, (run_words[local - 1u] >> (32u - bits)) | (word << bits));
    } else {
        store_output_bits(w, 0xffffffffu << bits, word << bits);
    }
    let next_continues = local + 1u < WORKGROUP_SIZE
        && run_starts[local + 1u] == start + ELEMENTS_PER_WORD;
    if !next_continues {
        store_output_bits(w + 1u, ~(0xffffffffu << bits), word >> (32u - bits));
    }
}

var<workgroup> region_words: array<atomic<u32>, REGION_ROWS * ROW_WORDS>;
var<workgroup> bin_entries: u32;

// Where a region's row lies: its first output unit, first word and words.
struct RegionRow {
    start: u32,
    first_word: u32,
    words: u32,
}

fn region_row(first_row: u32, r: u32, first_column: u32, width: u32) -> RegionRow {
    let start = (first_row + r) * index_stride_at(0u) + first_column;
    let first_word = start / ELEMENTS_PER_WORD;
    return RegionRow(start, first_word, (start + width - 1u) / ELEMENTS_PER_WORD - first_word + 1u);
}

// Bins a workgroup applies, params.regions.groups apart: few workgroups find the bins empty
// (where the elements all went out as runs, an empty bin a workgroup of 1024 threads cost an
// H100 more than the scatter saved).
const BINS_PER_GROUP: u32 = 1u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn apply_bins(
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(num_workgroups) workgroups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let w = workgroup_index(workgroup, workgroups);
    for (var k = 0u; k < BINS_PER_GROUP; k += 1u) {
        apply_bin(w + k * params.regions.groups, local);
    }
}

// Bin `bin` (region q of column block b: bin b * regions + q): its entries applied to its
// region of the output. A bin of few entries (under an eighth of its region's units) stores
// them by compare-exchange; a fuller one goes through workgroup memory: the region read, the
// entries applied (a compare-exchange on a word of workgroup memory each, so that a unit two
// entries aim at ends equal to one of them), the region written back, whole words plainly
// and the words a row shares with a neighbouring block's region merged.
fn apply_bin(bin: u32, local: u32) {
    let regions = params.regions.regions;
    // The previous bin's last reads of workgroup memory before this one's first writes.
    workgroupBarrier();
    if local == 0u {
        var n = 0u;
        if bin < regions * params.regions.blocks {
            n = min(atomic_load_heads(bin), params.regions.capacity);
        }
        bin_entries = n;
    }
    let n = workgroupUniformLoad(&bin_entries);
    if n == 0u {
        return;
    }
    let block = bin / regions;
    let first_row = (bin % regions) * REGION_ROWS;
    let rows = min(REGION_ROWS, index_bound_at(0u) - first_row);
    let first_column = block * REGION_UNITS;
    let width = min(REGION_UNITS, size_at(RANK - 1u) - first_column);
    let entries_at = bin * params.regions.capacity;
    if n * 8u < rows * width {
        for (var k = local; k < n; k += WORKGROUP_SIZE) {
            let entry = atomic_load_links(entries_at + k);
            let row = region_row(first_row, entry >> ENTRY_ROW_SHIFT, first_column, width);
            let column = (entry >> ENTRY_COLUMN_SHIFT) & (REGION_UNITS - 1u);
            store_output(row.start + column, entry & ELEMENT_MASK);
        }
        return;
    }
    for (var i = local; i < rows * ROW_WORDS; i += WORKGROUP_SIZE) {
        let row = region_row(first_row, i / ROW_WORDS, first_column, width);
        let k = i % ROW_WORDS;
        if k < row.words {
            atomicStore(&region_words[i], load_output_word(row.first_word + k));
        }
    }
    workgroupBarrier();
    for (var k = local; k < n; k += WORKGROUP_SIZE) {
        let entry = atomic_load_links(entries_at + k);
        let r = entry >> ENTRY_ROW_SHIFT;
        let row = region_row(first_row, r, first_column, width);
        let unit = row.start + ((entry >> ENTRY_COLUMN_SHIFT) & (REGION_UNITS - 1u));
        let i = r * ROW_WORDS + unit / ELEMENTS_PER_WORD - row.first_word;
        let shift = (unit % ELEMENTS_PER_WORD) * ELEMENT_BITS;
        let mask = ELEMENT_MASK << shift;
        let bits = (entry & ELEMENT_MASK) << shift;
        var old = atomicLoad(&region_words[i]);
        loop {
            let swapped = atomicCompareExchangeWeak(&region_words[i], old, (old & ~mask) | bits);
            if swapped.exchanged {
                break;
            }
            old = swapped.old_value;
        }
    }
    workgroupBarrier();
    for (var i = local; i < rows * ROW_WORDS; i += WORKGROUP_SIZE) {
        let row = region_row(first_row, i / ROW_WORDS, first_column, width);
        let k = i % ROW_WORDS;
        if k < row.words {
            // The word's units that are the region's.
            let word_start = (row.first_word + k) * ELEMENTS_PER_WORD;
            var mask = 0u;
            for (var e = 0u; e < ELEMENTS_PER_WORD; e += 1u) {
                let unit = word_start + e;
                if unit >= row.start && unit < row.start + width {
                    mask |= ELEMENT_MASK << (e * ELEMENT_BITS);
                }
            }
            let value = atomicLoad(&region_words[i]);
            if mask == 0xffffffffu {
                store_output_word(row.first_word + k, value);
            } else {
                store_output_bits(row.first_word + k, mask, value);
            }
        }
    }
}
// @sub-word-end
