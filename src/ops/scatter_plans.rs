//! The plans of a scatter's in-order and row reductions (`ops/scatter_lowering.rs` picks
//! them): a radix sort of the updates (or rows) by target and a fold of each run (or, rows
//! in any order crowded onto few blocks, a combination of the sorted rows across
//! workgroups), and what the sort's folds share with the lists of rows in any order
//! (`ops/scatter_lists.rs`); each bounds every invocation's loops (`FOLD_STEPS`).

use super::index_map::IndexMap;
use crate::error::{Error, Result};
use crate::kernels::params::{IndexParams, Parameters};
use crate::kernels::{
    Entry, FOLD_STEPS, FoldSpans, HISTOGRAM_ITEMS, Kernel, LONG_ROUNDS, LONG_RUN, RADIX_ROUNDS,
    RADIX_TILES, SCAN_ITEMS, SLICE_TILE, SPILL_ROUNDS, column_cells, copy_cells, units_per_word,
};
use crate::lowering::{DeviceFacts, Grid, Int64Atomics, Placement, Step};

/// An in-order reduction sorted by target (`shaders/sort.wgsl`, `shaders/scatter_runs.wgsl`,
/// `shaders/scatter_slice_runs.wgsl`): the (target, position) pairs of the updates, or the
/// (block, position) pairs of slices, sorted stably by a least-significant-digit radix sort,
/// then folded run by run, at most `FOLD_STEPS` steps an invocation a dispatch, longer runs
/// over several passes.
pub(super) struct SortPlan {
    /// Pairs sorted: updates, or slices.
    count: u32,
    /// Keys: output units (targets), or blocks of `slice_units`.
    units: u32,
    /// Units of a slice; 1 element by element.
    slice_units: u32,
    /// Bits a digit (log2 of the workgroup size), and the passes that cover every key.
    radix_bits: u32,
    passes: u32,
    /// Workgroups of a radix pass, each a tile of `rounds` * workgroup pairs.
    tiles: u32,
    rounds: u32,
    /// Blocks of the histogram's scan.
    scan_blocks: u32,
    /// Entries of each list of runs that go on to a later fold pass: at most this many runs
    /// are longer than LONG_RUN updates (or than the first fold's `first_steps` slices, and
    /// no more than the blocks).
    fold_capacity: u32,
    /// Fold passes that take listed runs: `fold_long_runs` passes 0.., or `fold_slice_runs`
    /// passes 1.. (after `fold_slices`' pass 0).
    fold_passes: u32,
    spans: FoldSpans,
    /// Spans of `spans.long_span` updates a `fold_long_runs` workgroup folds a pass: 1, or
    /// `LONG_ROUNDS` ([`SortPlan::chained_long_runs`]).
    long_rounds: u32,
    /// Slices of a run the first fold walks (by slices): [`first_fold_steps`], or 1 where
    /// long runs fold from the later passes ([`SortPlan::long_runs_later`]).
    first_steps: u32,
    /// Out of place, the first fold copies `output = input` as it folds: its entry
    /// (`fold_slice_columns_copy` or `_copy_wide`, a thread for `column_cells` or
    /// `copy_cells` cells of every block: [`sorted_copy_pass`]; `fold_runs_copy`, a thread a
    /// unit) and threads; none where the copy goes first.
    copy_pass: Option<(Entry, u32)>,
    /// The updates of a target may fold in any order and grouping (the default duplicate
    /// mode, and order-free types): `fold_long_runs` folds a span on every thread of its
    /// workgroup (`FOLD_IN_ANY_ORDER`).
    any_order: bool,
    /// Rows in any order crowded onto few blocks: after the sort, `reduce_sorted_rows`
    /// combines them across workgroups (no runs found, no fold passes; 8-byte units in
    /// `ReduceOrder::RowsWide`'s kernel, by 64-bit atomics).
    combines_rows: bool,
}

/// The most updates (or slices) the sort takes: four words of links each, addressed by u32
/// word indices.
pub(super) const SORT_MOST_UPDATES: u32 = 1 << 28;

