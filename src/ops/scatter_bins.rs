//! The any-order reductions' workgroup slots and bins (`shaders/scatter_bins.wgsl`, and the
//! 8-byte slots of `shaders/scatter_reduce_wide.wgsl`): how many updates a thread takes, how the
//! bins and slots split the output into ranges, and the partials they leave for the folds
//! (`ops/scatter_lowering.rs` chooses them).

use super::index_map::IndexMap;
use crate::kernels::params::Parameters;
use crate::kernels::{
    BIN_CAPACITY, BIN_GROUP, Entry, Kernel, ReduceOrder, WIDE_PARTIAL_GROUPS, WIDE_SLOTS,
};
use crate::lowering::{DeviceFacts, Grid, Placement, Step};
use crate::options::Reduction;
use crate::tensor::DataType;

/// Updates a thread of the 64-bit compare-exchange pass takes at most onto more units than the
/// slots' ranges cover (each update a compare-exchange loop on its target's word; fewer a
/// thread measured faster, more threads keeping more loops in flight). 4 Mi Float64 Add
/// updates on an H200 (BENCHMARKS.md, issue 26's fifth session, runs 4 to 6), 4 a thread
/// against 16 (`REDUCE_GROUP`, the other passes'): onto 65,536 targets -12 %, 1 Mi and 4 Mi
/// -4.5 %, 131,072 +3 to +5 % (the one element shape that lost; 1 Mi row updates of an
/// index_add, 8 a thread before, +1.8 % in one pass); 2 and 1 a thread cost more onto 131,072
/// (+13 % and +30 %).
const WIDE_GROUP: u32 = 4;

/// Where the updates are at least this many times the output's units (crowded: each
/// target's loop retries), the updates a thread at most: 2. On an H200, 4 Mi updates onto
/// 16,384 targets took 0.45 ms at 16 a thread, 0.33 at 4, 0.28 at 2, 0.30 at 1; 64 Mi 7.7,
/// 4.2, 4.0 and 4.5. Measured at 64 updates a target (4 won) and 256 (2 won), not between.
const CROWDED_WIDE_UPDATES: u64 = 128;
const CROWDED_WIDE_GROUP: u32 = 2;

/// The workgroup slots of the 64-bit compare-exchange pass (`scatter_reduce_wide` of Float64
/// and integer Mul): a slot an output unit where there are at most `BIN_RANGES` times
/// `WIDE_SLOTS` (a range of `WIDE_SLOTS` a workgroup; then updates a thread as
/// [`spread_bins`] gives them, and, where a range's workgroups are at most
/// `WIDE_PARTIAL_GROUPS` and the partials at most `BIN_PARTIALS`, their slots stored as
/// partials for `fold_partials`), else the workgroup's width (and up to `WIDE_GROUP` updates a
/// thread, `CROWDED_WIDE_GROUP` where the updates crowd their targets).
#[derive(Clone, Copy, Debug)]
pub(super) struct WideSlots {
    pub slots: u32,
    pub per_thread: u32,
    pub threads: u64,
    /// The pass's workgroups whose partials `fold_partials` folds (0: none, each
    /// workgroup exchanges its slots into the output).
    pub partial_groups: u32,
    /// The pass's invocations: a chunk's workgroups for each range of WIDE_SLOTS units.
    pub invocations: u64,
}

impl WideSlots {
    pub fn new(updates: u64, output_units: u64, device: &DeviceFacts) -> WideSlots {
        // A slot an output unit, `BIN_RANGES` ranges of WIDE_SLOTS units at most (a range a
        // workgroup, as the bins), or slots shared by units.
        let few_units = output_units <= BIN_RANGES * WIDE_SLOTS as u64;
        let partials = few_units && !device.per_element;
        let (per_thread, threads) = if few_units {
            spread_bins(updates, output_units, partials, device.workgroup_size)
        } else if updates >= CROWDED_WIDE_UPDATES.saturating_mul(output_units) {
            spread(updates, CROWDED_WIDE_GROUP)
        } else {
            spread(updates, WIDE_GROUP)
        };
        let groups = threads.div_ceil(device.workgroup_size as u64);
        let partials = partials && partials_fit(groups, output_units);
        // As the kernel counts them (wide_ranges).
        let ranges = if few_units {
            output_units.div_ceil(WIDE_SLOTS as u64).max(1)
        } else {
            1
        };
        WideSlots {
            slots: if few_units {
                output_units as u32
            } else {
                device.workgroup_size.min(WIDE_SLOTS)
            },
            per_thread,
            threads,
            invocations: groups * ranges * device.workgroup_size as u64,
            partial_groups: if partials { groups as u32 } else { 0 },
        }
    }

