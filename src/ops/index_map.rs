//! The indexed copy behind every scatter and gather: a walk over a *dense* tensor
//! (a scatter's updates, a gather's output) where some coordinates of the *indexed* tensor
//! (a scatter's output, a gather's input) come from an index tensor.
//!
//! For every coordinate `c` of `sizes`:
//! * the dense element is `c . dense_strides`;
//! * the index tuple starts at indices element `c . indices_strides`, its components
//!   `tuple_stride` apart;
//! * the indexed element is `c . indexed_strides + sum_k normalise(index_k) * index_strides[k]`,
//!   where `normalise` maps `[-bound_k, bound_k)` onto `[0, bound_k)` (negatives count from the
//!   end, for signed index types) and anything else is out of range.

use super::strided_copy::merge_dimensions;
use crate::kernels::params::{
    BinParams, CopyRowParams, INDEX_CIRCULAR, INDEX_CLAMP, INDEX_SEQUENCE, INDEX_SIGNED,
    INDEX_WORD_PAIRS, InOrderParams, IndexParams, Parameters, PerDimension, SequenceParams,
    row_capacity,
};
use crate::kernels::{Entry, Kernel, Unit};
use crate::lowering::{DeviceFacts, Grid, Placement, Step};
use crate::status::{IndexReport, SequenceReport};
use crate::tensor::{DataType, TensorDesc, packed_strides};

/// Units a thread of the row kernels takes a round (`GROUP` in `shaders/scatter.wgsl`).
const COPY_ROW_GROUP: u64 = 4;
/// Rounds of a workgroup's threads a row kernel may loop over a row's updates; rows
/// with more updates take the plain scatter.
const COPY_ROW_ROUNDS: u64 = 256;

/// A family's entry points for each row shape (see [`IndexMap::grouping`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntriesByRowShape {
    /// Whole words of 1- or 2-byte units a thread.
    pub words: Entry,
    /// Four 4-byte units of a row a thread.
    pub rows: Entry,
    /// Coalesced blocks of a workgroup's 4-byte units.
    pub blocks: Entry,
    /// One unit a thread.
    pub single: Entry,
}

/// The entry point a dispatch uses, the units each thread moves, and the units of a row that
/// `group_index` counts as one group (a thread's, or a workgroup's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Grouping {
    pub entry: Entry,
    pub units_per_thread: u32,
    pub group_units: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct IndexMap {
    pub element_bytes: u32,
    pub sizes: Vec<u32>,
    pub dense_strides: Vec<i64>,
    pub indexed_strides: Vec<i64>,
    pub indices_strides: Vec<i64>,
    pub tuple_stride: i64,
    pub index_bounds: Vec<u32>,
    pub index_strides: Vec<i64>,
    pub index_type: DataType,
    /// Out-of-range indices are clamped into range ([`super::OutOfRange::Clamp`]).
    pub clamp: bool,
    /// TensorScatter: the index of a tuple position is a write index plus a sequence position.
    pub sequence: Option<SequenceMap>,
}

/// TensorScatter's indices (`INDEX_SEQUENCE`): the walk's `indices_strides` give tuple position
/// `entry * length + s` for an update at batch entry `entry` and sequence position `s`; the
/// index there is the entry's write index (indices element `entry * write_stride`) plus `s`,
/// wrapped around the sequence axis where `circular`, else in range only where the whole run
/// of `length` positions fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SequenceMap {
    pub length: u32,
    pub write_stride: u32,
    pub circular: bool,
}

impl IndexMap {
    /// Merged as [`merge_dimensions`] does, over all three stride sets.
    pub fn merged(&self) -> IndexMap {
        let (sizes, strides) = merge_dimensions(
            &self.sizes,
            &[
                &self.dense_strides,
                &self.indexed_strides,
                &self.indices_strides,
            ],
        );
        let [dense_strides, indexed_strides, indices_strides] =
            <[Vec<i64>; 3]>::try_from(strides).unwrap();
        IndexMap {
            sizes,
            dense_strides,
            indexed_strides,
            indices_strides,
            ..self.clone()
        }
    }

    /// Moves `k` elements at a time where the innermost dimension is contiguous in both data
    /// tensors and shares one index tuple (ScatterND and GatherND rows), and every offset stays
    /// aligned to the wider unit.
    pub fn widened(&self, max_unit: u32) -> IndexMap {
        let inner = self.sizes.len() - 1;
        let mut unit = max_unit.min(16);
        while unit > self.element_bytes {
            let k = (unit / self.element_bytes) as i64;
            let fits = self.dense_strides[inner] == 1
                && self.indexed_strides[inner] == 1
                && self.indices_strides[inner] == 0
                && self.sizes[inner] as i64 % k == 0
                && (0..inner)
                    .all(|d| self.dense_strides[d] % k == 0 && self.indexed_strides[d] % k == 0)
                && self.index_strides.iter().all(|s| s % k == 0);
            if fits {
                let mut wide = self.clone();
                wide.element_bytes = unit;
                wide.sizes[inner] /= k as u32;
                for d in 0..inner {
                    wide.dense_strides[d] /= k;
                    wide.indexed_strides[d] /= k;
                }
                for s in wide.index_strides.iter_mut() {
                    *s /= k;
                }
                return wide;
            }
            unit /= 2;
        }
        self.clone()
    }