impl SortPlan {
    /// The plan, or why the device cannot take it: a workgroup of a power of two of at least
    /// 32 threads (a digit a thread, 32-bit masks), and word indices into the scratch within
    /// u32 (at most 2^28 pairs). Scratch past one binding is bound as windows, every one at
    /// once (the kernels need every window: never a slab). `copies`: out of place, the first
    /// fold may copy as it folds (the input laid out as the output without gaps, blocks
    /// tiling it, whole words a cell): by updates always (`fold_runs_copy`, a thread a
    /// unit), by slices where it starts from the blocks (slices at least as many) and its
    /// threads fit u32.
    pub fn new(
        count: u64,
        units: u64,
        slice_units: u64,
        element_bytes: u32,
        copies: bool,
        device: &DeviceFacts,
    ) -> Result<SortPlan> {
        let workgroup = device.workgroup_size;
        if !workgroup.is_power_of_two() || workgroup < 32 {
            return Err(Error::LimitExceeded {
                what: "an in-order scatter reduction (a workgroup of a power of two of at least \
                       32 threads)",
                needed: 32,
                limit_name: "max_compute_invocations_per_workgroup",
                limit: workgroup as u64,
            });
        }
        // Four words of links a pair, addressed by u32 word indices.
        let links_limit = Error::LimitExceeded {
            what: "an in-order scatter reduction's sort (16 bytes an update, or a slice)",
            needed: count.saturating_mul(16),
            limit_name: "sort scratch (u32 word indices)",
            limit: 1 << 32,
        };
        let count = u32::try_from(count)
            .ok()
            .filter(|&n| n <= SORT_MOST_UPDATES)
            .ok_or(links_limit)?;
        let units =
            u32::try_from(units)
                .ok()
                .filter(|&u| u <= 1 << 30)
                .ok_or(Error::LimitExceeded {
                    what: "an in-order scatter reduction's runs (8 bytes an output unit)",
                    needed: units.saturating_mul(8),
                    limit_name: "sort scratch (u32 word indices)",
                    limit: 1 << 33,
                })?;
        let radix_bits = workgroup.ilog2();
        // Enough bits for every key and for NO_KEY's (all ones) to sort after them; slices
        // out of range join the last block's run, marked: bits for the blocks alone.
        let key_bits = if slice_units > 1 {
            32 - units.saturating_sub(1).leading_zeros()
        } else {
            32 - units.leading_zeros()
        };
        let rounds = (count / (workgroup * RADIX_TILES)).clamp(1, RADIX_ROUNDS);
        let tiles = count.div_ceil(workgroup * rounds);
        let spans = FoldSpans::new(workgroup, element_bytes);
        let copy_pass = if !copies {
            None
        } else if slice_units == 1 {
            // fold_runs_copy: a thread a unit, as fold_runs.
            Some((Entry::FoldRunsCopy, units))
        } else {
            sorted_copy_pass(count, units, slice_units as u32, element_bytes)
        };
        let first_steps = first_fold_steps(copy_pass, element_bytes, device);
        let long_rounds = 1;
        let (fold_capacity, fold_passes) = if slice_units > 1 {
            slice_fold_passes(count, units, first_steps, spans.slice_span)
        } else {
            long_fold_passes(count, spans.long_span, long_rounds)
        };
        let plan = SortPlan {
            count,
            units,
            slice_units: slice_units as u32,
            radix_bits,
            passes: key_bits.div_ceil(radix_bits).max(1),
            tiles,
            rounds,
            scan_blocks: (workgroup * tiles).div_ceil(workgroup * SCAN_ITEMS),
            fold_capacity,
            fold_passes,
            spans,
            long_rounds,
            first_steps,
            copy_pass,
            any_order: false,
            combines_rows: false,
        };
        Ok(plan)
    }

    /// The plan of rows in any order whose sorted rows `reduce_sorted_rows` combines across
    /// workgroups, a workgroup a run of [`sorted_run_rows`] of them (the copy goes first).
    pub fn combining_rows(self) -> SortPlan {
        debug_assert!(self.slice_units > 1 && self.copy_pass.is_none());
        SortPlan {
            any_order: true,
            combines_rows: true,
            ..self
        }
    }

