//! The plan of a reduction by rows in any order (`shaders/scatter_lists.wgsl`, and the rows
//! set aside, `shaders/scatter_list_spills.wgsl`; `ops/scatter_lowering.rs` picks it): each
//! output block's rows linked into a list, each unit's column folded along it, a block's rows
//! past a bound set aside and combined after the first fold.

use super::index_map::IndexMap;
use super::scatter_plans::{
    COPY_WIDE_LISTS, DESCRIBES_STATUS, FOLD_BY_SLICES, column_lanes, combine_threads,
    combines_rows, first_fold_pass, first_fold_steps, slice_params, slice_pass_groups,
};
use crate::error::{Error, Result};
use crate::kernels::params::Parameters;
use crate::kernels::{
    Entry, FoldSpans, Kernel, LIST_BOUND, LIST_ROUNDS, SLICE_TILE, SPILL_ROUNDS, column_cells,
    copy_cells, units_per_word,
};
use crate::lowering::{DeviceFacts, Grid, Placement, Step};

/// `InOrderParams::fold_flags`: `link_slices` lists at most [`list_bound`] rows a block and
/// sets the rest aside for `reduce_spilled_rows` (`SPILLS_ROWS` in
/// `shaders/scatter_slices.wgsl`).
pub(super) const SPILLS_ROWS: u32 = 16;

/// The rows a block's list holds at most where the lists set the rest aside: `LIST_BOUND`,
/// or four times the rows a block on average (a power of two) where that is more, so that
/// rows crowded evenly onto few blocks stay in the lists (4096 rows of 1024 Float16 units
/// onto 16: 0.22 ms by lists of 256, 1.41 bounded at 128, each row set aside taking an
/// exchange of its own, since rows of many blocks alternate), and only a block far above the
/// mean sets rows aside.
pub(super) fn list_bound(slices: u32, blocks: u32) -> u32 {
    let mean = slices.div_ceil(blocks.max(1));
    mean.saturating_mul(4)
        .checked_next_power_of_two()
        .unwrap_or(u32::MAX)
        .max(LIST_BOUND)
}

/// The entry of the first pass that copies as it folds, and its threads (none past u32): the
/// wide one where a thread takes more cells than `column_cells` and the lists are short
/// (walking `FOLD_STEPS` rows a part where `long_walks`, see [`ListPlan::new`]).
fn copy_pass(
    slices: u32,
    blocks: u32,
    slice_units: u32,
    element_bytes: u32,
    long_walks: bool,
) -> Option<(Entry, u32)> {
    let column = column_cells(element_bytes);
    let wide =
        copy_cells(element_bytes) > column && slices as u64 <= blocks as u64 * COPY_WIDE_LISTS;
    let (entry, cells) = if wide {
        let entry = if long_walks {
            Entry::FoldSliceListCopyWideLong
        } else {
            Entry::FoldSliceListCopyWide
        };
        (entry, copy_cells(element_bytes))
    } else {
        (Entry::FoldSliceListCopy, column)
    };
    let lanes = column_lanes(slice_units, units_per_word(element_bytes), cells);
    let threads = u32::try_from(blocks as u64 * lanes).ok()?;
    Some((entry, threads))
}

/// A reduction by slices in any order (`link_slices`, `fold_slice_lists`,
/// `fold_slice_list_runs`): each block's slices linked into a list (one exchange a slice),
/// each unit's column folded along it, at most `FOLD_STEPS` slices an invocation a dispatch,
/// longer lists over several passes.
pub(super) struct ListPlan {
    slices: u32,
    /// Blocks of `slice_units` output units: the lists.
    blocks: u32,
    slice_units: u32,
    /// Entries of each list of blocks that go on (at most this many lists are longer than
    /// the first pass walks), and the passes after the first.
    fold_capacity: u32,
    fold_passes: u32,
    /// Rows of a list the first pass walks: [`first_fold_steps`].
    first_steps: u32,
    /// Rows of a list each later pass walks (`fold_slice_list_runs`): `rounds` rounds of
    /// turns of its rows of threads, each turn `FOLD_STEPS` rows (`FoldSpans::slice_span` a
    /// round). `LIST_ROUNDS` where the device does not bound loops, else 1.
    span: u32,
    rounds: u32,
    /// Out of place, the first pass copies `output = input` as it folds, a thread for
    /// `column_cells` cells of every block (`fold_slice_list_copy`) or `copy_cells`
    /// (`fold_slice_list_copy_wide`, or `_long` on a GPU): the entry and its threads; none
    /// where the copy goes first.
    copy_pass: Option<(Entry, u32)>,
    /// Float Min and Max in order (`ReduceOrder::ListTies`): the output's units, each with a
    /// tie word in the heads after the pass counts (the rows set aside's counts) and the tie
    /// list's count (written only where a unit's list goes on past the first pass or its
    /// block's rows were set aside, so never cleared), and `write_list_ties` after the folds
    /// and the rows set aside where lists can go on or rows be set aside; 0: none.
    tie_units: u32,
    /// Units of at most 4 bytes (8 where the device has every 64-bit atomic, combined in
    /// `ReduceOrder::RowsWide`'s kernel), more rows than [`list_bound`] (0: none): each
    /// block's list holds at most that many rows, so that no list goes on past the first
    /// pass, and `reduce_spilled_rows` combines the rest after it (a count of rows a block
    /// and one of the rows set aside in the heads, after the pass counts; two words a row set
    /// aside in the links, after the tie list). With ties, the blocks whose rows were set
    /// aside go to the tie list (`fold_capacity` of them at most), their units' claims in
    /// tie words, and the rows set aside claim by atomicMax.
    spill_bound: u32,
}