    /// Whether every run of `4 / element_bytes` neighbours (1- and 2-byte elements) starts a
    /// word in the dense tensor and, when its indices agree, in the indexed tensor: rows
    /// contiguous in both, and every row start and index stride a whole number of words.
    pub fn rows_fill_words(&self) -> bool {
        let per_word = (4 / self.element_bytes) as i64;
        let inner = self.sizes.len() - 1;
        self.dense_rows_fill_words()
            && self.indexed_strides[inner] == 1
            && (0..inner).all(|d| self.indexed_strides[d] % per_word == 0)
            && self.index_strides.iter().all(|s| s % per_word == 0)
    }

    /// Whether every run of `4 / element_bytes` neighbours starts a word of the dense tensor:
    /// dense rows contiguous, and every row start a whole number of words.
    pub fn dense_rows_fill_words(&self) -> bool {
        let per_word = (4 / self.element_bytes) as i64;
        let inner = self.sizes.len() - 1;
        self.dense_strides[inner] == 1
            && self.sizes[inner] as i64 % per_word == 0
            && (0..inner).all(|d| self.dense_strides[d] % per_word == 0)
    }

    /// Whether the dense tensor is packed row-major: dense unit `i` is the walk's unit `i`.
    pub fn dense_packed(&self) -> bool {
        let mut packed = 1i64;
        for d in (0..self.sizes.len()).rev() {
            if self.sizes[d] > 1 && self.dense_strides[d] != packed {
                return false;
            }
            packed *= self.sizes[d] as i64;
        }
        true
    }

    /// The grouping of `entry` for 1- and 2-byte units whose rows do not fill whole words: a
    /// word's worth of neighbouring units a thread, located one by one (the last thread may
    /// have fewer). `None` for wider units, or where the device asks for one unit a thread.
    pub fn spans(&self, entry: Entry, device: &DeviceFacts) -> Option<Grouping> {
        (self.element_bytes < 4 && !device.per_element).then_some(Grouping {
            entry,
            units_per_thread: 4 / self.element_bytes,
            group_units: 1,
        })
    }

    /// The units of a slice: the product of the trailing sizes whose elements share one index
    /// tuple (`indices_strides` 0), as ScatterND's rows do.
    pub fn slice_units(&self) -> u64 {
        self.sizes[self.sizes.len() - self.slice_rank()..]
            .iter()
            .map(|&size| size as u64)
            .product()
    }

    /// The trailing dimensions of a slice (see [`IndexMap::slice_units`]).
    pub fn slice_rank(&self) -> usize {
        self.indices_strides
            .iter()
            .rev()
            .take_while(|&&stride| stride == 0)
            .count()
    }

    /// Whether every slice lands on a whole, aligned block of `slice_units` indexed units: the
    /// slice dimensions packed row-major in the indexed tensor, every other indexed stride and
    /// every index stride a multiple of the slice. A slice's target then names one block.
    pub fn slices_fill_blocks(&self) -> bool {
        let units = self.slice_units() as i64;
        let first = self.sizes.len() - self.slice_rank();
        if first == self.sizes.len() {
            return false;
        }
        let mut packed = 1i64;
        for d in (first..self.sizes.len()).rev() {
            if self.indexed_strides[d] != packed {
                return false;
            }
            packed *= self.sizes[d] as i64;
        }
        (0..first).all(|d| self.indexed_strides[d] % units == 0)
            && self.index_strides.iter().all(|s| s % units == 0)
    }

    pub fn unit(&self) -> Unit {
        Unit::from_bytes(self.element_bytes)
    }

    pub fn invocations(&self) -> u64 {
        self.sizes.iter().map(|&s| s as u64).product()
    }

