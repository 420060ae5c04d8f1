//! The constants of the in-order scatter reduction: the radix sort's and the folds', shared by
//! the host (which sizes scratch and dispatches from them) and the shaders (which get them as
//! generated constants).

use crate::options::Reduction;
use crate::tensor::DataType;

/// Pairs a radix pass moves a workgroup: at most `RADIX_ROUNDS` rounds of one a thread
/// (`IndexParams::radix_rounds`: fewer where that leaves under `RADIX_TILES` workgroups).
pub(crate) const RADIX_ROUNDS: u32 = 16;
/// Workgroups a radix pass aims for before it gives each more rounds.
pub(crate) const RADIX_TILES: u32 = 1024;
/// Histogram entries a thread of the scan takes.
pub(crate) const SCAN_ITEMS: u32 = 8;
/// Histogram entries a thread of `radix_scatter` sums where the histogram is small enough
/// for each of its workgroups to scan it whole (at most this many a thread: 16 tiles), so that
/// `radix_scan_blocks` does not run.
pub(crate) const HISTOGRAM_ITEMS: u32 = 16;
/// Runs longer than this are folded by a workgroup (`fold_long_runs`), not a thread.
pub(crate) const LONG_RUN: u32 = 64;
/// Updates each loading thread of `fold_long_runs` fetches a chunk (8-byte units: half as
/// many, so that the two chunks stay within 8 KiB of workgroup memory).
const LONG_LOADS: u32 = 8;