impl ListPlan {
    /// `copies`: out of place, the first pass may copy as it folds (the input laid out as
    /// the output without gaps, blocks tiling it, whole words a cell); it does where its
    /// threads fit u32. `tie_units`: float Min and Max in order, a tie word for each of
    /// that many output units (`ReduceOrder::ListTies`). Their wide copy walks a part's
    /// share of `FOLD_STEPS` on a GPU too: walking 4096 rows a part
    /// (`fold_slice_list_copy_wide_long`), or the bounded copy in that entry's form, an
    /// H200's in-order edge messages into 262,144 nodes, and 262,144 rows of 256 into
    /// 65,536, ran 12 to 15 % slower (BENCHMARKS.md, issue 26's walks on GPUs).
    pub fn new(
        slices: u64,
        blocks: u64,
        slice_units: u64,
        element_bytes: u32,
        copies: bool,
        tie_units: Option<u32>,
        device: &DeviceFacts,
    ) -> Result<ListPlan> {
        let workgroup = device.workgroup_size;
        if workgroup < SLICE_TILE {
            return Err(Error::LimitExceeded {
                what: "a scatter reduction by rows (a workgroup of at least 8 threads)",
                needed: SLICE_TILE as u64,
                limit_name: "max_compute_invocations_per_workgroup",
                limit: workgroup as u64,
            });
        }
        // A word of links a slice and two of each list entry, addressed by u32 word indices.
        let limit = |what, needed: u64| Error::LimitExceeded {
            what,
            needed,
            limit_name: "sort scratch (u32 word indices)",
            limit: 1 << 32,
        };
        let slices = u32::try_from(slices)
            .ok()
            .filter(|&n| n <= 1 << 30)
            .ok_or(limit(
                "a scatter reduction by rows' links (4 bytes a row of updates)",
                slices.saturating_mul(4),
            ))?;
        let blocks = u32::try_from(blocks)
            .ok()
            .filter(|&n| n <= 1 << 30)
            .ok_or(limit(
                "a scatter reduction by rows' lists (4 bytes an output row)",
                blocks.saturating_mul(4),
            ))?;
        let spans = FoldSpans::new(workgroup, element_bytes);
        let slice_units = slice_units as u32;
        let long_walks = !device.bounded_loops && tie_units.is_none();
        let copy_pass = copies
            .then(|| copy_pass(slices, blocks, slice_units, element_bytes, long_walks))
            .flatten();
        let first_steps = first_fold_steps(copy_pass, element_bytes, device);
        let rounds = if device.bounded_loops { 1 } else { LIST_ROUNDS };
        let span = spans.slice_span.saturating_mul(rounds);
        let bound = list_bound(slices, blocks);
        // 8-byte rows set aside are combined by 64-bit atomics (`ReduceOrder::RowsWide`).
        let spills = combines_rows(element_bytes, device) && slices > bound && bound <= first_steps;
        // Where lists are bounded, none goes on past the first pass; with ties, the blocks
        // whose rows were set aside (more than the bound: at most slices / (bound + 1)) go
        // on to the tie list (its capacity `fold_capacity`).
        let (fold_capacity, fold_passes) = if spills {
            let tie_list = if tie_units.is_some() {
                (slices / (bound + 1)).min(blocks)
            } else {
                0
            };
            (tie_list, 0)
        } else {
            (
                slices / (first_steps + 1),
                slices.saturating_sub(first_steps).div_ceil(span),
            )
        };
        Ok(ListPlan {
            slices,
            blocks,
            slice_units,
            fold_capacity,
            fold_passes,
            first_steps,
            span,
            rounds,
            copy_pass,
            tie_units: tie_units.unwrap_or(0),
            spill_bound: if spills { bound } else { 0 },
        })
    }

    /// Rows set aside at most: every row but a bound's worth of one block.
    fn spilled_capacity(&self) -> u64 {
        if self.spill_bound > 0 {
            // (`slices` is more than the bound where there is one.)
            (self.slices - self.spill_bound) as u64
        } else {
            0
        }
    }

    /// The heads' words of the rows set aside: a count of rows a block, and the rows set
    /// aside.
    fn spill_words(&self) -> u64 {
        if self.spill_bound > 0 {
            self.blocks as u64 + 1
        } else {
            0
        }
    }

