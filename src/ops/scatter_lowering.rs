//! How a scatter runs: [`Strategy`], chosen once from the operator and the device
//! (`ops/scatter_steps.rs` emits its steps).

use super::index_map::{Grouping, IndexMap, optimised};
use super::scatter_any_update::scatter_grouping;
use super::scatter_bins::{BIN_RANGES, Bins, NATIVE_BIN_RANGES, WideSlots};
use super::scatter_copies::{copies_as_it_folds, copy_only, in_place, output_copy, screen_copies};
use super::scatter_float_add::FLOAT_ADD_KERNEL;
use super::scatter_lists::ListPlan;
use super::scatter_plans::{SORT_MOST_UPDATES, SortPlan, combines_rows};
use super::scatter_steps::emit;
use crate::error::Result;
use crate::kernels::{BIN_CAPACITY, Entry, Kernel, ReduceOrder, RowKernel, folds_by_chain};
use crate::lowering::{DeviceFacts, Int64Atomics, Lowered, Placement};
use crate::options::{DuplicateMode, Reduction};
use crate::status::IndexReport;
use crate::tensor::{DataType, TensorDesc};

/// Slices at least this wide are reduced by slices in any order too (see [`Strategy`]).
const SLICES_IN_ANY_ORDER: u64 = 64;

/// Rows that lists would take go unit by unit where the updates' units are at most a
/// `sparse_rows_share(unit bytes)`th of the output's: then most blocks have no list, and out
/// of place the vector copy `output = input` and an exchange (or atomic) an update unit beat
/// the lists' clears, links and their copy as they fold, a word a cell (on an H200, 1.2 to 2
/// times the vector copy's time); in place (no copy either way) the element path's work is
/// small. Measured out of place on an H200 (BENCHMARKS.md, issue 26's sparse rows): 16 rows of
/// 1024 units into 32768, Float16 0.0601 -> 0.0483 ms, Float32 0.0851 -> 0.0767, Float64
/// 0.1530 -> 0.1402; 1024 rows (a 32nd), Float32 0.0892 -> 0.0871, Float64 0.1572 -> 0.1531,
/// but Float16 (two units a word: neighbours' exchanges collide) 0.0661 -> 0.0666; 2048 rows (a
/// 16th), Float32 0.0956 -> 0.0978. Denser shares probed since (BENCHMARKS.md, issue 26's
/// sixth session: 16, 4 and 1 for every width) made no shape faster by more than 1 %: 64 Ki
/// edge messages of 64 Float32 Max into 262,144 nodes (a quarter) 0.084 -> 0.108 ms unit by
/// unit (the lists have sped up since an earlier 14 % the other way), the index_add rows at a
/// 16th to a half of the table 3 to 79 % slower; in place, where the lists fold only the
/// listed rows, not measured: left to the lists.
fn sparse_rows_share(unit_bytes: u32) -> u64 {
    if unit_bytes < 4 { 64 } else { 32 }
}