    /// The heads' scratch: three words a slot of every workgroup with partials (a little
    /// where there are none: the pass binds it).
    pub fn scratch_bytes(&self) -> u64 {
        (12 * self.partial_groups as u64 * self.slots as u64).max(16)
    }
}

/// How `fold_partials` shares out an output's units: `units` a workgroup, each folded by
/// `slices` threads, the workgroup's threads divided by `units` (which the shader derives as
/// [`PartialFold::slices`] does). Onto a few units, a workgroup a unit, its threads folding
/// the unit's partials in parallel; onto thousands, 16 threads a unit, so that a warp's loads
/// read neighbouring units' partials. (A workgroup a unit, 4 Mi Float64 updates onto 4096
/// units took an H200 0.232 ms, 62 us of it the fold's scattered 12-byte loads; 16 threads a
/// unit, 0.196 ms.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PartialFold {
    pub units: u32,
}

/// The threads the partials' folds aim for in all (`PartialFold`), where a unit's threads
/// can be more than 16.
const FOLD_THREADS: u32 = 1 << 16;

impl PartialFold {
    pub fn new(output_units: u32, workgroup_size: u32) -> PartialFold {
        // Threads a unit: a power of two of at least 16, or the whole workgroup if smaller.
        let wanted = (FOLD_THREADS / output_units.max(1)).next_power_of_two();
        let slices = wanted.max(16).min(workgroup_size).max(1);
        PartialFold {
            units: (workgroup_size / slices).max(1),
        }
    }

    /// The threads that fold each unit, as `fold_partials` derives them: at least as many as
    /// `new` chose, their product with `units` at most the workgroup's size.
    #[cfg(test)]
    pub fn slices(&self, workgroup_size: u32) -> u32 {
        workgroup_size / self.units
    }

    /// The fold's invocations: a workgroup each `units` of the output's.
    pub fn invocations(&self, output_units: u32, workgroup_size: u32) -> u64 {
        (output_units as u64).div_ceil(self.units as u64) * workgroup_size as u64
    }
}

/// Ranges of `BIN_CAPACITY` units the bins of a compare-exchange reduction take at most (a
/// workgroup a range of each chunk of updates: the chunk's indices read once a range).
pub(super) const BIN_RANGES: u64 = 8;

/// Ranges of `BIN_CAPACITY` units the bins of an integer reduction by the device's own
/// atomics (Add, Min, Max) take at most, leaving partials (else the workgroup slots serve).
/// 4 Mi Int32 Add updates on an H200: onto 2049 units 0.206 -> 0.069 ms, onto 4096 0.204 ->
/// 0.095, onto 8192 (four ranges) 0.120 -> 0.135, where each range's second read of the
/// indices costs more than the slots' atomics. The same for Float32 Add where the f32
/// atomics could take it (past them, they do): 4 Mi updates onto 2049 and 4096 units by the
/// bins 0.087 and 0.106 ms against the atomics' 0.238 and 0.244, onto 8192 and 16,384 0.169
/// and 0.259 against 0.138 and 0.110 (64 Mi onto 16,384: 3.23 against 1.36).
pub(super) const NATIVE_BIN_RANGES: u64 = 2;

/// Partials (units times workgroups) the bins or the 8-byte slots leave at most: 32 or 48 MiB
/// of scratch.
const BIN_PARTIALS: u64 = 1 << 22;

