//! A chosen scatter strategy's steps ([`emit`]): the scratch's clear, the copy, the passes
//! of the strategy, and the status's description (`ops/scatter_lowering.rs` chooses).

use super::index_map::Grouping;
use super::scatter_any_update::{RowSteps, any_update_steps};
use super::scatter_bins::{PartialFold, bins_step, spread};
use super::scatter_copies::{in_place, output_copy};
use super::scatter_float_add::float_atomics_steps;
use super::scatter_lowering::{Chosen, Scatter, Strategy};
use super::scatter_plans::describes_status;
use crate::error::{Error, Result};
use crate::kernels::params::Parameters;
use crate::kernels::{CLEAR_WORDS, Entry, REDUCE_GROUP};
use crate::lowering::{Grid, Lowered, Placement, Step};

/// `BinParams::claims`: the any-order pass claims float ties as it places updates
/// (`CLAIMS_AS_PLACED` in `shaders/units.wgsl`).
const CLAIMS_AS_PLACED: u32 = 1;
/// `BinParams::sign_atomics`: Float32 Min and Max's fast pass, and the pass after it for the
/// NaNs it refused (`shaders/scatter_reduce.wgsl`).
const SIGN_ATOMICS_PASS: u32 = 1;
const REFUSED_NANS_PASS: u32 = 2;