    /// The plan whose `fold_long_runs` passes fold up to `LONG_ROUNDS` spans each where the
    /// device does not bound loops: for kernels that fold by the hardware's chain
    /// (`kernels::folds_by_chain`; see `LONG_ROUNDS`). Element by element only.
    pub fn chained_long_runs(self, device: &DeviceFacts) -> SortPlan {
        if self.slice_units > 1 || device.bounded_loops {
            return self;
        }
        let (fold_capacity, fold_passes) =
            long_fold_passes(self.count, self.spans.long_span, LONG_ROUNDS);
        SortPlan {
            long_rounds: LONG_ROUNDS,
            fold_capacity,
            fold_passes,
            ..self
        }
    }

    /// The plan with runs of slices long on average folded from the later passes
    /// (`FOLD_RUNS_LATER`, Add and Mul of rows in order: a first fold's thread folds a slice's
    /// exact arithmetic one slice at a time, waiting on memory twice a slice; Min and Max's
    /// column fold already takes four at a time) where the slices are at least `RUNS_LATER`
    /// times the blocks (the table's rows, each with its run or none) and the later passes'
    /// workgroups (a tile of `SLICE_TILE` columns of each block) are at most
    /// `RUNS_LATER_GROUPS`.
    pub fn long_runs_later(self) -> SortPlan {
        let tiles = (self.slice_units as u64).div_ceil(SLICE_TILE as u64);
        let long = self.slice_units > 1
            && self.count as u64 >= RUNS_LATER * self.units as u64
            && self.units as u64 * tiles <= RUNS_LATER_GROUPS;
        if !long {
            return self;
        }
        let (fold_capacity, fold_passes) =
            slice_fold_passes(self.count, self.units, 1, self.spans.slice_span);
        SortPlan {
            first_steps: 1,
            fold_capacity,
            fold_passes,
            ..self
        }
    }

    /// Whether the first fold copies `output = input` out of place as it folds.
    pub fn copies(&self) -> bool {
        self.copy_pass.is_some()
    }

    /// Each key's run start and end, and each fold pass's list count (passes 0 to the last
    /// plus one, which a pass writes only where a run goes on past it).
    pub fn heads_bytes(&self) -> u64 {
        (2 * self.units as u64 + self.fold_passes as u64 + 2) * 4
    }

    /// Keys and positions twice, the histogram, its blocks' sums, the two lists of runs.
    pub fn links_bytes(&self) -> u64 {
        let histogram = self.tiles as u64 * (1 << self.radix_bits);
        (4 * self.count as u64
            + histogram
            + self.scan_blocks as u64
            + 2 * self.fold_capacity as u64)
            * 4
    }

    /// The plan with its long runs folded in any order and grouping (see `any_order`).
    pub fn in_any_order(self, any_order: bool) -> SortPlan {
        SortPlan { any_order, ..self }
    }