/// Rows in any order go unit by unit, not by the lists, where they average more than this
/// many a block: a block's list is walked one row after another, a dependent load a row
/// (about 0.3 us each on an H200 in the first pass's walks), where the element path combines
/// a small output's units in workgroup bins or slots (or the element sort orders them, for
/// 8-byte units without 64-bit atomics). Measured on an H200 (BENCHMARKS.md, issue 26's rows
/// into few targets): 65,536 rows of 64 into 1 to 64 rows and 4096 of 1024 into 1 or 4 (1024
/// to 65,536 rows a block) 7 to 590 times faster unit by unit (Float32 65,536 x 64 into one
/// row 19.0 -> 0.039 ms, into 64 0.585 -> 0.073); at 256 rows a block Float16 and Float64
/// faster by the lists (65,536 x 64 into 256: 0.23 against 0.32 to 0.38 ms), Float32 by the
/// f32 atomics (0.026 against 0.18); at 64 and fewer, the lists as fast or faster. A skew the
/// mean does not see (one block's list holding most rows) is bounded by `link_slices`, which
/// sets rows past four times the mean aside (`LIST_BOUND` in `src/kernels/in_order.rs`).
/// (Rows onto more than `BIN_CAPACITY` units are sorted and combined from
/// `SORTED_ROWS_MEAN` a block on where the device can sort, 8-byte ones where it has every
/// 64-bit atomic: this rule is left to small outputs, to devices that cannot sort and to
/// 8-byte rows without those atomics.)
const CROWDED_LIST_ROWS: u64 = 512;
/// ... and this many where the rows are Float32 Add that the f32 atomics may take (onto
/// outputs past the bins; onto smaller ones the bins take them), a warp's atomics onto
/// neighbouring words (H200: 4096 rows of 1024 into 64 rows, 64 a block, 0.053 -> 0.026 ms,
/// 65,536 rows of 64 into 256, 256 a block, 0.187 -> 0.026; at 16 a block the same either
/// way, 0.027 and 0.026; at 2 a block, `scatter_add_rows`, 0.278 by the lists against 0.384,
/// and 4096 rows of 4096 into 16,384, a quarter a block, 0.203 against 0.217).
const CROWDED_ATOMIC_ROWS: u64 = 16;
/// ... and onto outputs of at most this many units (any, where the f32 atomics take them):
/// past them the element path's bins go a range at a time, re-reading every update, or
/// compare-exchange at each crowded unit. 262,144 rows of 256 (H200, the same section) into
/// 1, 4 and 16 rows (256 to 4096 units) 1.0 to 17 times faster unit by unit (Float16 into 16
/// 10.8 both ways), into 64 (16,384 units) Float16 3.5 against 3.9 ms but Float64 5.6 against
/// 4.8 and by the element sort 8.7 against 4.8 (Float32 without f32 atomics 2.1 against 4.1),
/// into 256 (65,536 units) Float16 2.4 against 1.1 and by the sort 11.3 against 1.3.
const CROWDED_OUTPUT_UNITS: u64 = 4096;

/// Rows in any order onto more than the bins' units are sorted by block and combined across
/// workgroups (`reduce_sorted_rows`; 8-byte units by 64-bit atomics, where the device has
/// every one), not walked along lists nor taken unit by unit, where they average at least
/// this many a block (but where the f32 atomics take them):
/// a list is walked one row after another, and unit by unit a crowded output costs a range of
/// bins at a time or an exchange an update, where the sorted rows cost a sort of the rows (a
/// pass or two for a few thousand blocks) and an exchange a block a workgroup. On an H200
/// (BENCHMARKS.md, issue 26's sorted rows), Float16 Add: 262,144 rows of 256 into 16, 64 and
/// 256 rows 0.90 / 3.80 / 1.12 -> 0.44 / 0.39 / 0.37 ms; 4096 of 1024 into 16 and 65,536 of
/// 64 into 256 (256 a block) 0.22 / 0.25 -> 0.056 / 0.057. At 64 a block the lists won for a
/// million edge messages of 64 Float32 (Max into 16,384: 0.286 against 0.356) and lost for
/// 4096 rows of 1024 Float16 (0.071 against 0.048); at 16 they won both ways. Float64 (issue
/// 26's 8-byte rows): 262,144 rows of 256 into 16, 64 and 256 rows 1.27 / 4.65 / 1.27 -> 0.37
/// / 0.35 / 0.35 ms; 4096 of 1024 into 4 and 16 (onto 4096 and 16,384 units) 0.120 / 0.214 ->
/// 0.059 / 0.042; 65,536 of 64 into 64 and 256 0.124 / 0.233 -> 0.056 / 0.051.
const SORTED_ROWS_MEAN: u64 = 128;
/// ... and from this many where rows have at least `SORTED_LONG_ROWS` units: 4096 rows of
/// 1024 into 64 (64 a block) Float64 0.075 ms by the lists, 0.040 sorted; Float16 0.071 and
/// 0.048 (short rows at 64 a block, above, favour the lists).
const SORTED_LONG_ROWS_MEAN: u64 = 64;
const SORTED_LONG_ROWS: u64 = 1024;

/// Float Min and Max in order by rows take the lists where the rows average at most this many
/// a block; longer lists fold slower than the sorted runs (BENCHMARKS.md, issue 26's in-order
/// edges).
const LIST_TIES_MEAN_ROWS: u64 = 64;
/// ... and where their tie words (one an output unit) are at most this many an update unit: 64
/// Ki rows of 64 Float32 units into 262,144 (4 words an update) took 0.136 ms by the lists
/// against the sort's 0.156 on an H200 (BENCHMARKS.md, issue 26's tie words), and 0.098 once
/// the first pass settled the ties of the lists it ends (issue 26's list ties). The tie words
/// are now only written for lists that go on past the first pass or whose blocks' rows past
/// the bound were set aside, but they are still reserved
/// scratch, 4 bytes an output unit: this bounds them by the updates.
const LIST_TIE_WORDS: u64 = 4;
/// The most updates an output unit where Float32 Min and Max take the sign atomics. On an H200
/// (BENCHMARKS.md, issue 26's sign atomics): one an output unit, 16 Mi of them, 8 to 17 %
/// faster than the loop alone; sixteen (1 Mi edge messages of 16 units into 65536 nodes), 14 %
/// faster on positive values but 12 % slower on values of either sign.
const SIGN_ATOMICS_CROWD: u64 = 4;