/// The most updates (or slices) one invocation folds in one dispatch: the library's bound on
/// every loop whose length the data sets. Mesa's llvmpipe and lavapipe silently end an
/// invocation's loops after 65535 iterations in all, counted per SIMD vector of up to 16
/// invocations (`LP_MAX_TGSI_LOOP_ITERATIONS`), and a GPU's watchdog resets a device whose
/// dispatch runs for seconds; a run longer than a pass folds goes on in the next pass, from
/// the partial result the last one stored. A sixteenth of Mesa's limit leaves room for the
/// eight folding invocations of `fold_long_runs` in a vector (`FOLDER_SPACING`: 32,768
/// iterations of its step loops, and its chains' fewer) and for each kernel's other loops.
///
/// The first fold pass of a reduction by slices (`fold_slices`, `fold_slice_columns`,
/// `fold_slice_lists`, `fold_slice_list_columns`) walks as many slices an invocation, though a
/// column fold takes `column_cells` cells of every slice in loops of its own: on lavapipe,
/// first passes of 8192 slices folded lists of about 8400 whole for every type and mode and
/// 16384 lost updates (Float64 Add, lists of about 17000), so 4096 is half the largest bound
/// seen whole. The wide copies as they fold (`fold_slice_list_copy_wide`,
/// `fold_slice_columns_copy_wide`) walk a list or run once a part of their thread's cells, so
/// their first pass walks a part's share on a device that bounds loops (`first_fold_steps`
/// in `src/ops/scatter_plans.rs`): four walks of 4096 lost updates of Float16 products on
/// lavapipe (lists and runs of about 3600 rows). Longer runs and lists go on in the passes
/// after it, whose workgroups split them into turns; where none can be longer (4096 rows of
/// an index_add, the wide copies walking 4096 a part on a GPU), there is no such pass to
/// dispatch. On an H200 against a first pass of 1024: `index_add_rows_f64` 0.0938 -> 0.0910
/// ms; `index_add_rows_f16` 0.0740 -> 0.0706 and 4096 rows of 512 Float32 -3.9 %, of Float16
/// -5.5 % (BENCHMARKS.md, issue 26's column cells, list ties and wide sorted copies).
pub(crate) const FOLD_STEPS: u32 = 4096;
/// Rounds of turns a workgroup of the lists' later passes (`fold_slice_list_runs`) takes on a
/// device that does not bound loops (`DeviceFacts::bounded_loops`; one elsewhere): a pass then
/// walks this many times `SLICE_TURNS` times `FOLD_STEPS` rows of a list (an invocation
/// `LIST_ROUNDS` times `FOLD_STEPS`), so that a table of a million rows of edge messages needs
/// one such pass, not eight. Each pass cost about 2.6 us on an H200 however little it had to
/// walk: `scatter_max_f32_edges` 0.2567 -> 0.2362 ms, in order 0.2761 -> 0.2577
/// (BENCHMARKS.md, issue 26's fixed passes). Not on Mesa's CPU drivers: they count a loop's
/// iterations per vector of up to 16 invocations, two rows of turns, and eight full rounds
/// would take such a vector to 16 walks of 4096, past their 65,535. A workgroup's walk along
/// a list is sequential: one list holding every row makes a pass walk up to 8 x 32 x 4096
/// rows one after another (a million; eight times a pass's walk before the rounds). Only the
/// lists `LIST_BOUND` does not bound go on past the first pass: 8-byte units' without every
/// 64-bit atomic, and those whose mean is past a quarter of the first pass's walk.
pub(crate) const LIST_ROUNDS: u32 = 8;
/// Spans of `FoldSpans::long_span` updates a `fold_long_runs` workgroup folds in a pass where
/// the device does not bound loops (`DeviceFacts::bounded_loops`) and the kernel folds by the
/// hardware's chain ([`folds_by_chain`]); one elsewhere. One after another, each as a pass of
/// one span folds it (its loops entered afresh): 4 Mi updates in order need one pass, not
/// sixteen, each pass beyond the first costing its dispatch however little was left to fold
/// (H200: 3 to 6 % of the in-order single-element shapes; BENCHMARKS.md, issue 26's sixth
/// session). A pass is one workgroup's sequential fold: by the chain 4 Mi updates took 21
/// (Float32) and 71 ms (Float64) on an H200; by the exact step, where a chunk's checks fail
/// (subnormals), up to 112 ns an update, 0.47 s a pass of 16 spans, as long as the lists'
/// longest walk (`LIST_ROUNDS`); the kernels without the chain keep one span a pass (29 ms).
pub(crate) const LONG_ROUNDS: u32 = 16;
/// The least bound on the rows of a block the lists of a reduction in any order hold (and of
/// float Min and Max in order, `ListTies`), units of at most 4 bytes, and 8-byte ones where
/// the device has every 64-bit atomic (`link_slices`; `InOrderParams::spill_bound`, four times the rows a block on average
/// where that is more: `src/ops/scatter_lists.rs`'s `list_bound`): a block's later rows are
/// set aside, and `reduce_spilled_rows` combines them into the output after the lists' fold,
/// a workgroup a run of them, each thread's column held while the block stays the same. A
/// list is walked one row after another (about 0.47 us a row on an H200, once a part of a
/// wide copy's cells), so a hub (a quarter of 262,144 rows of 64 onto one) took 36 to 47 ms by
/// the lists alone on an H200, and bounded 0.22 to 0.36 ms (a fixed bound of 128: 0.41 to
/// 1.01; BENCHMARKS.md, issue 26's hubs).
pub(crate) const LIST_BOUND: u32 = 32;
/// Rounds of a workgroup's width of set-aside rows a workgroup of `reduce_spilled_rows`
/// takes: more rows a workgroup walk longer, fewer exchanges land on a hub's units. On an
/// H200 (BENCHMARKS.md, issue 26's hubs), a quarter of 262,144 rows of 64 onto one: Float16 /
/// Float32 Add, Float32 Max 0.354 / 0.244 / 0.221 ms in rounds of 4; of 1, 0.608 / 0.372 /
/// 0.168; of 16, 0.601 / 0.443 / 0.443.
pub(crate) const SPILL_ROUNDS: u32 = 4;
/// Cells a thread of the column folds takes (`fold_slice_columns`, `fold_slice_list_columns`;
/// a cell: a word of units narrower than a word, else a unit), a thread's cells as many apart
/// as its group has threads, so that neighbouring threads take neighbouring cells. Measured
/// on an H100 (BENCHMARKS.md, issue 26): two beat one (Float16 rows 0.104 -> 0.103 ms, Float32
/// rows 0.514 -> 0.409, edge messages 0.331 -> 0.309) but for rows of 16 Float64 units
/// (0.021 -> 0.025); four cells, on an H200, were slower than one on Float16 and Float64 rows
/// (their arithmetic in software: a thread's registers fill before its loads overlap). On an
/// H200 later (issue 26's column cells), one cell for units narrower than a word: Float16
/// index_add rows 5 to 11 % faster by the lists (their copy still 16 bytes a thread, its
/// listed blocks folded a word at a time), edge messages 10 % and in order 14 %, in-order rows
/// -5 to +2 %; Float32 one cell: edges into few nodes 3 to 10 % faster, the others up to 7 %
/// slower and ScatterND rows in order 31 %; Float64 the same either way; four cells slower
/// but on a few Float32 shapes (Float64's listed rows 42 to 52 %, Float16's up to 60 %).
pub(crate) fn column_cells(unit_bytes: u32) -> u32 {
    if unit_bytes < 4 { 1 } else { 2 }
}