    /// The parameters of `shaders/index_map.wgsl`, where `group_index` counts groups of
    /// `group` units of a row (a thread's, or a workgroup's).
    pub fn params(&self, group: u32) -> IndexParams {
        let flag = |set: bool, bit: u32| if set { bit } else { 0 };
        let flags = flag(self.index_type.is_signed(), INDEX_SIGNED)
            | flag(self.index_type.size_in_bytes() == 8, INDEX_WORD_PAIRS)
            | flag(self.clamp, INDEX_CLAMP)
            | flag(self.sequence.is_some(), INDEX_SEQUENCE)
            | flag(self.sequence.is_some_and(|s| s.circular), INDEX_CIRCULAR);
        let inner = *self.sizes.last().expect("rank >= 1");
        let row_groups = inner / group;
        let rows = (self.invocations() / inner as u64) as u32;
        IndexParams {
            count: self.invocations() as u32,
            rank: self.sizes.len() as u32,
            tuple_size: self.index_bounds.len() as u32,
            index_flags: flags,
            tuple_stride: self.tuple_stride as u32,
            tile: self.tile(group, row_groups, rows),
            row_groups,
            rows,
            in_order: InOrderParams {
                slice_units: 1,
                slices: self.invocations() as u32,
                ..Default::default()
            },
            copy: CopyRowParams::default(),
            sequence: self
                .sequence
                .map_or(SequenceParams::default(), |s| SequenceParams {
                    length: s.length,
                    write_stride: s.write_stride,
                    padding: [0; 2],
                }),
            bins: BinParams::default(),
            sizes: PerDimension::new(self.sizes.iter().copied()),
            dense_strides: PerDimension::strides(&self.dense_strides),
            indexed_strides: PerDimension::strides(&self.indexed_strides),
            indices_strides: PerDimension::strides(&self.indices_strides),
            index_bounds: PerDimension::new(self.index_bounds.iter().copied()),
            index_strides: PerDimension::strides(&self.index_strides),
        }
    }

    /// Threads visit column blocks of this many groups, all rows of a block before the next
    /// (0: row-major). Worth it where every element has its own index along an outer axis
    /// (ScatterElements, GatherElements): neighbouring threads then scatter over many rows,
    /// and a block of all rows keeps those rows' lines in cache while the block fills them.
    /// Blocks are `TILE_UNITS` units of a row (or one group, if groups are larger). Gathers
    /// of 1- and 2-byte elements do without (see `gather` in src/ops/gather.rs).
    fn tile(&self, group: u32, row_groups: u32, rows: u32) -> u32 {
        const TILE_UNITS: u32 = 128;
        let tile = (TILE_UNITS / group).max(1);
        let inner = self.sizes.len() - 1;
        let own_index = self.indices_strides[inner] != 0;
        let outer_axis = self.indexed_strides[inner] != 0 && self.index_bounds.len() == 1;
        if own_index && outer_axis && rows > 1 && row_groups.is_multiple_of(tile) {
            tile
        } else {
            0
        }
    }

    /// The entry point by row shape: whole words for 1- and 2-byte units (`words`, when
    /// `words_fit`); for 4-byte units, coalesced blocks of a workgroup's 4 units a thread
    /// (`blocks`) where rows are whole blocks, else 4 neighbours a thread (`rows`); else one
    /// unit a thread (always, where the device asks for one element a thread).
    pub fn grouping(
        &self,
        entries: EntriesByRowShape,
        words_fit: bool,
        device: &DeviceFacts,
    ) -> Grouping {
        let workgroup_size = device.workgroup_size;
        let inner = *self.sizes.last().expect("rank >= 1");
        let grouping = |entry, units_per_thread, group_units| Grouping {
            entry,
            units_per_thread,
            group_units,
        };
        let per_word = 4 / self.element_bytes.min(4);
        if device.per_element {
            return grouping(entries.single, 1, 1);
        }
        match self.element_bytes {
            1 | 2 if words_fit => grouping(entries.words, per_word, per_word),
            4 if inner.is_multiple_of(4 * workgroup_size) => {
                grouping(entries.blocks, 4, 4 * workgroup_size)
            }
            4 if inner.is_multiple_of(4) => grouping(entries.rows, 4, 4),
            _ => grouping(entries.single, 1, 1),
        }
    }

    /// Where a scatter out of place can copy as it scatters (`scatter_copy_rows`): the
    /// output's rows and their length in units, where a workgroup can take a row (see
    /// [`IndexMap::row_shape`]) and the device copies faster by kernel. Units of at most 4
    /// bytes, each a word of workgroup memory (rows of 1- and 2-byte units may share their
    /// end words with their neighbours: the kernel merges those).
    pub fn copy_rows(
        &self,
        input: &TensorDesc,
        output: &TensorDesc,
        device: &DeviceFacts,
    ) -> Option<(u32, u32)> {
        self.row_shape(input, output, device)
            .filter(|_| device.copies_in_kernels)
    }