/// A scatter's tensors and options, as its desc gives them.
pub(super) struct Scatter<'a> {
    pub input: &'a TensorDesc,
    pub output: &'a TensorDesc,
    pub updates: &'a TensorDesc,
    /// The index map before optimisation (the out-of-range report decodes against it).
    pub map: IndexMap,
    /// Per indices dimension, the updates' dimension holding its coordinate.
    pub positions: Vec<Option<usize>>,
    /// Whether indices come in tuples (ScatterND).
    pub tuples: bool,
    pub reduction: Reduction,
    pub duplicates: DuplicateMode,
    /// No two updates can aim at one element (TensorScatter): plain stores of any width
    /// cannot interleave, so 8-byte elements need no in-order pass.
    pub distinct_targets: bool,
}

impl Scatter<'_> {
    /// How the status's out-of-range position decodes, for the steps lowered with `map`.
    pub fn index_report(&self, map: &IndexMap) -> IndexReport {
        self.map.report(
            map,
            &self.updates.sizes,
            self.positions.clone(),
            self.tuples,
        )
    }
}

/// How a scatter runs, with the facts that chose it.
pub(super) enum Strategy {
    /// No reduction, any update wins: one pass shaped by the rows (`grouping`).
    /// ScatterElements along an inner axis may take a workgroup a row instead: out of place
    /// copying each output row as it scatters into it (`copy_rows`: the rows and their
    /// length in units), in place with 1- and 2-byte units reading each row from the output
    /// and writing it back whole (`rows_in_place`: the rows of updates and the length).
    AnyUpdate {
        grouping: Grouping,
        copy_rows: Option<(u32, u32)>,
        rows_in_place: Option<(u32, u32)>,
    },
    /// No reduction, in order (the last update wins; 8-byte elements always): a claim pass,
    /// then the winners write (4 bytes of scratch an output unit).
    InOrder,
    /// A reduction by atomics, up to `REDUCE_GROUP` updates a thread; or with `bins`, where the
    /// output has at most `BIN_CAPACITY` units (by compare-exchange `BIN_RANGES` times that,
    /// and `NATIVE_BIN_RANGES` times for the integers' own atomics and for Float32 Add that the
    /// f32 atomics could take; a range a workgroup: [`Bins`]), into each workgroup's own bins
    /// first (up to `BIN_GROUP` updates a thread). `ties`: float Min and Max in order, where a pass
    /// before and one after give tied zeros and NaNs the bits of the first in order (4 bytes
    /// of scratch an output unit): over the updates, or where `claims_as_placed` over the
    /// output's units, the updates claiming as the pass places them. `wide`: 8-byte Float64
    /// and integer Mul by 64-bit compare-exchange, after a thread's and a workgroup's updates
    /// of a target combine (onto a small output as partials folded by `fold_partials`).
    /// `float_atomics`:
    /// Float32 Add by the device's f32 atomics, each update whose value is safe for them
    /// onto an output whose values are, then the compare-exchange pass for the rest
    /// (`ReduceOrder::Screened`, gated on a status word). `sign_atomics`: Float32 Min and Max
    /// take their side of the sign by atomicMax after a screen of the output's NaNs, a pass
    /// after for the NaN updates they leave (`BinParams::sign_atomics`). `screen_copies`:
    /// out of place, the screen of the output before the float atomics or the claims as
    /// placed copies `output = input` as it reads ([`screen_copies`]), in place of the copy.
    AnyOrderReduction {
        ties: bool,
        claims_as_placed: bool,
        sign_atomics: bool,
        screen_copies: bool,
        bins: Option<Bins>,
        wide: Option<WideSlots>,
        float_atomics: bool,
    },
    /// An in-order reduction: updates (or rows of `slice_units` units sharing an index
    /// tuple) sorted by target, each run folded; or rows in any order crowded onto few
    /// blocks, sorted by block and combined across workgroups ([`SortPlan::combining_rows`]).
    SortedRuns(SortPlan),
    /// A reduction by rows in any order: the rows of each output block linked into a list,
    /// each column folded along it; float Min and Max in order too, their zeros and NaNs
    /// claiming their units by position (`ReduceOrder::ListTies`, [`ListPlan::new`]'s tie units).
    RowLists(ListPlan),
}

