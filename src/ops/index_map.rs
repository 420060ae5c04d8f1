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
    /// of 1- and 2-byte elements do without (see `gather` in src/ops/gather.rs), and so do
    /// scatters that store 2-byte elements 16 bits at a time (the planner, in
    /// src/context/planning.rs, once it knows the windowing).
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
    /// scattered stores take atomics on words their neighbours contend for; 4-byte ones
    /// store plainly) where a workgroup can take a row (see [`IndexMap::row_shape`]) and a
    /// row has at least an eighth of its length in updates (the kernel reads and writes
    /// every word of the row, where sparser rows take fewer words by atomics).
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
#[path = "index_map_tests.rs"]
pub(super) mod tests;