    /// Where a scatter in place can take a workgroup a row (`scatter_rows_in_place`): the
    /// rows of updates and the rows' length in units, for 1- and 2-byte units (whose
    /// scattered stores compare-exchange words their neighbours contend for; 4-byte ones
    /// store plainly) where a workgroup can take a row (see [`IndexMap::row_shape`]) and a
    /// row has at least an eighth of its length in updates (the kernel reads and writes
    /// every word of the row, where sparser rows take fewer words by compare-exchange).
    pub fn rows_in_place(
        &self,
        input: &TensorDesc,
        output: &TensorDesc,
        device: &DeviceFacts,
    ) -> Option<(u32, u32)> {
        let (_, length) = self.row_shape(input, output, device)?;
        let row_updates = self.invocations() / (self.sizes[0] as u64).max(1);
        (self.element_bytes < 4 && row_updates.saturating_mul(8) >= length as u64)
            .then_some((self.sizes[0], length))
    }

    /// The output's rows and their length in units, if every update of outer coordinate `r`
    /// lands in row `r` of an output packed like the input (ScatterElements along an inner
    /// axis), a row holds at least a workgroup's worth of units and fits workgroup memory.
    fn row_shape(
        &self,
        input: &TensorDesc,
        output: &TensorDesc,
        device: &DeviceFacts,
    ) -> Option<(u32, u32)> {
        let packed = |t: &TensorDesc| t.effective_strides() == packed_strides(&t.sizes);
        if device.per_element
            || self.element_bytes > 4
            || self.sizes.len() < 2
            || !packed(input)
            || !packed(output)
            || input.sizes != output.sizes
        {
            return None;
        }
        let length = u64::try_from(self.indexed_strides[0]).ok()?;
        let nonnegative = |strides: &[i64]| strides.iter().all(|&s| s >= 0);
        if !nonnegative(&self.indexed_strides) || !nonnegative(&self.index_strides) {
            return None;
        }
        // The furthest unit from a row's start that an update can reach.
        let reach: u64 = (1..self.sizes.len())
            .map(|k| (self.sizes[k] as u64 - 1) * self.indexed_strides[k] as u64)
            .chain(
                self.index_bounds
                    .iter()
                    .zip(&self.index_strides)
                    .map(|(&bound, &stride)| (bound as u64).saturating_sub(1) * stride as u64),
            )
            .fold(0u64, |sum, term| sum.saturating_add(term));
        // The tensor's own bytes (a larger total size leaves bytes past them untouched).
        let bytes = output.element_count() * output.data_type.size_in_bytes() as u64;
        let units = bytes / self.element_bytes as u64;
        let workgroup = device.workgroup_size as u64;
        let rows = units / length.max(1);
        // A thread's loop over its row's updates runs at most COPY_ROW_ROUNDS rounds (of
        // GROUP units a thread): a bound the data cannot raise (see `FOLD_STEPS`).
        let row_updates = self.invocations() / (self.sizes[0] as u64).max(1);
        let round = device.row_threads as u64 * COPY_ROW_GROUP;
        (reach < length
            && row_updates <= round * COPY_ROW_ROUNDS
            && length >= workgroup
            && length <= u32::MAX as u64
            && row_capacity(length as u32) as u64 * 4 <= device.max_workgroup_storage_bytes as u64
            && bytes.is_multiple_of(self.element_bytes as u64)
            && units.is_multiple_of(length)
            && rows >= self.sizes[0] as u64
            // A workgroup a row: the dispatch's threads within the u32 index space.
            && rows * workgroup <= u32::MAX as u64 - workgroup)
            .then_some((rows as u32, length as u32))
    }

    /// The dispatch of `kernel`'s entry point as `grouping` says.
    pub fn dispatch(&self, kernel: Kernel, grouping: Grouping, placement: Placement) -> Step {
        Step {
            kernel,
            entry: grouping.entry,
            params: Parameters::Index(self.params(grouping.group_units)),
            grid: Grid::Flat(
                self.invocations()
                    .div_ceil(grouping.units_per_thread as u64),
            ),
            placement,
        }
    }

    /// As [`IndexMap::dispatch`], with threads in row-major order, never by column blocks.
    pub fn dispatch_row_major(
        &self,
        kernel: Kernel,
        grouping: Grouping,
        placement: Placement,
    ) -> Step {
        let mut step = self.dispatch(kernel, grouping, placement);
        if let Step {
            params: Parameters::Index(params),
            ..
        } = &mut step
        {
            params.tile = 0;
        }
        step
    }

    /// How the host decodes an out-of-range report of this map, once optimised to `lowered`:
    /// `dense_sizes` are the dense tensor's sizes and `positions` gives, per indices dimension
    /// (less the tuple dimension when `tuples`), the dense dimension holding its coordinate.
    pub fn report(
        &self,
        lowered: &IndexMap,
        dense_sizes: &[u32],
        positions: Vec<Option<usize>>,
        tuples: bool,
    ) -> IndexReport {
        IndexReport {
            dense_sizes: dense_sizes.to_vec(),
            elements_per_unit: (lowered.element_bytes / self.element_bytes) as u64,
            positions,
            tuples,
            bounds: self.index_bounds.clone(),
            index_type: self.index_type,
            sequence: self.sequence.map(|s| SequenceReport {
                length: s.length,
                bound: self.index_bounds[0],
            }),
        }
    }