    /// The steps; `output_units` threads fold slices (the blocks' units, gaps included).
    pub fn push_steps(
        &self,
        steps: &mut Vec<Step>,
        kernel: Kernel,
        map: &IndexMap,
        output_units: u64,
        device: &DeviceFacts,
    ) {
        let workgroup = device.workgroup_size as u64;
        let mut params = map.params(1);
        params.in_order.sort_count = self.count;
        params.in_order.sort_units = self.units;
        params.in_order.radix_tiles = self.tiles;
        params.in_order.radix_rounds = self.rounds;
        params.in_order.fold_capacity = self.fold_capacity;
        params.in_order.fold_rounds = self.long_rounds;
        if self.any_order {
            params.in_order.fold_flags |= FOLD_IN_ANY_ORDER;
        }
        let run_tiles = (self.slice_units as u64).div_ceil(workgroup);
        if self.combines_rows {
            params.in_order.run_rows =
                sorted_run_rows(self.count, run_tiles, device.workgroup_size);
        }
        if self.first_steps == 1 {
            params.in_order.fold_flags |= FOLD_RUNS_LATER;
        } else if self.first_steps < FOLD_STEPS {
            params.in_order.fold_flags |= FOLD_WIDE_FIRST;
        }
        let by_slices = self.slice_units > 1;
        let (first_fold, fold_threads) = if by_slices {
            slice_params(&mut params, map, self.slice_units, self.count);
            first_fold_pass(
                &mut params,
                [Entry::FoldSlices, Entry::FoldSliceColumns],
                kernel,
                map,
                self.count,
                output_units,
            )
        } else {
            (Entry::FoldRuns, self.units as u64)
        };
        let mut step = |entry, shift: u32, pass: u32, threads: u64, placement| {
            let mut params = params;
            params.in_order.radix_shift = shift;
            params.in_order.fold_pass = pass;
            let mut kernel = kernel;
            if matches!(entry, Entry::FindRuns | Entry::ReduceSortedRows) {
                params.in_order.fold_flags |= DESCRIBES_STATUS;
            }
            if by_slices && entry == first_fold {
                params.count = u32::try_from(threads).unwrap_or(u32::MAX);
            } else if entry == Entry::ReduceSortedRows {
                kernel = kernel.combining_rows();
            } else if entry == Entry::FoldRunsCopy {
                kernel = kernel.copying();
            } else if matches!(
                entry,
                Entry::FoldSliceColumnsCopy | Entry::FoldSliceColumnsCopyWide
            ) {
                // From the blocks, every one (whether the plain first fold starts from the
                // blocks or from the slices).
                params.count = threads as u32;
                params.in_order.fold_flags &= !FOLD_BY_SLICES;
                kernel = kernel.copying();
            }
            steps.push(Step {
                kernel,
                entry,
                params: Parameters::Index(params),
                grid: Grid::Flat(threads),
                placement,
            });
        };
        // The first pass's radix_count makes the pairs (so there is always one pass).
        for pass in 0..self.passes {
            let shift = pass * self.radix_bits;
            step(
                Entry::RadixCount,
                shift,
                0,
                self.tiles as u64 * workgroup,
                Placement::Always,
            );
            // Up to HISTOGRAM_ITEMS tiles, radix_scatter scans the histogram itself; up to a
            // workgroup's threads of blocks, the blocks' totals.
            if self.tiles > HISTOGRAM_ITEMS {
                step(
                    Entry::RadixScanBlocks,
                    shift,
                    0,
                    self.scan_blocks as u64 * workgroup,
                    Placement::Always,
                );
            }
            if self.scan_blocks as u64 > workgroup {
                step(Entry::RadixScanSums, shift, 0, workgroup, Placement::Always);
            }
            step(
                Entry::RadixScatter,
                shift,
                0,
                self.tiles as u64 * workgroup,
                Placement::Always,
            );
        }
        let sorted = self.passes * self.radix_bits;
        if self.combines_rows {
            // A workgroup a tile of columns of each run of the sorted rows; its first thread
            // describes the status.
            let threads = combine_threads(
                self.count as u64,
                params.in_order.run_rows,
                self.slice_units,
                device.workgroup_size,
            );
            step(
                Entry::ReduceSortedRows,
                sorted,
                0,
                threads,
                Placement::Always,
            );
            return;
        }
        step(
            Entry::FindRuns,
            sorted,
            0,
            self.count as u64,
            Placement::Always,
        );
        // Each fold pass has a workgroup for every run that can still go on: a run listed
        // for pass p is longer than what the passes before it folded.
        let count = self.count as u64;
        if by_slices {
            match self.copy_pass {
                Some((copy, threads)) => {
                    step(first_fold, sorted, 0, fold_threads, Placement::InPlace);
                    step(copy, sorted, 0, threads as u64, Placement::OutOfPlace);
                }
                None => step(first_fold, sorted, 0, fold_threads, Placement::Always),
            }
            for pass in 1..=self.fold_passes {
                let groups = slice_pass_groups(
                    self.count,
                    self.fold_capacity,
                    self.first_steps,
                    self.spans.slice_span,
                    pass,
                );
                step(
                    Entry::FoldSliceRuns,
                    sorted,
                    pass,
                    groups * params.in_order.fold_tiles as u64 * workgroup,
                    Placement::Always,
                );
            }
        } else {
            match self.copy_pass {
                Some((copy, threads)) => {
                    step(first_fold, sorted, 0, fold_threads, Placement::InPlace);
                    step(copy, sorted, 0, threads as u64, Placement::OutOfPlace);
                }
                None => step(first_fold, sorted, 0, fold_threads, Placement::Always),
            }
            for pass in 0..self.fold_passes {
                // Runs longer than the passes before reach: pass * long_span * long_rounds.
                let reach = self.spans.long_span as u64 * self.long_rounds as u64;
                let runs = match pass {
                    0 => self.fold_capacity as u64,
                    _ => (count / (pass as u64 * reach + 1)).min(self.fold_capacity as u64),
                };
                step(
                    Entry::FoldLongRuns,
                    sorted,
                    pass,
                    runs * workgroup,
                    Placement::Always,
                );
            }
        }
    }
}