/// Bytes a thread of the wide fold that copies as it folds (`fold_slice_list_copy_wide`)
/// takes: most of its threads only copy, and at 8 bytes a thread (two Float16 cells) an H100
/// copied a table at 2.15 TB/s, too few loads in flight, where Float64's 16 reached 2.5. A
/// thread whose block has a list folds its cells `column_cells` at a time: four Float16
/// cells folded at once took index_add 0.091 -> 0.128 ms (their software arithmetic's
/// registers).
const COPY_BYTES: u32 = 16;

/// Cells a thread of `fold_slice_list_copy_wide` takes: `COPY_BYTES` of them, a multiple of
/// `column_cells` (`fold_slice_list_copy` takes `column_cells`).
pub(crate) fn copy_cells(unit_bytes: u32) -> u32 {
    let cell_bytes = units_per_word(unit_bytes) * unit_bytes;
    (COPY_BYTES / cell_bytes).max(column_cells(unit_bytes))
}

/// Units a word holds (8-byte units: one a cell).
pub(crate) fn units_per_word(unit_bytes: u32) -> u32 {
    (4 / unit_bytes.clamp(1, 4)).max(1)
}

/// Threads between two folders of `fold_long_runs` (all below the loaders), so that a vector
/// of 16 holds eight.
const FOLDER_SPACING: u32 = 2;
/// Columns of a `fold_slice_runs` workgroup; its rows of threads take turns along the run
/// (a vector of 16 holds two rows: 2 * FOLD_STEPS / 4 batches of four slices, each batch's
/// fold a loop of 4).
pub(crate) const SLICE_TILE: u32 = 8;

/// What one pass of the in-order folds covers of a run, for a workgroup of `workgroup_size`
/// threads (a power of two of at least 32) and units of `unit_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FoldSpans {
    /// Updates `fold_long_runs` takes in a chunk (its loaders' loads).
    pub long_chunk: u32,
    /// Chunks a folder of `fold_long_runs` takes before the next one (FOLD_STEPS updates).
    pub folder_chunks: u32,
    /// Updates of a run a `fold_long_runs` workgroup folds in one pass.
    pub long_span: u32,
    /// Rows of `fold_slice_runs` threads that take turns, and the slices they fold a pass.
    pub slice_turns: u32,
    pub slice_span: u32,
}

impl FoldSpans {
    pub fn new(workgroup_size: u32, unit_bytes: u32) -> FoldSpans {
        let workgroup = workgroup_size.max(SLICE_TILE);
        let loaders = workgroup - workgroup / 2;
        let long_loads = if unit_bytes == 8 {
            LONG_LOADS / 2
        } else {
            LONG_LOADS
        };
        let long_chunk = loaders * long_loads;
        let folder_chunks = (FOLD_STEPS / long_chunk).max(1);
        let folders = (workgroup / 2 / FOLDER_SPACING).max(1);
        let slice_turns = workgroup / SLICE_TILE;
        FoldSpans {
            long_chunk,
            folder_chunks,
            long_span: folders * folder_chunks * long_chunk,
            slice_turns,
            slice_span: slice_turns * FOLD_STEPS,
        }
    }
}