    /// The dispatch that finds the first out-of-range tuple's value after `kernel` ran: one
    /// thread.
    pub fn describe_step(&self, kernel: Kernel) -> Step {
        Step {
            kernel,
            entry: Entry::DescribeStatus,
            params: Parameters::Index(self.params(1)),
            grid: Grid::Flat(1),
            placement: Placement::Always,
        }
    }
}

/// Merged, then widened as far as the device's binding alignment allows.
pub(crate) fn optimised(map: &IndexMap, device: &DeviceFacts) -> IndexMap {
    map.merged().widened(device.unit_alignment)
}

#[cfg(test)]
mod tests {
    use super::super::Operator;
    use crate::kernels::Entry;
    use crate::lowering::DeviceFacts;
    use crate::ops::{GatherElementsDesc, ScatterElementsDesc};
    use crate::tensor::{DataType, TensorDesc};

    const DEVICE: DeviceFacts = DeviceFacts {
        unit_alignment: 16,
        workgroup_size: 256,
        row_threads: 1024,
        max_workgroup_storage_bytes: 49152,
        max_workgroups_per_dimension: 65535,
        copies_in_kernels: false,
        int64_atomics: crate::lowering::Int64Atomics::None,
        per_element: false,
        bindings: None,
    };

    fn entries(operator: &dyn Operator, device: &DeviceFacts) -> Vec<Entry> {
        operator
            .lower(device)
            .expect("lowered")
            .steps
            .iter()
            .map(|step| step.entry)
            .collect()
    }

    fn scatter_rows(data_type: DataType, row: u32) -> ScatterElementsDesc {
        ScatterElementsDesc::new(
            TensorDesc::new(data_type, &[16, row]),
            TensorDesc::new(DataType::Int64, &[9, row]),
            TensorDesc::new(data_type, &[9, row]),
            TensorDesc::new(data_type, &[16, row]),
            0,
        )
    }

    fn gather_rows(data_type: DataType, row: u32) -> GatherElementsDesc {
        GatherElementsDesc::new(
            TensorDesc::new(data_type, &[16, row]),
            TensorDesc::new(DataType::Int32, &[9, row]),
            TensorDesc::new(data_type, &[9, row]),
            0,
        )
    }

    #[test]
    fn narrow_rows_that_do_not_fill_words_move_a_word_of_neighbours_a_thread() {
        for data_type in [DataType::UInt8, DataType::Float16] {
            for (row, scatter, gather) in [
                (24, Entry::ScatterWords, Entry::GatherWords),
                (4097, Entry::ScatterSpans, Entry::GatherSpans),
                (3, Entry::ScatterSpans, Entry::GatherSpans),
            ] {
                let lowered = entries(&scatter_rows(data_type, row), &DEVICE);
                assert!(
                    lowered.contains(&scatter),
                    "{data_type:?} {row}: {lowered:?}"
                );
                let lowered = entries(&gather_rows(data_type, row), &DEVICE);
                assert!(
                    lowered.contains(&gather),
                    "{data_type:?} {row}: {lowered:?}"
                );
            }
            // Where each element checks its windows, one element a thread.
            let per_element = DeviceFacts {
                per_element: true,
                ..DEVICE
            };
            let lowered = entries(&scatter_rows(data_type, 4097), &per_element);
            assert!(lowered.contains(&Entry::Scatter), "{lowered:?}");
            let lowered = entries(&gather_rows(data_type, 4097), &per_element);
            assert!(lowered.contains(&Entry::Gather), "{lowered:?}");
        }
    }