/// Workgroups `reduce_sorted_rows` is given at least where runs of `SORTED_RUN_LEAST` rows
/// allow: each thread walks its run's rows one after another (four loads in flight), so runs
/// of `SPILL_ROUNDS` workgroup widths leave a GPU walking with few workgroups, while short
/// runs each take an exchange a block, crowding the output's few units. On an H200
/// (BENCHMARKS.md, issue 26's sorted rows), Float16 Add of 262,144 rows of 256 into 16 / 64 /
/// 256 rows: runs of 1024 rows 0.53 / 0.52 / 0.52 ms; for 1024 workgroups (256 rows)
/// 0.44 / 0.39 / 0.37; for 4096 (64) 2.30 / 0.57 / 0.39; for 16,384 (32) 8.3 / 1.8 / 0.53;
/// 4096 rows of 1024 into 16: runs of 1024 rows 0.376, of 32 0.055.
const SORTED_RUN_WORKGROUPS: u64 = 1024;
/// The fewest rows a workgroup of `reduce_sorted_rows` takes: each run takes an exchange a
/// block it reaches.
const SORTED_RUN_LEAST: u32 = 32;

/// The rows a workgroup of `reduce_sorted_rows` combines: `SPILL_ROUNDS` workgroup widths,
/// halved while `rows` in runs of them, a workgroup a tile of columns (`tiles`) of each, make
/// fewer than `SORTED_RUN_WORKGROUPS` workgroups (down to `SORTED_RUN_LEAST`).
fn sorted_run_rows(rows: u32, tiles: u64, workgroup: u32) -> u32 {
    let mut run = SPILL_ROUNDS * workgroup;
    while run > SORTED_RUN_LEAST
        && (rows as u64).div_ceil(run as u64) * tiles < SORTED_RUN_WORKGROUPS
    {
        run /= 2;
    }
    run
}

/// Whether rows of `element_bytes` units can be combined across workgroups
/// (`reduce_spilled_rows`, `reduce_sorted_rows`): units of at most 4 bytes by the in-order
/// kernel, 8-byte ones by `ReduceOrder::RowsWide`'s 64-bit atomics, which need every one.
pub(super) fn combines_rows(element_bytes: u32, device: &DeviceFacts) -> bool {
    element_bytes <= 4 || device.int64_atomics == Int64Atomics::All
}

/// The invocations of `combine_rows` (`reduce_sorted_rows`, `reduce_spilled_rows`) over
/// `rows` rows of `slice_units` units in runs of `run_rows`: a workgroup a tile of
/// `workgroup` columns of each run.
pub(super) fn combine_threads(rows: u64, run_rows: u32, slice_units: u32, workgroup: u32) -> u64 {
    let workgroup = workgroup as u64;
    rows.div_ceil(run_rows as u64) * (slice_units as u64).div_ceil(workgroup) * workgroup
}