/// What every strategy shares: the optimised map, the kernel, and the output's units.
pub(super) struct Chosen {
    pub strategy: Strategy,
    pub map: IndexMap,
    pub kernel: Kernel,
    /// The output's units (its bytes, gaps of strided layouts included): the keys of an
    /// in-order reduction, or its blocks' units by rows.
    pub output_units: u64,
    /// The device facts the steps are made for (`per_element` settled).
    pub device: DeviceFacts,
}

impl Strategy {
    /// Scratch bytes (`Role::Winners` or `Role::Heads`) and links bytes (`Role::Links`).
    pub fn scratch(&self, output_units: u64) -> (u64, u64) {
        match self {
            Strategy::AnyOrderReduction {
                wide: Some(wide), ..
            } => (wide.scratch_bytes(), 0),
            // Bins that leave partials (`ReduceOrder::AnyWithPartials`, which binds the heads).
            Strategy::AnyOrderReduction {
                ties: false,
                bins: Some(bins),
                ..
            } if bins.partial_groups > 0 => (bins.scratch_bytes().max(16), 0),
            Strategy::AnyUpdate { .. } | Strategy::AnyOrderReduction { ties: false, .. } => (0, 0),
            Strategy::InOrder | Strategy::AnyOrderReduction { ties: true, .. } => {
                (output_units * 4, 0)
            }
            Strategy::SortedRuns(plan) => (plan.heads_bytes(), plan.links_bytes()),
            Strategy::RowLists(plan) => (plan.heads_bytes(), plan.links_bytes()),
        }
    }
}

/// The steps of a scatter: zero the scratch (if any), copy `input` to `output` unless in
/// place, scatter (or reduce) as the strategy says, then report the first out-of-range index
/// if there was one (and zero the status words for the next execution). With no updates,
/// only the copy ([`copy_only`]); with updates into an empty output, only the index check
/// ([`index_check_only`]).
pub(super) fn lower(scatter: &Scatter, device: &DeviceFacts) -> Result<Lowered> {
    if scatter.updates.is_empty() {
        return Ok(copy_only(scatter, device));
    }
    if scatter.output.is_empty() {
        return Ok(index_check_only(scatter, device));
    }
    // Where the first choice's dispatches would bind only some windows of a tensor: first
    // without the first fold that copies as it folds (which binds the input beside every
    // window of the lists or sorted runs), then for entry points where every element checks
    // its own windows.
    let mut chosen = choose(scatter, device, true)?;
    if !device.per_element {
        let binds_partially = |chosen: &Chosen| {
            let (scratch, links) = chosen.strategy.scratch(chosen.output_units);
            let mut kernels = vec![chosen.kernel];
            kernels.extend(copy_kernels(
                scatter,
                &chosen.strategy,
                chosen.kernel,
                device,
            ));
            device.binds_partially(&kernels, scratch, links)
        };
        if binds_partially(&chosen) {
            chosen = choose(scatter, device, false)?;
        }
        if binds_partially(&chosen) {
            let per_element = DeviceFacts {
                per_element: true,
                ..*device
            };
            chosen = choose(scatter, &per_element, false)?;
        }
    }
    emit(scatter, chosen)
}

/// Updates into an empty output: an indexed dimension is empty, so every update's index is
/// out of range. The plain scatter's pass (one element a thread) finds the first and writes
/// nothing, whatever the reduction and duplicate mode (`record` binds its own placeholder for
/// the empty output); then the report.
fn index_check_only(scatter: &Scatter, device: &DeviceFacts) -> Lowered {
    let map = optimised(&scatter.map, device);
    let kernel = Kernel::Scatter {
        unit: map.unit(),
        in_order: false,
        rows: RowKernel::No,
    };
    let single = Grouping {
        entry: Entry::Scatter,
        units_per_thread: 1,
        group_units: 1,
    };
    Lowered {
        steps: vec![
            map.dispatch(kernel, single, Placement::Always),
            map.describe_step(kernel),
        ],
        scratch_bytes: 0,
        links_bytes: 0,
        index_report: Some(scatter.index_report(&map)),
        in_place: in_place(scatter),
        zero_indices_bytes: 0,
    }
}