    #[test]
    fn scatters_along_an_inner_axis_copy_rows_in_their_kernel_where_copies_run_as_kernels() {
        let fusing = DeviceFacts {
            copies_in_kernels: true,
            ..DEVICE
        };
        let along = |data_type, output: &[u32], updates: &[u32], axis| {
            ScatterElementsDesc::new(
                TensorDesc::new(data_type, output),
                TensorDesc::new(DataType::Int64, updates),
                TensorDesc::new(data_type, updates),
                TensorDesc::new(data_type, output),
                axis,
            )
        };
        let f32_rows = along(DataType::Float32, &[64, 8192], &[64, 4096], 1);
        // Out of place the copying kernel, in place the plain one; no copy step.
        assert_eq!(
            entries(&f32_rows, &fusing),
            [
                Entry::ScatterCopyRows,
                Entry::ScatterBlocks,
                Entry::DescribeStatus
            ]
        );
        // Narrow elements too, rows of whole words or not (their end words shared).
        for (data_type, columns) in [
            (DataType::Float16, 8192),
            (DataType::Int8, 4097),
            (DataType::Int8, 4098),
        ] {
            let narrow = along(data_type, &[63, columns], &[63, 2048], 1);
            let lowered = entries(&narrow, &fusing);
            assert_eq!(
                lowered[0],
                Entry::ScatterCopyRows,
                "{narrow:?}: {lowered:?}"
            );
        }
        for (desc, device) in [
            // The device copies faster by command.
            (f32_rows.clone(), DEVICE),
            // Each element checks its windows.
            (
                f32_rows.clone(),
                DeviceFacts {
                    per_element: true,
                    ..fusing
                },
            ),
            // Along the outer axis every update may land in any row.
            (
                along(DataType::Float32, &[64, 8192], &[32, 8192], 0),
                fusing,
            ),
            // Rows larger than workgroup memory, or shorter than a workgroup.
            (along(DataType::Float32, &[4, 12289], &[4, 100], 1), fusing),
            (
                along(DataType::Float32, &[4096, 100], &[4096, 50], 1),
                fusing,
            ),
        ] {
            let lowered = entries(&desc, &device);
            assert!(!lowered.contains(&Entry::ScatterCopyRows), "{desc:?}");
            assert!(
                lowered.contains(&Entry::StridedCopyBlocks)
                    || lowered.contains(&Entry::StridedCopy),
                "{desc:?}: {lowered:?}"
            );
        }
    }

    #[test]
    fn narrow_scatters_along_an_inner_axis_in_place_take_a_workgroup_a_row_where_rows_are_dense() {
        let along = |data_type, output: &[u32], updates: &[u32], axis| {
            ScatterElementsDesc::new(
                TensorDesc::new(data_type, output),
                TensorDesc::new(DataType::Int32, updates),
                TensorDesc::new(data_type, updates),
                TensorDesc::new(data_type, output),
                axis,
            )
        };
        let in_place = |desc: &ScatterElementsDesc, device: &DeviceFacts| -> Vec<Entry> {
            let lowered = desc.lower(device).expect("lowered");
            lowered
                .steps
                .iter()
                .filter(|step| step.placement.runs(true))
                .map(|step| step.entry)
                .collect()
        };
        let fusing = DeviceFacts {
            copies_in_kernels: true,
            ..DEVICE
        };
        // Whatever the copy method: in place there is no copy.
        for device in [DEVICE, fusing] {
            // Rows of whole words or not; an eighth of the row in updates is enough.
            for (data_type, columns, updates) in [
                (DataType::Float16, 8192, 1024),
                (DataType::Int8, 4097, 4097),
                (DataType::UInt8, 4099, 513),
            ] {
                let desc = along(data_type, &[63, columns], &[61, updates], 1);
                assert_eq!(
                    in_place(&desc, &device),
                    [Entry::ScatterRowsInPlace, Entry::DescribeStatus],
                    "{desc:?}"
                );
            }
            // Sparse rows, 4-byte units, the outer axis, rows shorter than a workgroup: the
            // plain passes.
            for desc in [
                along(DataType::Int8, &[63, 4099], &[61, 512], 1),
                along(DataType::Float32, &[63, 4096], &[61, 4096], 1),
                along(DataType::Int8, &[63, 4096], &[61, 4096], 0),
                along(DataType::Int8, &[4096, 100], &[4096, 100], 1),
            ] {
                let lowered = in_place(&desc, &device);
                assert!(
                    !lowered.contains(&Entry::ScatterRowsInPlace),
                    "{desc:?}: {lowered:?}"
                );
            }
        }
    }

    #[test]
    fn reductions_onto_small_outputs_combine_in_workgroup_bins() {
        use crate::ops::Reduction;
        // 16 rows of 128 units fit BIN_CAPACITY (2048); 17 rows do not; 8-byte units never.
        for (data_type, rows, bins) in [
            (DataType::Int32, 16, true),
            (DataType::UInt8, 16, true),
            (DataType::Float16, 16, true),
            (DataType::Int32, 17, false),
            (DataType::Float32, 17, false),
            (DataType::Int64, 16, false),
        ] {
            let desc = ScatterElementsDesc::new(
                TensorDesc::new(data_type, &[rows, 128]),
                TensorDesc::new(DataType::Int64, &[9, 128]),
                TensorDesc::new(data_type, &[9, 128]),
                TensorDesc::new(data_type, &[rows, 128]),
                0,
            )
            .with_reduction(Reduction::Add);
            let lowered = entries(&desc, &DEVICE);
            assert_eq!(
                lowered.contains(&Entry::ScatterReduceBins),
                bins,
                "{data_type:?} {rows}: {lowered:?}"
            );
            if data_type.size_in_bytes() <= 4 {
                assert_eq!(lowered.contains(&Entry::ScatterReduce), !bins);
            }
        }
    }