/// The pass into workgroup bins (`scatter_reduce_bins`, onto an output of at most
/// `BIN_CAPACITY` units, or by compare-exchange `BIN_RANGES` times that and by the integers'
/// own atomics `NATIVE_BIN_RANGES` times, a range a workgroup): updates a thread as
/// [`spread_bins`] gives them; where partials are asked for, its chunks' workgroups at most
/// `WIDE_PARTIAL_GROUPS` and the partials at most `BIN_PARTIALS`, each workgroup's bins
/// stored as partials for `fold_partials` (two words a unit a chunk) rather than combined
/// into the output.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bins {
    pub units: u32,
    pub per_thread: u32,
    pub threads: u64,
    /// The pass's invocations: the chunk's workgroups for each range.
    pub invocations: u64,
    /// The pass's chunks whose partials `fold_partials` folds (0: none).
    pub partial_groups: u32,
}

impl Bins {
    pub fn new(updates: u64, output_units: u64, partials: bool, device: &DeviceFacts) -> Bins {
        // The partials' kernel binds the heads too, a fifth storage buffer: downlevel devices
        // (4 a stage) combine the bins into the output instead, as they did before.
        let partials_kernel = Kernel::ScatterReduce {
            data_type: DataType::Float32,
            reduction: Reduction::Add,
            order: ReduceOrder::AnyWithPartials,
            copies: false,
            hardware_float64: false,
        };
        let storage_fits = device.bindings.is_none_or(|bindings| {
            bindings.max_storage_buffers_per_shader_stage as usize
                >= partials_kernel.bindings().len()
        });
        let partials = partials && storage_fits && !device.per_element;
        let (per_thread, threads) =
            spread_bins(updates, output_units, partials, device.workgroup_size);
        let groups = threads.div_ceil(device.workgroup_size as u64);
        let partials = partials && partials_fit(groups, output_units);
        // As the kernel counts them.
        let ranges = output_units.div_ceil(BIN_CAPACITY as u64).max(1);
        Bins {
            units: output_units as u32,
            per_thread,
            threads,
            invocations: groups * ranges * device.workgroup_size as u64,
            partial_groups: if partials { groups as u32 } else { 0 },
        }
    }

    /// The heads' scratch: two words a unit of every workgroup with partials.
    pub fn scratch_bytes(&self) -> u64 {
        8 * self.partial_groups as u64 * self.units as u64
    }
}

/// Threads of an any-order reduction (`scatter_reduce`, `scatter_reduce_wide`,
/// `scatter_reduce_bins`) wanted before a thread takes more than one update: enough to keep a
/// large GPU busy. Past them a thread takes several (up to the kernel's group), which
/// `scatter_reduce`'s workgroup slots and the bins' workgroups combine before the output.
/// A thread's updates are dependent round trips (index, update, compare-exchange): 4096
/// Float16 updates 16 a thread, one workgroup, took an H100 37 us (BENCHMARKS.md, issue 26).
const SPREAD_THREADS: u64 = 1 << 17;

/// Updates a thread of an any-order reduction takes (at most `group`), and its threads.
pub(super) fn spread(count: u64, group: u32) -> (u32, u64) {
    let per_thread = count.div_ceil(SPREAD_THREADS).clamp(1, group as u64);
    (per_thread as u32, count.div_ceil(per_thread))
}

/// The most updates a thread of the bins or the 8-byte slots takes where that leaves their
/// workgroups' partials within `fold_partials`' reach.
const BIN_SPREAD: u32 = 64;

/// Whether `groups` workgroups (of a range) of the bins or slots may leave partials of
/// `units` units for `fold_partials`.
fn partials_fit(groups: u64, units: u64) -> bool {
    groups <= WIDE_PARTIAL_GROUPS as u64 && groups.saturating_mul(units) <= BIN_PARTIALS
}