/// The kernels that copy `input` to `output` under `strategy` (`kernel` the chosen one):
/// the copy's own, the one that copies rows as it scatters, or the one that copies as it
/// folds rows' lists or sorted runs.
fn copy_kernels(
    scatter: &Scatter,
    strategy: &Strategy,
    kernel: Kernel,
    device: &DeviceFacts,
) -> Vec<Kernel> {
    match strategy {
        Strategy::AnyUpdate {
            copy_rows: Some(_), ..
        } => vec![Kernel::Scatter {
            unit: optimised(&scatter.map, device).unit(),
            in_order: false,
            rows: RowKernel::Copying,
        }],
        Strategy::RowLists(plan) if plan.copies() => vec![kernel.copying()],
        Strategy::SortedRuns(plan) if plan.copies() => vec![kernel.copying()],
        Strategy::AnyOrderReduction {
            screen_copies: true,
            float_atomics,
            ..
        } => vec![if *float_atomics {
            FLOAT_ADD_KERNEL.copying()
        } else {
            kernel.copying()
        }],
        _ => output_copy(scatter.input, scatter.output).kernels(device),
    }
}

/// The strategy for `scatter` on `device`; `copy_as_it_folds`: the first fold of rows'
/// lists or sorted runs may copy `output = input` itself ([`copies_as_it_folds`]).
fn choose(scatter: &Scatter, device: &DeviceFacts, copy_as_it_folds: bool) -> Result<Chosen> {
    let data_type = scatter.input.data_type;
    let element_bytes = data_type.size_in_bytes();
    let reducing = scatter.reduction != Reduction::None;
    // Reductions combine elements as numbers: never widened to runs of several.
    let map = if reducing {
        scatter.map.merged()
    } else {
        optimised(&scatter.map, device)
    };
    let output_units = scatter
        .output
        .size_in_bytes()
        .div_ceil(map.element_bytes as u64);
    // Integer Add and Mul wrap around, and Min and Max of integers pick a value, not one of
    // several equal bit patterns: every order gives the in-order result's bits, so an
    // in-order integer reduction takes the any-order path.
    let order_free = reducing && !data_type.is_float();
    // In the updates' order (else any order).
    let ordered = scatter.duplicates == DuplicateMode::InOrder && !order_free;
    // The kernel's f64 section: only Float64 Add and Mul have f64 arithmetic to do.
    let hardware_float64 = device.hardware_float64
        && data_type == DataType::Float64
        && matches!(scatter.reduction, Reduction::Add | Reduction::Mul);
    // 8-byte reductions whose order may change (any order, or integers) take one 64-bit
    // atomic an update where the device has them: integer Min and Max with the least of
    // them, every other one (integer Add; Float64 and integer Mul, by compare-exchange) with
    // every 64-bit atomic.
    let wide_atomics = reducing
        && element_bytes == 8
        && !ordered
        && match scatter.reduction {
            Reduction::Min | Reduction::Max if !data_type.is_float() => {
                device.int64_atomics >= Int64Atomics::MinMax
            }
            _ => device.int64_atomics == Int64Atomics::All,
        };
    // Plain 8-byte stores are two words that another thread's may interleave with: other
    // 8-byte elements always go in order.
    let in_order = ordered || (element_bytes == 8 && !scatter.distinct_targets && !wide_atomics);
    // Float Min and Max pick a number, the same in every order; only the bits of tied zeros
    // and NaNs depend on it, and two light passes around the any-order one settle those
    // (claim_ties, write_ties: update positions ranked below 2^31 - 1).
    let ties = reducing
        && in_order
        && element_bytes < 8
        && matches!(scatter.reduction, Reduction::Min | Reduction::Max)
        && map.invocations() < 0x7fff_ffff;
    // Rows of units sharing one index tuple (ScatterND's rows) can be reduced as rows: in
    // order always (but where the tie passes do it), sorted by the block they land on; in
    // any order too where they are wide, linked into a list a block (4 bytes a row), which
    // beats a compare-exchange an update (but where the rows are few against the output:
    // `sparse_rows_share`) (every window bound: not element by element; in
    // order only where the device can sort or the ties are claimed, else the tie passes
    // serve). Only where each row lands on its own aligned block: then no two units of a row
    // share a target, and one key a block is enough.
    let slice_units = map.slice_units();
    let sortable = device.workgroup_size.is_power_of_two() && device.workgroup_size >= 32;
    // Float Min and Max in order by wide rows take the lists too, their zeros and NaNs
    // claiming their units by position: a tie word an output unit, where that is at most
    // LIST_TIE_WORDS an update unit (else the sort, whose scratch goes by the rows), and where
    // the lists are short enough to fold faster than sorted runs.
    let list_ties = ties
        && output_units <= LIST_TIE_WORDS.saturating_mul(map.invocations())
        && output_units < 0x7fff_ffff
        && map.invocations() <= LIST_TIES_MEAN_ROWS.saturating_mul(output_units);
    // Wide rows few against the output go unit by unit (`sparse_rows_share`); not those that
    // only the sort keeps in order (`in_order && !ties`).
    let sparse_rows = reducing
        && (!in_order || ties)
        && !device.per_element
        && slice_units >= SLICES_IN_ANY_ORDER
        && map.slices_fill_blocks()
        && map
            .invocations()
            .saturating_mul(sparse_rows_share(element_bytes))
            <= output_units;
    // Float32 Add by the device's f32 atomics (after a screen that reads the output once):
    // past the bins, where the updates are at least a quarter of the output's units (so
    // that the screen costs less than the exchanges it spares), no tensor in windows.
    let float_atomics_fit = device.float32_atomics
        && data_type == DataType::Float32
        && scatter.reduction == Reduction::Add
        && !ties
        && !device.per_element
        && 4 * map.invocations() >= output_units
        // The screen's invocations, a workgroup past them within u32 (as every count).
        && output_units + device.workgroup_size as u64 <= u32::MAX as u64
        && device.bindings.is_none_or(|bindings| {
            bindings
                .bytes
                .iter()
                .all(|&bytes| bytes <= bindings.max_storage_buffer_binding_size)
                && bindings.max_storage_buffers_per_shader_stage as usize
                    >= FLOAT_ADD_KERNEL.bindings().len()
        });
    // Rows many against the output's blocks in any order go unit by unit (CROWDED_LIST_ROWS,
    // and fewer, CROWDED_ATOMIC_ROWS, where the f32 atomics take them): a block's list is
    // walked one row after another. Only onto small outputs (CROWDED_OUTPUT_UNITS) but by the
    // f32 atomics; 8-byte units without 64-bit atomics where the element sort takes them.
    // Rows in any order crowded onto their blocks (8-byte ones where the device has every
    // 64-bit atomic, which RowsWide's combining kernel takes): sorted, then combined, where the
    // device binds the in-order kernel's storage buffers (downlevel devices, 4 a stage, keep
    // the element path).
    let in_order_storage_fits = device.bindings.is_none_or(|bindings| {
        let in_order_kernel = Kernel::ScatterReduce {
            data_type,
            reduction: scatter.reduction,
            order: ReduceOrder::InOrder,
            copies: false,
            hardware_float64: false,
        };
        bindings.max_storage_buffers_per_shader_stage as usize >= in_order_kernel.bindings().len()
    });
    // Rows of many units sort from fewer a block (SORTED_LONG_ROWS_MEAN).
    let sorted_mean = if slice_units >= SORTED_LONG_ROWS {
        SORTED_LONG_ROWS_MEAN
    } else {
        SORTED_ROWS_MEAN
    };
    let sorted_rows = reducing
        && in_order_storage_fits
        && !ordered
        && output_units > BIN_CAPACITY as u64
        && combines_rows(element_bytes, device)
        && !float_atomics_fit
        && !device.per_element
        && sortable
        && slice_units >= SLICES_IN_ANY_ORDER
        && map.slices_fill_blocks()
        && map.invocations() / slice_units <= SORT_MOST_UPDATES as u64
        && map.invocations() / slice_units
            >= sorted_mean.saturating_mul(output_units.div_ceil(slice_units));
    let crowd = if float_atomics_fit {
        CROWDED_ATOMIC_ROWS
    } else {
        CROWDED_LIST_ROWS
    };
    let crowded_rows = reducing
        && !ordered
        && !sorted_rows
        && slice_units >= 2
        && (float_atomics_fit || output_units <= CROWDED_OUTPUT_UNITS)
        && (!in_order || (sortable && map.invocations() <= SORT_MOST_UPDATES as u64))
        && map.invocations() / slice_units
            > crowd.saturating_mul(output_units.div_ceil(slice_units));
    let by_rows = reducing
        && !sparse_rows
        && !crowded_rows
        && slice_units >= 2
        && map.slices_fill_blocks()
        && ((in_order && !ties)
            || (!device.per_element
                && slice_units >= SLICES_IN_ANY_ORDER
                && (sortable || !ordered || list_ties)));
    let slice_units = if by_rows { slice_units } else { 1 };
    let pairs = map.invocations() / slice_units;
    let blocks = output_units.div_ceil(slice_units);
    let (strategy, order) = if !reducing && in_order {
        (Strategy::InOrder, ReduceOrder::InOrder)
    } else if !reducing {
        let strategy = Strategy::AnyUpdate {
            grouping: scatter_grouping(&map, device),
            copy_rows: map.copy_rows(scatter.input, scatter.output, device),
            rows_in_place: map.rows_in_place(scatter.input, scatter.output, device),
        };
        (strategy, ReduceOrder::Any)
    } else if sorted_rows {
        // (`by_rows` too.) The copy goes first: the combining pass reads rows, not blocks.
        let plan = SortPlan::new(pairs, blocks, slice_units, element_bytes, false, device)?
            .combining_rows();
        (Strategy::SortedRuns(plan), ReduceOrder::InOrder)
    } else if by_rows && (!ordered || list_ties) {
        // Rows in any order (the default mode, or order-free types) need no sort: lists.
        let copies = copy_as_it_folds && copies_as_it_folds(scatter, &map, slice_units);
        // `list_ties` keeps the output's units below 2^31 - 1 (as the updates').
        let tie_units = ordered.then_some(output_units as u32);
        let plan = ListPlan::new(
            pairs,
            blocks,
            slice_units,
            element_bytes,
            copies,
            tie_units,
            device,
        )?;
        if ordered {
            (Strategy::RowLists(plan), ReduceOrder::ListTies)
        } else {
            (Strategy::RowLists(plan), ReduceOrder::InOrder)
        }
    } else if by_rows || (in_order && !ties) {
        let copies = copy_as_it_folds && copies_as_it_folds(scatter, &map, slice_units);
        // Unordered here means 8-byte units (narrower ones took lists or atomics above): only
        // their modules keep the any-order span fold (shaders/scatter_runs.wgsl).
        debug_assert!(ordered || (!by_rows && element_bytes == 8));
        let mut plan = SortPlan::new(pairs, blocks, slice_units, element_bytes, copies, device)?
            .in_any_order(!ordered);
        if matches!(scatter.reduction, Reduction::Add | Reduction::Mul) {
            plan = plan.long_runs_later();
        }
        if folds_by_chain(data_type, scatter.reduction, hardware_float64) {
            plan = plan.chained_long_runs(device);
        }
        (Strategy::SortedRuns(plan), ReduceOrder::InOrder)
    } else {
        // Units of at most 4 bytes by compare-exchange (floats, integer Mul): their bins'
        // workgroups leave partials (not with the tie passes, whose scratch the heads hold);
        // the integers' own atomics' bins do past one range (below).
        let exchanges_narrow = element_bytes <= 4
            && !Kernel::ScatterReduce {
                data_type,
                reduction: scatter.reduction,
                order: ReduceOrder::Any,
                copies: false,
                hardware_float64: false,
            }
            .combines_natively();
        // Rows of units (each update row onto a block of neighbouring units) take the f32
        // atomics rather than the bins' ranges: a warp's atomics land on neighbouring words,
        // and a range's workgroups re-read every update's index. On an H200 (BENCHMARKS.md,
        // issue 26's rows into few targets) 65,536 rows of 64 and 4096 of 1024 Float32 into 16,384
        // units 0.16 and 0.13 ms -> 0.026.
        let rows_by_float_atomics = float_atomics_fit && map.slice_units() >= SLICES_IN_ANY_ORDER;
        // A small output fits each workgroup's memory as bins (units of at most 4 bytes), a
        // few times that a range at a time where the reduction is by compare-exchange, and
        // NATIVE_BIN_RANGES times where the integers' own atomics combine and the bins leave
        // partials (past them, the workgroup slots) or where the f32 atomics could take
        // Float32 Add (past them, the atomics); not rows that take the f32 atomics.
        let ranges = |most: u64| {
            element_bytes <= 4
                && output_units > BIN_CAPACITY as u64
                && output_units <= most * BIN_CAPACITY as u64
        };
        let bins = if element_bytes <= 4 && output_units <= BIN_CAPACITY as u64 {
            let partials = exchanges_narrow && !ties;
            Some(Bins::new(map.invocations(), output_units, partials, device))
        } else if exchanges_narrow
            && ranges(if float_atomics_fit {
                NATIVE_BIN_RANGES
            } else {
                BIN_RANGES
            })
            && !rows_by_float_atomics
        {
            Some(Bins::new(map.invocations(), output_units, !ties, device))
        } else if !ties && ranges(NATIVE_BIN_RANGES) && !rows_by_float_atomics {
            Some(Bins::new(map.invocations(), output_units, true, device))
                .filter(|bins| bins.partial_groups > 0)
        } else {
            None
        };
        // Bins that leave partials bind the heads: a kernel of their own.
        let partials = bins.is_some_and(|bins| bins.partial_groups > 0);
        let float_atomics = float_atomics_fit && bins.is_none();
        let order = if ties {
            ReduceOrder::FirstTie
        } else if float_atomics {
            ReduceOrder::Screened
        } else if partials {
            ReduceOrder::AnyWithPartials
        } else {
            ReduceOrder::Any
        };
        // 8-byte Float64 and integer Mul (here only by 64-bit atomics): compare-exchange
        // after workgroup slots.
        let exchanges = wide_atomics
            && element_bytes == 8
            && (data_type.is_float() || scatter.reduction == Reduction::Mul);
        let wide = exchanges.then(|| WideSlots::new(map.invocations(), output_units, device));
        // Where the updates are at least the output's units, the tie passes go over the
        // units (and the updates claim as they are placed), not over the updates again.
        let claims_as_placed = ties && output_units <= map.invocations();
        // Float32 Min and Max past the bins: their side of the sign by atomicMax, after a screen
        // of the output's NaNs (a read of it: where the updates are at least a quarter of its
        // units, as the f32 atomics'), where the updates are at most SIGN_ATOMICS_CROWD a unit
        // (more crowded, the loop mostly loads a larger value and stops: the screen and the
        // pass after cost more than the atomics spare where half the values take the loop).
        let sign_atomics = data_type == DataType::Float32
            && matches!(scatter.reduction, Reduction::Min | Reduction::Max)
            && bins.is_none()
            && !device.per_element
            && 4 * map.invocations() >= output_units
            && map.invocations() <= SIGN_ATOMICS_CROWD.saturating_mul(output_units)
            && output_units + device.workgroup_size as u64 <= u32::MAX as u64;
        // The screen before the float atomics or the claims as placed copies `output =
        // input` as it reads, where it may. The sign atomics' screen alone does not: its
        // stores are atomic (the kernel binds the output as atomic words), and on an H200 it
        // took scatter_max_f32 1.4 % longer than the copy's dispatch and the screen after it
        // (the claims' heads stores are atomic anyway, and the f32 atomics' screen a unit a
        // thread gained 6 to 8 %).
        // (The screen's copying kernel binds the input too: one storage buffer more.)
        let screening = if float_atomics {
            FLOAT_ADD_KERNEL
        } else {
            Kernel::ScatterReduce {
                data_type,
                reduction: scatter.reduction,
                order,
                copies: false,
                hardware_float64: false,
            }
        };
        let storage_fits = device.bindings.is_none_or(|bindings| {
            bindings.max_storage_buffers_per_shader_stage as usize
                >= screening.copying().bindings().len()
        });
        let screen_copies = copy_as_it_folds
            && (claims_as_placed || float_atomics)
            && storage_fits
            && screen_copies(scatter, &map);
        let strategy = Strategy::AnyOrderReduction {
            ties,
            claims_as_placed,
            sign_atomics,
            screen_copies,
            bins,
            wide,
            float_atomics,
        };
        (strategy, order)
    };
    let kernel = if reducing {
        Kernel::ScatterReduce {
            data_type,
            reduction: scatter.reduction,
            order,
            copies: false,
            hardware_float64,
        }
    } else {
        Kernel::Scatter {
            unit: map.unit(),
            in_order: order == ReduceOrder::InOrder,
            rows: RowKernel::No,
        }
    };
    Ok(Chosen {
        strategy,
        map,
        kernel,
        output_units,
        device: *device,
    })
}

#[cfg(test)]
#[path = "scatter_lowering_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "scatter_lowering_rows_tests.rs"]
mod rows_tests;