/// Whether `fold_long_runs` folds a chunk by the hardware's chain of operations, checked
/// beside it (`FAST_CHAIN`): Float32 Add and Mul, and Float64's where the module has the
/// device's f64 (its hardware-float64 section).
pub(crate) fn folds_by_chain(
    data_type: DataType,
    reduction: Reduction,
    hardware_float64: bool,
) -> bool {
    matches!(reduction, Reduction::Add | Reduction::Mul)
        && (data_type == DataType::Float32 || (data_type == DataType::Float64 && hardware_float64))
}

/// The sorted in-order path's constants (`shaders/sort.wgsl`, `scatter_runs.wgsl`,
/// `scatter_slice_runs.wgsl`, `scatter_lists.wgsl`), as WGSL declarations.
/// The radix digit has log2 `workgroup_size` bits, a digit a thread; the host takes that path
/// only for workgroups of a power of two of at least 32 threads (`RADIX_BITS` is then exact).
/// `hardware_float64`: the module has the device's f64 (Float64's fast chain takes it).
pub(super) fn sort_constants(
    workgroup_size: u32,
    data_type: DataType,
    reduction: Reduction,
    hardware_float64: bool,
) -> String {
    let radix_bits = workgroup_size.max(1).ilog2();
    let mask_words = (workgroup_size * (workgroup_size / 32)).max(1);
    let spans = FoldSpans::new(workgroup_size, data_type.size_in_bytes());
    let long_loads = if data_type.size_in_bytes() == 8 {
        LONG_LOADS / 2
    } else {
        LONG_LOADS
    };
    let fast_chain = folds_by_chain(data_type, reduction, hardware_float64);
    // 8-byte units travel as (low, high) word pairs (shaders/units.wgsl).
    let unit_bytes = data_type.size_in_bytes();
    let unit_words = if unit_bytes == 8 { 2 } else { 1 };
    // Units a word holds, and their bits (narrow units; 8-byte ones never ask).
    let units_per_word = units_per_word(unit_bytes);
    let constants = [
        ("RADIX_BITS", radix_bits),
        ("RADIX_ROUNDS", RADIX_ROUNDS),
        ("RADIX_MASK_WORDS", mask_words),
        ("SCAN_ITEMS", SCAN_ITEMS),
        ("HISTOGRAM_ITEMS", HISTOGRAM_ITEMS),
        ("SCAN_BLOCK", workgroup_size * SCAN_ITEMS),
        ("LONG_RUN", LONG_RUN),
        ("LONG_LOADS", long_loads),
        ("LONG_CHUNK", spans.long_chunk),
        ("LONG_CHUNK_PAIR", 2 * spans.long_chunk),
        ("UNIT_WORDS", unit_words),
        ("FOLD_STEPS", FOLD_STEPS),
        ("COLUMN_CELLS", column_cells(unit_bytes)),
        ("COLUMN_UNITS", column_cells(unit_bytes) * units_per_word),
        ("COPY_CELLS", copy_cells(unit_bytes)),
        ("UNITS_PER_WORD", units_per_word),
        ("UNIT_BITS", 32 / units_per_word),
        ("FOLDER_CHUNKS", spans.folder_chunks),
        ("FOLDER_SPACING", FOLDER_SPACING),
        ("LONG_SPAN", spans.long_span),
        ("SLICE_TILE", SLICE_TILE),
        ("SLICE_TURNS", spans.slice_turns),
        ("SLICE_SPAN", spans.slice_span),
        ("LIST_ROUNDS", LIST_ROUNDS),
        ("LONG_ROUNDS", LONG_ROUNDS),
        ("SPILL_ROUNDS", SPILL_ROUNDS),
    ];
    let mut text: String = constants
        .iter()
        .map(|(name, value)| format!("const {name}: u32 = {value}u;\n"))
        .collect();
    text += &format!("const FAST_CHAIN: bool = {fast_chain};\n");
    text
}