    /// Where the tie words start in the heads: after the block heads, the pass counts and,
    /// with ties, the rows set aside's counts and the tie list's count. The words before
    /// them are the ones cleared.
    fn tie_words(&self) -> u64 {
        let ties = self.tie_units > 0;
        let spill_counts = if ties { self.spill_words() } else { 0 };
        self.blocks as u64 + self.fold_passes as u64 + 2 + spill_counts + u64::from(ties)
    }

    /// The heads' words zeroed before the passes: all but the tie words (without ties, the
    /// rows set aside counted where the tie words would be).
    pub fn cleared_heads_words(&self) -> u64 {
        if self.tie_units > 0 {
            self.tie_words()
        } else {
            self.tie_words() + self.spill_words()
        }
    }

    /// Whether the first pass copies `output = input` out of place as it folds.
    pub fn copies(&self) -> bool {
        self.copy_pass.is_some()
    }

    /// Each block's list head, each pass's list count (passes 1 to the last plus one), the
    /// rows set aside's counts, and with ties the tie list's count and the tie words.
    pub fn heads_bytes(&self) -> u64 {
        (self.cleared_heads_words() + self.tie_units as u64) * 4
    }

    /// A link a slice, the two lists of (block, node) pairs, with ties the tie list's blocks,
    /// and the rows set aside (two words each).
    pub fn links_bytes(&self) -> u64 {
        let tie_list = if self.tie_units > 0 {
            self.fold_capacity
        } else {
            0
        };
        (self.slices as u64
            + 4 * self.fold_capacity as u64
            + tie_list as u64
            + 2 * self.spilled_capacity())
            * 4
    }

    /// The steps; `output_units` threads fold (the blocks' units, gaps included).
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
        slice_params(&mut params, map, self.slice_units, self.slices);
        params.in_order.sort_units = self.blocks;
        params.in_order.fold_capacity = self.fold_capacity;
        // Within u32 where there are tie words (the lowering keeps them so).
        params.in_order.tie_words = self.tie_words() as u32;
        params.in_order.fold_rounds = self.rounds;
        if self.spill_bound > 0 {
            params.in_order.fold_flags |= SPILLS_ROWS;
            params.in_order.spill_bound = self.spill_bound;
            params.in_order.run_rows = SPILL_ROUNDS * device.workgroup_size;
        }
        let (first_fold, fold_threads) = first_fold_pass(
            &mut params,
            [Entry::FoldSliceLists, Entry::FoldSliceListColumns],
            kernel,
            map,
            self.slices,
            output_units,
        );
        let mut step = |entry, pass: u32, threads: u64, placement| {
            let mut params = params;
            params.in_order.fold_pass = pass;
            let mut kernel = kernel;
            if pass == 0 && !matches!(entry, Entry::LinkSlices | Entry::ReduceSpilledRows) {
                // The first fold, in place or copying.
                params.in_order.fold_flags |= DESCRIBES_STATUS;
            }
            if entry == first_fold {
                params.count = u32::try_from(threads).unwrap_or(u32::MAX);
            } else if entry == Entry::ReduceSpilledRows {
                kernel = kernel.combining_rows();
            } else if matches!(
                entry,
                Entry::FoldSliceListCopy
                    | Entry::FoldSliceListCopyWide
                    | Entry::FoldSliceListCopyWideLong
            ) {
                // From the blocks, every one.
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
        step(Entry::LinkSlices, 0, self.slices as u64, Placement::Always);
        match self.copy_pass {
            Some((entry, threads)) => {
                step(first_fold, 0, fold_threads, Placement::InPlace);
                step(entry, 0, threads as u64, Placement::OutOfPlace);
            }
            None => step(first_fold, 0, fold_threads, Placement::Always),
        }
        for pass in 1..=self.fold_passes {
            let groups = slice_pass_groups(
                self.slices,
                self.fold_capacity,
                self.first_steps,
                self.span,
                pass,
            );
            step(
                Entry::FoldSliceListRuns,
                pass,
                groups * params.in_order.fold_tiles as u64 * workgroup,
                Placement::Always,
            );
        }
        if self.spill_bound > 0 {
            // A workgroup a tile of columns of each run of `SPILL_ROUNDS` workgroup widths of
            // the rows set aside.
            let threads = combine_threads(
                self.spilled_capacity(),
                params.in_order.run_rows,
                self.slice_units,
                device.workgroup_size,
            );
            step(Entry::ReduceSpilledRows, 0, threads, Placement::Always);
        }
        // The units of the blocks whose lists went on (none can where there is no second
        // pass) or whose rows were set aside: at most fold_capacity blocks, fewer than the
        // updates' units.
        if self.tie_units > 0 && (self.fold_passes > 0 || self.spill_bound > 0) {
            let threads = self.fold_capacity as u64 * self.slice_units as u64;
            let mut params = params;
            params.count = u32::try_from(threads).unwrap_or(u32::MAX);
            steps.push(Step {
                kernel,
                entry: Entry::WriteListTies,
                params: Parameters::Index(params),
                grid: Grid::Flat(threads),
                placement: Placement::Always,
            });
        }
    }
}