/// The parameters of a reduction by slices of `slice_units` units (`slices` of them), for
/// the sorted runs and the lists alike.
pub(super) fn slice_params(
    params: &mut IndexParams,
    map: &IndexMap,
    slice_units: u32,
    slices: u32,
) {
    params.tile = 0;
    params.in_order.slice_units = slice_units;
    params.in_order.slices = slices;
    params.in_order.slice_rank = map.slice_rank() as u32;
    params.in_order.fold_tiles = slice_units.div_ceil(SLICE_TILE);
}

/// `InOrderParams::fold_flags`: the first fold pass's groups of threads are the slices, not
/// the output's blocks (`FOLD_BY_SLICES` in `shaders/scatter_slices.wgsl`).
pub(super) const FOLD_BY_SLICES: u32 = 1;
/// `InOrderParams::fold_flags`: `fold_long_runs` may fold a run's updates in any order and
/// grouping (`FOLD_IN_ANY_ORDER` in `shaders/scatter_slices.wgsl`).
const FOLD_IN_ANY_ORDER: u32 = 2;
/// `InOrderParams::fold_flags`: the sorted runs' first fold walks a part's share of
/// `FOLD_STEPS` ([`first_fold_steps`]; `FOLD_WIDE_FIRST` in `shaders/scatter_slices.wgsl`).
const FOLD_WIDE_FIRST: u32 = 4;
/// `InOrderParams::fold_flags`: the sorted runs' first fold folds each run's first slice
/// alone, the later passes (`fold_slice_runs`, four slices a batch) the rest
/// (`FOLD_RUNS_LATER` in `shaders/scatter_slices.wgsl`; [`RUNS_LATER`]).
const FOLD_RUNS_LATER: u32 = 32;
/// Slices this many times the blocks and more (runs this long on average over the table's
/// rows) fold from the later passes
/// (`FOLD_RUNS_LATER`), where those passes' workgroups are at most `RUNS_LATER_GROUPS`
/// ([`SortPlan::long_runs_later`]): a first fold's thread walks its run a slice at a time,
/// waiting on memory twice a slice, where `fold_slice_runs` waits about once a batch of
/// four, but only one row of a workgroup's threads folds at a time. On an H200 (BENCHMARKS.md,
/// issue 26's long sorted runs), Float16 Add in order of 4096 rows of 1024 into 1 and 4 rows
/// 3.52 -> 1.54 and 0.94 -> 0.43 ms, 65,536 rows of 64 into 16 and 64 rows 3.60 -> 1.56 and
/// 0.98 -> 0.44 (128 to 512 workgroups); but 262,144 rows of 256 into 64 and 256 rows (2048
/// and 8192 workgroups, more than the GPU holds at once) 4.58 -> 7.53 and 1.27 -> 7.45, and
/// runs of 256 (65,536 rows of 64 into 256, 4096 of 1024 into 16: 2048 workgroups) 0.29 ->
/// 0.44 and 0.28 -> 0.43.
const RUNS_LATER: u64 = 512;
const RUNS_LATER_GROUPS: u64 = 512;
/// `InOrderParams::fold_flags`: the pass's first thread describes the status
/// (`DESCRIBES_STATUS` in `shaders/scatter_slices.wgsl`), so that the plan needs no
/// `describe_status` dispatch after its last pass: set on a pass after every report (the
/// sorted runs' `find_runs`, the sorted rows' `reduce_sorted_rows`, the lists' first fold). On an H200 the dispatch cost 1 to 4 %
/// of these plans' time (`index_add_rows_f64` 0.0929 -> 0.0909 ms; BENCHMARKS.md, issue 26's
/// fixed passes).
pub(super) const DESCRIBES_STATUS: u32 = 8;
/// Whether `step` describes the status (`DESCRIBES_STATUS`; a copy's dispatch never does).
pub(super) fn describes_status(step: &Step) -> bool {
    match &step.params {
        Parameters::Index(params) => params.in_order.fold_flags & DESCRIBES_STATUS != 0,
        Parameters::StridedCopy(_) => false,
    }
}