/// Updates a thread of the bins or the 8-byte slots takes, and its threads: [`spread`]'s up
/// to `BIN_SPREAD`, or, where `partials` are wanted and that would make more workgroups than
/// [`partials_fit`] allows, as many more (up to `BIN_GROUP`) as bring them within it. Past
/// it, every workgroup exchanges its bins into the same few units: 262,144 rows of 256
/// Float16 updates added into one row (64 Mi updates onto 256 units, 4096 workgroups of 64
/// a thread) took an H200 9.4 ms that way, 0.59 in 2048 workgroups of 128 a thread, against
/// PyTorch's 2.8 (BENCHMARKS.md, issue 26's many updates).
pub(super) fn spread_bins(
    updates: u64,
    units: u64,
    partials: bool,
    workgroup_size: u32,
) -> (u32, u64) {
    let (per_thread, threads) = spread(updates, BIN_SPREAD);
    let workgroup_size = workgroup_size.max(1) as u64;
    if !partials || partials_fit(threads.div_ceil(workgroup_size), units) {
        return (per_thread, threads);
    }
    let most_groups = (BIN_PARTIALS / units.max(1)).min(WIDE_PARTIAL_GROUPS as u64);
    let wanted = updates.div_ceil(most_groups.max(1).saturating_mul(workgroup_size));
    // Only where each workgroup's bins would take an update each on average: sparser, the
    // workgroups' exchanges rarely meet, and writing and folding every bin costs more.
    let crowded = updates / units.max(1) >= most_groups;
    if most_groups == 0 || !crowded || wanted > BIN_GROUP as u64 {
        return (per_thread, threads);
    }
    let wanted = wanted.max(per_thread as u64);
    (wanted as u32, updates.div_ceil(wanted))
}

/// The reduction into workgroup bins (`bins.units` of them, at most `BIN_CAPACITY` a range).
pub(super) fn bins_step(map: &IndexMap, kernel: Kernel, bins: &Bins) -> Step {
    let mut params = map.params(1);
    params.bins.units = bins.units;
    params.bins.per_thread = bins.per_thread;
    params.bins.threads = bins.threads as u32;
    params.bins.partial_groups = bins.partial_groups;
    Step {
        kernel,
        entry: Entry::ScatterReduceBins,
        params: Parameters::Index(params),
        grid: Grid::Flat(bins.invocations),
        placement: Placement::Always,
    }
}

#[cfg(test)]
mod tests {
    use super::PartialFold;

    #[test]
    fn partial_folds_cover_every_unit_within_one_workgroup_each() {
        for workgroup_size in [1, 2, 15, 16, 64, 100, 256] {
            for units in [1, 2, 3, 1000, 2048, 4096, 8192, 65_536, u32::MAX] {
                let fold = PartialFold::new(units, workgroup_size);
                let slices = fold.slices(workgroup_size);
                let label = format!("{units} units, workgroups of {workgroup_size}: {fold:?}");
                assert!(fold.units >= 1 && slices >= 1, "{label}");
                assert!(fold.units * slices <= workgroup_size, "{label}");
                let groups = fold.invocations(units, workgroup_size) / workgroup_size as u64;
                assert!(groups * fold.units as u64 >= units as u64, "{label}");
            }
        }
        // A workgroup a unit onto few units; 16 threads a unit onto thousands.
        for (units, fold_units, slices) in [(1, 1, 256), (1000, 2, 128), (4096, 16, 16)] {
            let fold = PartialFold::new(units, 256);
            assert_eq!(
                (fold.units, fold.slices(256)),
                (fold_units, slices),
                "{units}"
            );
        }
        // Workgroups not a power of two: the derived threads a unit at least those chosen.
        assert_eq!(PartialFold::new(4096, 100).slices(100), 16);
        assert_eq!(PartialFold::new(1000, 100).slices(100), 100);
    }