    #[test]
    fn in_order_reductions_sort_by_target_settle_ties_or_are_refused() {
        use crate::ops::{DuplicateMode, Reduction};
        let in_order = |data_type, reduction| {
            scatter_rows(data_type, 5)
                .with_reduction(reduction)
                .with_duplicates(DuplicateMode::InOrder)
        };
        let sorted = [Entry::RadixCount, Entry::RadixScatter, Entry::FoldRuns];
        // Float Add and Mul, and every 8-byte type, sort by target.
        for (data_type, reduction) in [
            (DataType::Float32, Reduction::Add),
            (DataType::Float16, Reduction::Mul),
            (DataType::Float64, Reduction::Max),
            (DataType::Int64, Reduction::Add),
        ] {
            let lowered = entries(&in_order(data_type, reduction), &DEVICE);
            assert!(
                sorted.iter().all(|e| lowered.contains(e))
                    && !lowered.contains(&Entry::RadixScanBlocks),
                "{data_type:?} {reduction:?}: {lowered:?}"
            );
            // Past 16 tiles of 256 updates, the histogram's blocks are scanned by a pass of
            // their own; up to them, by each radix_scatter workgroup.
            for (count, scanned_apart) in [(4096, false), (4097, true)] {
                let column = |rows| TensorDesc::new(data_type, &[rows, 1]);
                let desc = ScatterElementsDesc::new(
                    column(16),
                    TensorDesc::new(DataType::Int64, &[count, 1]),
                    column(count),
                    column(16),
                    0,
                )
                .with_reduction(reduction)
                .with_duplicates(DuplicateMode::InOrder);
                let lowered = entries(&desc, &DEVICE);
                assert!(
                    lowered.contains(&Entry::RadixScanBlocks) == scanned_apart,
                    "{data_type:?} {reduction:?}, {count} updates: {lowered:?}"
                );
            }
            // Out of place, input and output of one packed layout: units of 4 and 8 bytes
            // are copied as their runs fold (fold_runs_copy, no copy of its own); 2-byte
            // ones share words between threads and copy first.
            let copy_folds = data_type.size_in_bytes() >= 4;
            let copies = |e: &Entry| e.name().starts_with("strided_copy");
            assert!(
                lowered.contains(&Entry::FoldRunsCopy) == copy_folds
                    && lowered.iter().any(copies) != copy_folds,
                "{data_type:?} {reduction:?}: {lowered:?}"
            );
            let mut strided = in_order(data_type, reduction);
            strided.output = TensorDesc::new(data_type, &[16, 5]).with_strides(&[8, 1]);
            let lowered = entries(&strided, &DEVICE);
            assert!(
                !lowered.contains(&Entry::FoldRunsCopy) && lowered.iter().any(copies),
                "{data_type:?} {reduction:?}, output with gaps: {lowered:?}"
            );
        }
        // Float Min and Max of 2 and 4 bytes: any order between the two tie passes (into
        // workgroup bins: the output is small).
        for data_type in [DataType::Float16, DataType::Float32] {
            let lowered = entries(&in_order(data_type, Reduction::Min), &DEVICE);
            assert_eq!(
                lowered[lowered.len() - 4..],
                [
                    Entry::ClaimTies,
                    Entry::ScatterReduceBins,
                    Entry::WriteTies,
                    Entry::DescribeStatus
                ],
                "{data_type:?}"
            );
        }
        // Rows in order: their slices sorted by block, folded a thread a few columns.
        let rows = crate::ops::ScatterNdDesc::new(
            TensorDesc::new(DataType::Float32, &[16, 5]),
            TensorDesc::new(DataType::Int64, &[9, 1]),
            TensorDesc::new(DataType::Float32, &[9, 5]),
            TensorDesc::new(DataType::Float32, &[16, 5]),
            2,
            2,
        )
        .with_reduction(Reduction::Add)
        .with_duplicates(DuplicateMode::InOrder);
        let lowered = entries(&rows, &DEVICE);
        assert!(
            [
                Entry::RadixCount,
                Entry::RadixScatter,
                Entry::FoldSliceColumns
            ]
            .iter()
            .all(|e| lowered.contains(e)),
            "{lowered:?}"
        );
        // Narrow rows fold a thread a few whole words, or a thread a unit where a row's
        // units leave a word shared with the next row.
        for (width, fold) in [
            (64, Entry::FoldSliceListColumns),
            (65, Entry::FoldSliceLists),
        ] {
            let rows = crate::ops::ScatterNdDesc::new(
                TensorDesc::new(DataType::Float16, &[16, width]),
                TensorDesc::new(DataType::Int64, &[9, 1]),
                TensorDesc::new(DataType::Float16, &[9, width]),
                TensorDesc::new(DataType::Float16, &[16, width]),
                2,
                2,
            )
            .with_reduction(Reduction::Add);
            let lowered = entries(&rows, &DEVICE);
            assert!(lowered.contains(&fold), "{width}: {lowered:?}");
        }
        // Wide rows in the default mode, and 8-byte rows: linked into lists, no sort. Out of
        // place, where the output is laid out as the input without gaps, the first fold
        // copies as it folds (the plain fold runs in place): no copy of its own. An output
        // with gaps between its rows is copied first.
        let copies = |e: &Entry| {
            matches!(
                e,
                Entry::StridedCopy | Entry::StridedCopyBlocks | Entry::StridedCopyPlanes
            )
        };
        // Narrow rows with short lists take the wide copy (more cells a thread); 8-byte
        // units already take 16 bytes a thread.
        for (data_type, width, copy) in [
            (DataType::Float32, 64, Entry::FoldSliceListCopyWide),
            (DataType::Float64, 2, Entry::FoldSliceListCopy),
        ] {
            for strided in [false, true] {
                let output = TensorDesc::new(data_type, &[16, width]);
                let output = if strided {
                    output.with_strides(&[2 * width, 1])
                } else {
                    output
                };
                let rows = crate::ops::ScatterNdDesc::new(
                    TensorDesc::new(data_type, &[16, width]),
                    TensorDesc::new(DataType::Int64, &[9, 1]),
                    TensorDesc::new(data_type, &[9, width]),
                    output,
                    2,
                    2,
                )
                .with_reduction(Reduction::Add);
                let lowered = entries(&rows, &DEVICE);
                assert!(
                    lowered.contains(&Entry::LinkSlices)
                        && lowered.contains(&Entry::FoldSliceListColumns)
                        && !lowered.contains(&Entry::RadixCount)
                        && lowered.contains(&copy) != strided
                        && lowered.iter().any(copies) == strided,
                    "{data_type:?}, strided {strided}: {lowered:?}"
                );
            }
        }
        // Rows in order, sorted: where the first fold starts from the output's blocks (rows
        // of updates at least as many), out of place it copies as it folds; where it starts
        // from the rows of updates (fewer), or the output has gaps, the copy goes first.
        for (updates, strided, copy_folds) in
            [(24, false, true), (9, false, false), (24, true, false)]
        {
            let output = TensorDesc::new(DataType::Float32, &[16, 64]);
            let output = if strided {
                output.with_strides(&[128, 1])
            } else {
                output
            };
            let rows = crate::ops::ScatterNdDesc::new(
                TensorDesc::new(DataType::Float32, &[16, 64]),
                TensorDesc::new(DataType::Int64, &[updates, 1]),
                TensorDesc::new(DataType::Float32, &[updates, 64]),
                output,
                2,
                2,
            )
            .with_reduction(Reduction::Add)
            .with_duplicates(crate::DuplicateMode::InOrder);
            let lowered = entries(&rows, &DEVICE);
            assert!(
                lowered.contains(&Entry::RadixCount)
                    && lowered.contains(&Entry::FoldSliceColumns)
                    && lowered.contains(&Entry::FoldSliceColumnsCopy) == copy_folds
                    && lowered.iter().any(copies) != copy_folds,
                "{updates} rows, strided {strided}: {lowered:?}"
            );
        }
        // A workgroup that is no power of two: refused, naming the limit (no unbounded list
        // walks to fall back on).
        let odd = DeviceFacts {
            workgroup_size: 96,
            ..DEVICE
        };
        match in_order(DataType::Float32, Reduction::Add)
            .lower(&odd)
            .err()
        {
            Some(crate::Error::LimitExceeded { limit_name, .. }) => {
                assert_eq!(limit_name, "max_compute_invocations_per_workgroup")
            }
            other => panic!("{other:?}"),
        }
    }

    /// The column-block width (0: row-major) of `operator`'s dispatch of `entry`.
    fn tile(operator: &dyn Operator, entry: Entry) -> u32 {
        let lowered = operator.lower(&DEVICE).expect("lowered");
        lowered
            .steps
            .iter()
            .find_map(|step| match &step.params {
                crate::kernels::params::Parameters::Index(params) if step.entry == entry => {
                    Some(params.tile)
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {entry:?} in {:?}", lowered.steps))
    }

    #[test]
    fn narrow_gathers_walk_rows_in_order_where_scatters_and_wider_gathers_take_column_blocks() {
        // Rows of 256 along axis 0, an index an element: where column blocks would apply.
        for data_type in [DataType::UInt8, DataType::Float16] {
            assert_eq!(tile(&gather_rows(data_type, 256), Entry::GatherWords), 0);
            assert!(tile(&scatter_rows(data_type, 256), Entry::ScatterWords) > 0);
        }
        assert!(tile(&gather_rows(DataType::Float32, 256), Entry::GatherRows) > 0);
    }
}