/// The first fold pass of a reduction by slices (`entries`: a thread a unit, or a column
/// fold, a thread `column_cells` cells), and its threads: a group of them for each
/// output block, or for each slice where the slices are fewer (few rows into a large table:
/// every block looked at would be mostly threads that find no list or run and return).
/// Column folds wherever each thread's share is whole words (units of 4 and 8 bytes always;
/// narrower ones where the blocks hold whole words), so that no two threads share a word.
pub(super) fn first_fold_pass(
    params: &mut IndexParams,
    entries: [Entry; 2],
    kernel: Kernel,
    map: &IndexMap,
    slices: u32,
    output_units: u64,
) -> (Entry, u64) {
    let slice_units = params.in_order.slice_units;
    let blocks = output_units.div_ceil(slice_units as u64);
    let cell_units = units_per_word(map.element_bytes);
    let columns = !kernel.unit().is_sub_word() || slice_units.is_multiple_of(cell_units);
    // Threads a group (a block's or a slice's), and threads from the blocks.
    let (entry, group_threads, block_threads) = if columns {
        let lanes = column_lanes(slice_units, cell_units, column_cells(map.element_bytes));
        (entries[1], lanes, blocks * lanes)
    } else {
        (entries[0], slice_units as u64, output_units)
    };
    let by_slices = (slices as u64) < blocks;
    if by_slices {
        params.in_order.fold_flags |= FOLD_BY_SLICES;
        (entry, slices as u64 * group_threads)
    } else {
        (entry, block_threads)
    }
}

/// Threads of a column fold a block of `slice_units` units, cells of `cell_units`, `cells`
/// a thread.
pub(super) fn column_lanes(slice_units: u32, cell_units: u32, cells: u32) -> u64 {
    (slice_units / cell_units).div_ceil(cells) as u64
}

/// The copy as it folds takes `copy_cells` cells a thread (`fold_slice_list_copy_wide`)
/// where they are more than `column_cells` and the lists are on average at most this long:
/// a listed block's thread then walks its list once for each `column_cells` of them, which
/// long lists pay for (an H100's edge messages, lists of 16: 0.293 -> 0.346 ms) and short
/// ones do not (index_add rows of Float16, 1 block in 8 listed: 0.091 -> 0.088 ms; Float32,
/// 2 rows a block: 0.321 -> 0.301 ms). BENCHMARKS.md, issue 26's third session.
pub(super) const COPY_WIDE_LISTS: u64 = 4;

/// The sorted runs' first fold copies as it folds with `copy_cells` a thread
/// (`fold_slice_columns_copy_wide`) only where a block has at least this many threads of
/// them (rows of 1 KiB or more): on an H200, Float16 index_add in order of 1024 to 4096
/// rows of 1024 to 4096 units took 2.6 to 20.5 % less than the copy's pass and the fold by
/// slices (rows of 512: the same), and rows of 16 units (2 threads a block) 15 % more
/// (BENCHMARKS.md, issue 26's wide sorted copies).
const COPY_WIDE_LANES: u64 = 64;

/// The entry of the sorted runs' first pass that copies as it folds from the blocks, and its
/// threads (none past u32): the wide one where a thread takes more cells than
/// `column_cells`, the runs are short on average (as the lists', `COPY_WIDE_LISTS`) and the
/// blocks wide (`COPY_WIDE_LANES`); else, where the slices are at least as many as the
/// blocks, a thread for `column_cells` cells; else none (the copy goes first: copying a cell
/// a thread, `fold_slice_columns_copy` took 37 to 54 % longer than the copy's pass and the
/// fold by slices where the slices were fewer than the blocks).
fn sorted_copy_pass(
    slices: u32,
    blocks: u32,
    slice_units: u32,
    element_bytes: u32,
) -> Option<(Entry, u32)> {
    let column = column_cells(element_bytes);
    let wide_lanes = column_lanes(
        slice_units,
        units_per_word(element_bytes),
        copy_cells(element_bytes),
    );
    let (entry, cells) = if copy_cells(element_bytes) > column
        && slices as u64 <= blocks as u64 * COPY_WIDE_LISTS
        && wide_lanes >= COPY_WIDE_LANES
    {
        (Entry::FoldSliceColumnsCopyWide, copy_cells(element_bytes))
    } else if slices >= blocks {
        (Entry::FoldSliceColumnsCopy, column)
    } else {
        return None;
    };
    let lanes = column_lanes(slice_units, units_per_word(element_bytes), cells);
    let threads = u32::try_from(blocks as u64 * lanes).ok()?;
    Some((entry, threads))
}