/// The chosen strategy's steps, whole.
pub(super) fn emit(scatter: &Scatter, chosen: Chosen) -> Result<Lowered> {
    let Chosen {
        strategy,
        map,
        kernel,
        output_units,
        device,
    } = chosen;
    let (scratch_bytes, links_bytes) = strategy.scratch(output_units);
    // The scratch zeroed by a dispatch in the compute pass, CLEAR_WORDS words a thread, its
    // words addressed by u32 (as every kernel addresses them).
    let words = scratch_bytes / 4;
    let scratch_words = u32::try_from(words).map_err(|_| Error::LimitExceeded {
        what: "a scatter's scratch (4 bytes an output unit or more)",
        needed: scratch_bytes,
        limit_name: "u32 word indices",
        limit: 4 * u32::MAX as u64,
    })?;
    let mut steps = Vec::new();
    // The words zeroed (or, for `write_unit_ties`, settled): the whole scratch, but for the
    // lists' tie words.
    let cleared_words = match &strategy {
        Strategy::RowLists(plan) => plan.cleared_heads_words().min(words) as u32,
        _ => scratch_words,
    };
    let clear = |entry| {
        let mut params = map.params(1);
        params.count = cleared_words;
        Step {
            kernel,
            entry,
            params: Parameters::Index(params),
            grid: Grid::Flat((cleared_words as u64).div_ceil(CLEAR_WORDS as u64)),
            placement: Placement::Always,
        }
    };
    // Ties claimed as placed: the inputs' claims fill the heads (`screen_output`, below).
    match &strategy {
        Strategy::InOrder => steps.push(clear(Entry::ClearWinners)),
        Strategy::AnyOrderReduction {
            claims_as_placed: true,
            ..
        } => {}
        Strategy::AnyOrderReduction { ties: true, .. }
        | Strategy::SortedRuns(_)
        | Strategy::RowLists(_) => steps.push(clear(Entry::ClearHeads)),
        Strategy::AnyUpdate { .. } | Strategy::AnyOrderReduction { ties: false, .. } => {}
    }
    // Out of place, `output = input` first (unless the scatter copies rows itself, or the
    // first fold of the lists or sorted runs copies as it folds).
    let copies_itself = match &strategy {
        Strategy::AnyUpdate { copy_rows, .. } => copy_rows.is_some(),
        Strategy::RowLists(plan) => plan.copies(),
        Strategy::SortedRuns(plan) => plan.copies(),
        Strategy::AnyOrderReduction { screen_copies, .. } => *screen_copies,
        _ => false,
    };
    if !copies_itself {
        steps.extend(
            output_copy(scatter.input, scatter.output).steps(&device, Placement::OutOfPlace),
        );
    }
    if let Strategy::AnyOrderReduction {
        claims_as_placed,
        sign_atomics,
        screen_copies,
        ..
    } = strategy
        && (claims_as_placed || sign_atomics)
    {
        // One read of the output's units (CLEAR_WORDS a thread: they fit u32, by `choose`)
        // for the inputs' tie claims (in place of clearing the heads) and the sign atomics'
        // screen; out of place, maybe the copy too.
        let mut params = map.params(1);
        params.bins.units = output_units as u32;
        if claims_as_placed {
            params.bins.claims = CLAIMS_AS_PLACED;
        }
        if sign_atomics {
            params.bins.sign_atomics = SIGN_ATOMICS_PASS;
        }
        let screen = Step {
            kernel,
            entry: Entry::ScreenOutput,
            params: Parameters::Index(params),
            grid: Grid::Flat(output_units.div_ceil(CLEAR_WORDS as u64)),
            placement: Placement::Always,
        };
        steps.extend(screen.copying_out_of_place(screen_copies));
    }
    let single = |entry| Grouping {
        entry,
        units_per_thread: 1,
        group_units: 1,
    };
    match &strategy {
        Strategy::AnyUpdate {
            grouping,
            copy_rows,
            rows_in_place,
        } => {
            let rows = RowSteps {
                copy_rows: *copy_rows,
                rows_in_place: *rows_in_place,
            };
            any_update_steps(&mut steps, &map, kernel, *grouping, rows, &device)
        }
        Strategy::InOrder => {
            steps.push(map.dispatch(kernel, single(Entry::ClaimTargets), Placement::Always));
            steps.push(map.dispatch(kernel, single(Entry::WriteWinners), Placement::Always));
        }
        Strategy::AnyOrderReduction {
            ties,
            claims_as_placed,
            sign_atomics,
            screen_copies,
            bins,
            wide,
            float_atomics,
        } => {
            if *ties && !*claims_as_placed {
                steps.push(map.dispatch(kernel, single(Entry::ClaimTies), Placement::Always));
            }
            if *float_atomics {
                float_atomics_steps(&mut steps, &map, output_units, *screen_copies);
            }
            let mut step = if let Some(bins) = bins {
                bins_step(&map, kernel, bins)
            } else {
                // One 64-bit atomic an update, or a compare-exchange (4-byte units, and
                // 8-byte ones after `wide`'s slots); up to REDUCE_GROUP updates a thread
                // (`wide`'s as `WideSlots` chooses: up to BIN_GROUP onto a small output,
                // WIDE_GROUP or fewer past it).
                let entry = if map.element_bytes == 8 {
                    Entry::ScatterReduceWide
                } else {
                    Entry::ScatterReduce
                };
                let mut params = map.params(1);
                let (per_thread, threads, invocations) = match wide {
                    Some(wide) => {
                        params.bins.units = wide.slots;
                        params.bins.partial_groups = wide.partial_groups;
                        (wide.per_thread, wide.threads, wide.invocations)
                    }
                    None => {
                        let (per_thread, threads) = spread(map.invocations(), REDUCE_GROUP);
                        (per_thread, threads, threads)
                    }
                };
                params.bins.per_thread = per_thread;
                params.bins.threads = threads as u32;
                Step {
                    kernel,
                    entry,
                    params: Parameters::Index(params),
                    grid: Grid::Flat(invocations),
                    placement: Placement::Always,
                }
            };
            if let Parameters::Index(params) = &mut step.params {
                if *claims_as_placed {
                    params.bins.claims = CLAIMS_AS_PLACED;
                }
                if *sign_atomics {
                    params.bins.sign_atomics = SIGN_ATOMICS_PASS;
                }
            }
            if *sign_atomics {
                // The fast pass (after the screen, above), then the pass for the NaNs it
                // refused.
                let mut refused = step.clone();
                if let Parameters::Index(params) = &mut refused.params {
                    params.bins.sign_atomics = REFUSED_NANS_PASS;
                }
                steps.push(step);
                steps.push(refused);
            } else {
                steps.push(step);
            }
            // The bins' or the 8-byte slots' partials: one fold serves both.
            let folds = [
                bins.map(|bins| (bins.units, bins.partial_groups)),
                wide.map(|wide| (wide.slots, wide.partial_groups)),
            ];
            for (units, partial_groups) in folds.into_iter().flatten() {
                if partial_groups == 0 {
                    continue;
                }
                let fold = PartialFold::new(units, device.workgroup_size);
                let mut params = map.params(1);
                params.bins.units = units;
                params.bins.partial_groups = partial_groups;
                params.bins.fold_units = fold.units;
                steps.push(Step {
                    kernel,
                    entry: Entry::FoldPartials,
                    params: Parameters::Index(params),
                    grid: Grid::Flat(fold.invocations(units, device.workgroup_size)),
                    placement: Placement::Always,
                });
            }
            if *claims_as_placed {
                // The claims' positions count update units: rows of one unit.
                let mut step = clear(Entry::WriteUnitTies);
                if let Parameters::Index(params) = &mut step.params {
                    params.in_order.slice_units = 1;
                    params.in_order.slice_rank = 0;
                }
                steps.push(step);
            } else if *ties {
                steps.push(map.dispatch(kernel, single(Entry::WriteTies), Placement::Always));
            }
        }
        Strategy::SortedRuns(plan) => {
            plan.push_steps(&mut steps, kernel, &map, output_units, &device)
        }
        Strategy::RowLists(plan) => {
            plan.push_steps(&mut steps, kernel, &map, output_units, &device)
        }
    }
    // Unless a pass after the reports describes the status (the sorted runs', the lists').
    if !steps.iter().any(describes_status) {
        steps.push(map.describe_step(kernel));
    }
    Ok(Lowered {
        steps,
        scratch_bytes,
        links_bytes,
        index_report: Some(scatter.index_report(&map)),
        in_place: in_place(scatter),
        zero_indices_bytes: 0,
    })
}