    #[test]
    fn wide_exchanges_past_the_slots_ranges_take_a_few_updates_a_thread() {
        use super::{BIN_RANGES, WIDE_SLOTS, WideSlots};
        use crate::ops::index_map::tests::DEVICE;
        let past_ranges = BIN_RANGES * WIDE_SLOTS as u64 + 1;
        for (updates, units, per_thread) in [
            // 128 updates a target and more (crowded): 2 a thread.
            (1 << 22, 16_384, 2),
            (128 * past_ranges, past_ranges, 2),
            (1 << 26, 16_384, 2),
            // Fewer: 4 a thread.
            (128 * past_ranges - 1, past_ranges, 4),
            (1 << 22, 65_536, 4),
            (1 << 22, 1 << 22, 4),
            // Few updates: one a thread, up to 2^17 threads.
            (1000, 1 << 20, 1),
            ((1 << 17) + 1, 1 << 20, 2),
        ] {
            let wide = WideSlots::new(updates, units, &DEVICE);
            let label = format!("{updates} updates onto {units} units: {wide:?}");
            assert_eq!(wide.per_thread, per_thread, "{label}");
            assert_eq!(wide.threads, updates.div_ceil(per_thread as u64), "{label}");
            assert_eq!(wide.slots, DEVICE.workgroup_size.min(WIDE_SLOTS), "{label}");
            assert_eq!(wide.partial_groups, 0, "{label}");
        }
        // Onto the slots' ranges, the bins' spread (the test below).
        let wide = WideSlots::new(1 << 22, 8192, &DEVICE);
        assert_eq!(wide.slots, 8192);
        assert!(wide.per_thread > 4, "{wide:?}");
    }

    #[test]
    fn crowded_bins_take_more_updates_a_thread_to_keep_their_partials() {
        use super::{BIN_PARTIALS, Bins, WideSlots, spread_bins};
        use crate::kernels::{BIN_GROUP, WIDE_PARTIAL_GROUPS};
        use crate::ops::index_map::tests::DEVICE;
        let wave = 1u64 << 17;
        // (updates, units, partials wanted) -> (updates a thread, threads).
        for (updates, units, partials, expected) in [
            // Within the partials' reach: 64 a thread at most, as any reduction spreads.
            (4 * wave, 256, true, (4, wave)),
            (64 * wave, 2048, true, (64, wave)),
            // 64 Mi updates onto 256 units: 2048 workgroups of 128 a thread, not 4096 of 64.
            (1 << 26, 256, true, (128, 1 << 19)),
            (1 << 26, 1024, true, (128, 1 << 19)),
            // Onto 4096 units, BIN_PARTIALS / 4096 = 1024 workgroups.
            (1 << 26, 4096, true, (256, 1 << 18)),
            // Partials not wanted (or not possible): as before.
            (1 << 26, 256, false, (64, 1 << 20)),
            // tests/scatter_reductions.rs' shapes: 4 Mi + 1 onto 16,384 units (as many
            // updates a unit as workgroups fit: 65 a thread, not 33), 8.4 Mi onto 8192.
            (4_194_305, 16_384, true, (65, 64_528)),
            (8_400_001, 8192, true, (65, 129_231)),
            // Too sparse for every bin to take updates: the exchanges rarely meet.
            (2 * wave, 16_384, true, (2, wave)),
            (4_194_303, 16_384, true, (32, 131_072)),
            // More than BIN_GROUP a thread would take: as before.
            (1 << 30, 1024, true, (64, 1 << 24)),
        ] {
            let label = format!("{updates} updates onto {units} units, partials {partials}");
            let (per_thread, threads) = spread_bins(updates, units, partials, 256);
            assert_eq!((per_thread, threads), expected, "{label}");
            assert!(per_thread <= BIN_GROUP, "{label}");
            assert!(per_thread as u64 * threads >= updates, "{label}");
        }
        // The bins and the 8-byte slots keep their partials at 64 Mi updates.
        for units in [256, 1024, 4096] {
            let bins = Bins::new(1 << 26, units, true, &DEVICE);
            let groups = bins.threads.div_ceil(256);
            assert_eq!(bins.partial_groups as u64, groups, "{units} units");
            assert!(groups <= WIDE_PARTIAL_GROUPS as u64 && groups * units <= BIN_PARTIALS);
            let wide = WideSlots::new(1 << 26, units, &DEVICE);
            assert_eq!(
                (wide.per_thread, wide.partial_groups as u64),
                (bins.per_thread, groups),
                "{units} units"
            );
        }
        // Tensors past the binding windows (every element its own windows): no partials.
        let per_element = crate::lowering::DeviceFacts {
            per_element: true,
            ..DEVICE
        };
        let bins = Bins::new(1 << 26, 256, true, &per_element);
        assert_eq!((bins.per_thread, bins.partial_groups), (64, 0));
    }
}