/// The list capacity and the later passes of sorted runs of `count` slices onto `units`
/// blocks whose first fold walks `first_steps` slices of each run (at most a run a block goes
/// on).
/// Element by element: the runs that go on past `fold_runs` (longer than LONG_RUN: at most
/// this many), and the `fold_long_runs` passes, each `rounds` spans of `span` updates.
fn long_fold_passes(count: u32, span: u32, rounds: u32) -> (u32, u32) {
    let capacity = count / (LONG_RUN + 1);
    let passes = if capacity > 0 {
        count.div_ceil(span.saturating_mul(rounds))
    } else {
        0
    };
    (capacity, passes)
}

fn slice_fold_passes(count: u32, units: u32, first_steps: u32, span: u32) -> (u32, u32) {
    (
        (count / (first_steps + 1)).min(units),
        count.saturating_sub(first_steps).div_ceil(span),
    )
}

/// Slices of a run (or rows of a list) the first fold walks: `FOLD_STEPS`, or, on a device
/// that bounds an invocation's loops (`DeviceFacts::bounded_loops`), a part's share of them
/// where the copy as it folds walks a run or list once for each `column_cells` of its
/// thread's `copy_cells` (`fold_slice_columns_copy_wide`, `fold_slice_list_copy_wide`), so
/// that its walks together stay within `FOLD_STEPS` (Mesa's loop bound: walking `FOLD_STEPS`
/// a part, lavapipe folded Float16 products of runs and lists of about 3600 rows wrongly).
/// The sorted runs' plain first fold (in place) walks as many (`FOLD_WIDE_FIRST`), as their
/// later passes go on from there; the lists' go on from the node where the walk stopped.
/// A GPU walks `FOLD_STEPS` a part (`fold_slice_list_copy_wide_long`; four walks of 4096
/// slices at most an invocation, within a watchdog's time by far): a first pass of 4096 rows
/// leaves no later pass to dispatch for tables of 4096 rows of updates (H200:
/// `index_add_rows_f16` 0.0734 -> 0.0701 ms, index_add of 4096 rows of 512 units 4 to 7 %
/// faster; BENCHMARKS.md, issue 26's walks on GPUs).
pub(super) fn first_fold_steps(
    copy_pass: Option<(Entry, u32)>,
    element_bytes: u32,
    device: &DeviceFacts,
) -> u32 {
    let share = FOLD_STEPS / (copy_cells(element_bytes) / column_cells(element_bytes));
    match copy_pass {
        Some((Entry::FoldSliceListCopyWide, _)) => share,
        Some((Entry::FoldSliceColumnsCopyWide, _)) if device.bounded_loops => share,
        _ => FOLD_STEPS,
    }
}

/// Blocks a pass `pass` >= 1 of the slices' folds may find listed (each has a workgroup per
/// tile of columns): a block listed for pass p has more slices than the passes before it
/// folded (`first_steps`, then `span` a pass), and at most `capacity` are listed.
pub(super) fn slice_pass_groups(
    slices: u32,
    capacity: u32,
    first_steps: u32,
    span: u32,
    pass: u32,
) -> u64 {
    let folded = first_steps as u64 + (pass as u64 - 1) * span as u64;
    (slices as u64 / (folded + 1)).min(capacity as u64)
}

#[cfg(test)]
#[path = "scatter_plans_tests.rs"]
mod tests;
