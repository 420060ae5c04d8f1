//! The strided copy behind Slice, Slice1 and a scatter's `output = input`, and the dimension
//! merging every operator's lowering starts with.

use crate::kernels::params::{Parameters, PerDimension, StridedCopyParams};
use crate::kernels::{Entry, Kernel, Unit};
use crate::lowering::{DeviceFacts, Grid, Placement, Step};

/// An element-by-element copy between two strided layouts: for every coordinate `c` of `sizes`,
/// `output[output_base + c . output_strides] = input[input_base + c . input_strides]`.
/// Offsets and strides count elements of `element_bytes`; input strides may be negative
/// (reversed windows) or zero (broadcast).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct StridedCopy {
    pub element_bytes: u32,
    pub sizes: Vec<u32>,
    pub input_strides: Vec<i64>,
    pub input_base: u64,
    pub output_strides: Vec<i64>,
    pub output_base: u64,
}

impl StridedCopy {
    /// Drops size-1 dimensions and merges neighbours that are contiguous in both tensors,
    /// so most copies run at rank 1 to 3.
    pub fn merged(&self) -> StridedCopy {
        let (sizes, strides) =
            merge_dimensions(&self.sizes, &[&self.input_strides, &self.output_strides]);
        let [input_strides, output_strides] = <[Vec<i64>; 2]>::try_from(strides).unwrap();
        StridedCopy {
            sizes,
            input_strides,
            output_strides,
            ..self.clone()
        }
    }

    /// Reinterprets runs of elements as wider units (up to `max_unit` bytes) when the innermost
    /// dimension is contiguous in both tensors and every offset stays aligned to the unit.
    pub fn widened(&self, max_unit: u32) -> StridedCopy {
        let inner = self.sizes.len() - 1;
        let mut unit = max_unit.min(16);
        while unit > self.element_bytes {
            let k = (unit / self.element_bytes) as i64;
            let fits = self.input_strides[inner] == 1
                && self.output_strides[inner] == 1
                && self.sizes[inner] as i64 % k == 0
                && self.input_base as i64 % k == 0
                && self.output_base as i64 % k == 0
                && (0..inner)
                    .all(|d| self.input_strides[d] % k == 0 && self.output_strides[d] % k == 0);
            if fits {
                let mut wide = self.clone();
                wide.element_bytes = unit;
                wide.sizes[inner] /= k as u32;
                wide.input_base /= k as u64;
                wide.output_base /= k as u64;
                for d in 0..inner {
                    wide.input_strides[d] /= k;
                    wide.output_strides[d] /= k;
                }
                return wide;
            }
            unit /= 2;
        }
        self.clone()
    }

    /// The workgroup grid of `strided_copy_planes` and its units a thread, where the copy
    /// has at most 3 dimensions [A, B, C], both B x C / (workgroup size x units a thread)
    /// and A fit the dispatch limit, and the grid's units along x fit u32. A thread takes
    /// the unit's copy group (four loads in flight) where that leaves at least
    /// `PLANES_MIN_WORKGROUPS` workgroups; smaller copies one unit a thread, over more
    /// workgroups.
    fn planes(&self, device: &DeviceFacts) -> Option<([u32; 3], u32)> {
        const PLANES_MIN_WORKGROUPS: u64 = 1024;
        let rank = self.sizes.len();
        if rank > 3 || self.element_bytes == 16 {
            return None;
        }
        let size = |d: usize| {
            if d < rank {
                self.sizes[rank - 1 - d] as u64
            } else {
                1
            }
        };
        let copy_group = Unit::from_bytes(self.element_bytes).copy_group() as u64;
        let workgroup = device.workgroup_size as u64;
        let units = size(0) * size(1) * size(2);
        let group = if units >= PLANES_MIN_WORKGROUPS * workgroup * copy_group {
            copy_group
        } else {
            1
        };
        let block = workgroup * group;
        let x = (size(0) * size(1)).div_ceil(block);
        let max = device.max_workgroups_per_dimension as u64;
        let fits = x * block <= u32::MAX as u64;
        (x <= max && size(2) <= max && fits)
            .then_some(([x as u32, size(2) as u32, 1], group as u32))
    }

    /// The same copy with leading dimensions of size 1 up to `rank`.
    fn padded_to_rank(mut self, rank: usize) -> StridedCopy {
        while self.sizes.len() < rank {
            self.sizes.insert(0, 1);
            self.input_strides.insert(0, 0);
            self.output_strides.insert(0, 0);
        }
        self
    }

    /// The kernels this copy runs on `device` (their units once merged and widened): one
    /// (words, for a ragged run [`StridedCopy::as_words`] takes), or a body's and a tail's
    /// (see [`StridedCopy::split_tail`]).
    pub fn kernels(&self, device: &DeviceFacts) -> Vec<Kernel> {
        let kernel = |copy: &StridedCopy| {
            let copy = copy.merged().widened(device.unit_alignment);
            Kernel::StridedCopy(Unit::from_bytes(copy.element_bytes))
        };
        if self.as_words(device).is_some() {
            return vec![Kernel::StridedCopy(Unit::Word)];
        }
        match self.split_tail(device) {
            Some((body, tail)) => vec![kernel(&body), kernel(&tail)],
            None => vec![kernel(self)],
        }
    }

    /// A contiguous run of 1- or 2-byte elements that stays narrow only because of its
    /// length (a total that is not a whole number of words), as a copy of its whole words
    /// and the mask of the bits of the word after them that hold its last elements (the
    /// rest of that word lies past the tensor): `StridedCopyParams::last_mask`, with which
    /// the copy's first thread merges that word. One dispatch, where
    /// [`StridedCopy::split_tail`] takes two (a barrier between them): where the device
    /// copies by kernel. Where it copies runs by copy command, the split's body goes by one
    /// and only the tail by kernel. `None` where neither applies, or the words' grid would
    /// not be `strided_copy_planes`' or `strided_copy_blocks`'.
    fn as_words(&self, device: &DeviceFacts) -> Option<(StridedCopy, u32)> {
        if !device.copies_in_kernels {
            return None;
        }
        self.split_tail(device)?;
        let copy = self.merged();
        let per_word = (4 / copy.element_bytes) as u64;
        if !copy.input_base.is_multiple_of(per_word) || !copy.output_base.is_multiple_of(per_word) {
            return None;
        }
        let length = copy.sizes[0] as u64;
        let whole_words = length / per_word;
        let last_bytes = (length % per_word) * copy.element_bytes as u64;
        let words_copy = StridedCopy {
            element_bytes: 4,
            sizes: vec![whole_words as u32],
            input_strides: vec![1],
            input_base: copy.input_base / per_word,
            output_strides: vec![1],
            output_base: copy.output_base / per_word,
        };
        // Little-endian: the tensor's bytes are the word's low ones.
        let last_mask = ((1u64 << (8 * last_bytes)) - 1) as u32;
        words_copy.planes(device)?;
        Some((words_copy, last_mask))
    }

    /// A contiguous run of 1- or 2-byte elements that stays narrow only because of its length
    /// (a total that is not a whole number of wide units: odd rows of odd length), split into
    /// a body of whole wide units and a tail of its last few elements. Narrow units are
    /// stored by compare-exchange, sharing words with their neighbours; the body's wide units
    /// are stored whole, and the tail (under 16 bytes) writes words the body does not touch.
    /// `None` where no split helps, or where the device asks for one element a thread.
    fn split_tail(&self, device: &DeviceFacts) -> Option<(StridedCopy, StridedCopy)> {
        let copy = self.merged();
        if device.per_element
            || copy.element_bytes >= 4
            || copy.sizes.len() != 1
            || copy.input_strides[0] != 1
            || copy.output_strides[0] != 1
            || copy.widened(device.unit_alignment).element_bytes >= 4
        {
            return None;
        }
        // The widest unit both bases are aligned to, of at least 4 bytes.
        let per_unit = [16, 8, 4]
            .into_iter()
            .filter(|&unit| unit <= device.unit_alignment)
            .map(|unit| (unit / copy.element_bytes) as u64)
            .find(|&k| copy.input_base.is_multiple_of(k) && copy.output_base.is_multiple_of(k))?;
        let length = copy.sizes[0] as u64;
        let body_length = length - length % per_unit;
        if body_length == 0 {
            return None;
        }
        let mut body = copy.clone();
        body.sizes[0] = body_length as u32;
        let mut tail = copy;
        tail.sizes[0] = (length - body_length) as u32;
        tail.input_base += body_length;
        tail.output_base += body_length;
        Some((body, tail))
    }

    /// Whether the copy is one contiguous run of bytes in both tensors (which a copy command
    /// can move: see `CopyMethod`).
    pub fn is_contiguous(&self) -> bool {
        let copy = self.merged();
        let inner = copy.sizes.len() - 1;
        copy.sizes[..inner].iter().all(|&size| size == 1)
            && copy.input_strides[inner] == 1
            && copy.output_strides[inner] == 1
    }

    /// The kernel dispatches for this copy, merged and widened (as words with a merged last
    /// word where [`StridedCopy::as_words`] applies; else a body and a tail where
    /// [`StridedCopy::split_tail`] splits it), run where `placement` says.
    pub fn steps(&self, device: &DeviceFacts, placement: Placement) -> Vec<Step> {
        if let Some((words, last_mask)) = self.as_words(device) {
            let mut step = Self::dispatch(words, device, placement);
            if let Parameters::StridedCopy(params) = &mut step.params {
                params.last_mask = last_mask;
            }
            return vec![step];
        }
        match self.split_tail(device) {
            Some((body, tail)) => [body, tail]
                .iter()
                .map(|copy| copy.step(device, placement))
                .collect(),
            None => vec![self.step(device, placement)],
        }
    }

    /// One dispatch of this copy, merged and widened.
    fn step(&self, device: &DeviceFacts, placement: Placement) -> Step {
        Self::dispatch(
            self.merged().widened(device.unit_alignment),
            device,
            placement,
        )
    }

    /// One dispatch of `copy`, whose units are as given.
    fn dispatch(copy: StridedCopy, device: &DeviceFacts, placement: Placement) -> Step {
        let unit = Unit::from_bytes(copy.element_bytes);
        let inner = *copy.sizes.last().expect("rank >= 1");
        let rows: u64 = copy.sizes[..copy.sizes.len() - 1]
            .iter()
            .map(|&s| s as u64)
            .product();
        // Whole blocks of a workgroup's units per row: coalesced blocks; else row groups.
        let block = device.workgroup_size * unit.copy_group();
        let mut copy = copy;
        let mut plane_group = 1;
        let (entry, row_groups, threads, grid) =
            // Blocks and planes only where every unit needs no check of its own windows.
            if !device.per_element && inner.is_multiple_of(block) && unit.copy_group() > 1 {
                let blocks = inner / block;
                let threads = rows * (blocks * device.workgroup_size) as u64;
                (
                    Entry::StridedCopyBlocks,
                    blocks,
                    threads,
                    Grid::Flat(threads),
                )
            } else if let Some((planes, group)) =
                copy.planes(device).filter(|_| !device.per_element)
            {
                // Short rows of at most 3 dimensions: one division a thread.
                plane_group = group;
                let threads = planes.iter().map(|&n| n as u64).product::<u64>()
                    * device.workgroup_size as u64;
                copy = copy.padded_to_rank(3);
                (Entry::StridedCopyPlanes, 0, threads, Grid::Planes(planes))
            } else {
                let groups = inner.div_ceil(unit.copy_group());
                let threads = rows * groups as u64;
                (Entry::StridedCopy, groups, threads, Grid::Flat(threads))
            };
        let params = StridedCopyParams {
            count: threads as u32,
            rank: copy.sizes.len() as u32,
            input_base: copy.input_base as u32,
            output_base: copy.output_base as u32,
            inner,
            row_groups,
            plane_group,
            sizes: PerDimension::new(copy.sizes.iter().copied()),
            input_strides: PerDimension::strides(&copy.input_strides),
            output_strides: PerDimension::strides(&copy.output_strides),
            ..Default::default()
        };
        Step {
            kernel: Kernel::StridedCopy(unit),
            entry,
            params: Parameters::StridedCopy(params),
            grid,
            placement,
        }
    }
}

/// Drops size-1 dimensions and merges each dimension into its outer neighbour where, in every
/// stride set, the outer stride steps exactly over the whole inner dimension. Row-major
/// order of the iteration space is unchanged, so linear positions keep their meaning.
/// Returns at least one dimension.
pub(crate) fn merge_dimensions(sizes: &[u32], strides: &[&[i64]]) -> (Vec<u32>, Vec<Vec<i64>>) {
    let mut merged_sizes: Vec<u32> = Vec::new();
    let mut merged: Vec<Vec<i64>> = vec![Vec::new(); strides.len()];
    for (d, &size) in sizes.iter().enumerate() {
        if size == 1 {
            continue;
        }
        if let Some(last) = merged_sizes.len().checked_sub(1) {
            let contiguous = strides
                .iter()
                .zip(&merged)
                .all(|(s, m)| s[d].checked_mul(size as i64) == Some(m[last]));
            // A valid tensor has at most 2^32 - 1 elements, so merged sizes fit a u32; if
            // they did not, the dimensions stay apart rather than wrap.
            let merged_size = merged_sizes[last].checked_mul(size);
            if let (true, Some(merged_size)) = (contiguous, merged_size) {
                merged_sizes[last] = merged_size;
                for (s, m) in strides.iter().zip(merged.iter_mut()) {
                    m[last] = s[d];
                }
                continue;
            }
        }
        merged_sizes.push(size);
        for (s, m) in strides.iter().zip(merged.iter_mut()) {
            m.push(s[d]);
        }
    }
    if merged_sizes.is_empty() {
        merged_sizes.push(1);
        for m in merged.iter_mut() {
            m.push(0);
        }
    }
    (merged_sizes, merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::SliceDesc;
    use crate::tensor::{DataType, TensorDesc};

    fn slice(data_type: DataType, input: &[u32], offsets: &[u32], sizes: &[u32]) -> StridedCopy {
        SliceDesc {
            input: TensorDesc::new(data_type, input),
            output: TensorDesc::new(data_type, sizes),
            offsets: offsets.to_vec(),
            sizes: sizes.to_vec(),
            strides: vec![1; sizes.len()],
        }
        .copy()
    }

    #[test]
    fn size_one_dimensions_drop_and_contiguous_dimensions_merge() {
        let copy = slice(
            DataType::Float32,
            &[1, 3, 4, 5],
            &[0, 0, 0, 0],
            &[1, 3, 4, 5],
        )
        .merged();
        assert_eq!(copy.sizes, [60]);
        assert_eq!(copy.input_strides, [1]);
        let crop = slice(
            DataType::Float32,
            &[64, 256, 56, 56],
            &[0, 0, 1, 1],
            &[64, 256, 54, 54],
        )
        .merged();
        assert_eq!(crop.sizes, [64 * 256, 54, 54]);
        assert_eq!(crop.input_strides, [56 * 56, 56, 1]);
        assert_eq!(crop.output_strides, [54 * 54, 54, 1]);
        assert_eq!(crop.input_base, 57);
    }

    #[test]
    fn aligned_contiguous_rows_widen_to_16_byte_units() {
        let copy = slice(
            DataType::Float32,
            &[8192, 8192],
            &[1024, 512],
            &[6144, 7168],
        )
        .merged()
        .widened(16);
        assert_eq!(copy.element_bytes, 16);
        assert_eq!(copy.sizes, [6144, 1792]);
        assert_eq!(copy.input_strides, [2048, 1]);
        assert_eq!(copy.input_base, (1024 * 8192 + 512) / 4);
        let bytes = slice(DataType::UInt8, &[4, 4], &[0, 0], &[4, 4])
            .merged()
            .widened(16);
        assert_eq!((bytes.element_bytes, bytes.sizes.clone()), (16, vec![1]));
    }

    #[test]
    fn widening_stops_at_the_device_alignment_and_at_misaligned_offsets() {
        let copy = slice(DataType::UInt8, &[4, 64], &[1, 0], &[2, 64]).merged();
        assert_eq!(copy.widened(8).element_bytes, 8);
        assert_eq!(copy.widened(16).element_bytes, 16);
        let odd = slice(DataType::UInt16, &[4, 64], &[1, 2], &[2, 60])
            .merged()
            .widened(16);
        assert_eq!(
            odd.element_bytes, 4,
            "offset 2 x 2 bytes aligns to 4 bytes only"
        );
        let reversed = StridedCopy {
            input_strides: vec![-1],
            ..slice(DataType::Float32, &[16], &[0], &[16])
        };
        assert_eq!(reversed.widened(16).element_bytes, 4);
    }

    fn device() -> DeviceFacts {
        DeviceFacts {
            unit_alignment: 16,
            workgroup_size: 256,
            row_threads: 1024,
            max_workgroup_storage_bytes: 49152,
            max_workgroups_per_dimension: 65535,
            copies_in_kernels: true,
            int64_atomics: crate::lowering::Int64Atomics::None,
            hardware_float64: false,
            float32_atomics: false,
            bounded_loops: true,
            per_element: false,
            bindings: None,
        }
    }

    #[test]
    fn runs_of_narrow_elements_with_ragged_totals_split_into_a_wide_body_and_a_tail() {
        let device = device();
        // 4095 rows of 4097 bytes: an odd total, which alone kept every unit a byte wide.
        let odd = slice(DataType::Int8, &[4095, 4097], &[0, 0], &[4095, 4097]);
        let total = 4095 * 4097u64;
        let (body, tail) = odd.split_tail(&device).expect("a split");
        let body = body.merged().widened(16);
        assert_eq!(body.element_bytes, 16);
        assert_eq!(body.sizes, [(total / 16) as u32]);
        assert_eq!(tail.element_bytes, 1);
        assert_eq!(tail.sizes, [(total % 16) as u32]);
        assert_eq!(
            (tail.input_base, tail.output_base),
            (total / 16 * 16, total / 16 * 16)
        );
        // Where runs go by copy command: the body by one, the tail by kernel.
        let by_command = DeviceFacts {
            copies_in_kernels: false,
            ..device
        };
        assert_eq!(
            odd.kernels(&by_command),
            [
                Kernel::StridedCopy(Unit::QuadWord),
                Kernel::StridedCopy(Unit::Byte)
            ]
        );
        assert_eq!(odd.steps(&by_command, Placement::Always).len(), 2);
        // 2-byte elements: a body of 16-byte units, a tail of 2-byte ones.
        let half = slice(DataType::Float16, &[3, 5], &[0, 0], &[3, 5]);
        let (body, tail) = half.split_tail(&device).expect("a split");
        assert_eq!((body.sizes[0], tail.sizes[0]), (8, 7));
        // No split where the run already widens, is too short for one wide unit, is not one
        // run, or where each element checks its own windows.
        let even = slice(DataType::Int8, &[4095, 4096], &[0, 0], &[4095, 4096]);
        assert_eq!(even.split_tail(&device), None);
        let short = slice(DataType::Int8, &[3], &[0], &[3]);
        assert_eq!(short.split_tail(&device), None);
        let rows = slice(DataType::Int8, &[5, 7], &[0, 1], &[5, 5]);
        assert_eq!(rows.split_tail(&device), None);
        let per_element = DeviceFacts {
            per_element: true,
            ..device
        };
        assert_eq!(odd.split_tail(&per_element), None);
        assert_eq!(odd.steps(&per_element, Placement::Always).len(), 1);
    }

    fn copy_params(step: &Step) -> StridedCopyParams {
        match step.params {
            Parameters::StridedCopy(params) => params,
            _ => panic!("a strided copy's parameters"),
        }
    }

    #[test]
    fn ragged_runs_copied_by_kernel_go_as_words_with_the_last_word_merged() {
        let device = device();
        // 4095 rows of 4097 bytes: 4,195,215 bytes, 1,048,803 whole words and 3 bytes.
        let odd = slice(DataType::Int8, &[4095, 4097], &[0, 0], &[4095, 4097]);
        let total = 4095 * 4097u32;
        assert_eq!(odd.kernels(&device), [Kernel::StridedCopy(Unit::Word)]);
        let steps = odd.steps(&device, Placement::OutOfPlace);
        assert_eq!(steps.len(), 1);
        let params = copy_params(&steps[0]);
        assert_eq!(steps[0].kernel, Kernel::StridedCopy(Unit::Word));
        assert_eq!(params.inner, total / 4);
        assert_eq!(params.last_mask, 0x00ff_ffff);
        assert_eq!(params.contiguous_run(4), None, "never a copy command");
        // The entries that merge the word (their first thread does).
        assert_eq!(steps[0].entry, Entry::StridedCopyPlanes);
        let blocks = slice(DataType::Float16, &[4097], &[0], &[4097]);
        let steps = blocks.steps(&device, Placement::Always);
        assert_eq!(steps[0].entry, Entry::StridedCopyBlocks);
        assert_eq!(copy_params(&steps[0]).last_mask, 0xffff);
        // 15 2-byte elements from word 2 to word 4: 7 whole words, half the next one.
        let half = StridedCopy {
            input_base: 4,
            output_base: 8,
            ..slice(DataType::Float16, &[3, 5], &[0, 0], &[3, 5])
        };
        let params = copy_params(&half.steps(&device, Placement::Always)[0]);
        assert_eq!(
            (params.inner, params.input_base, params.output_base),
            (7, 2, 4)
        );
        assert_eq!(params.last_mask, 0xffff);
        // Bases off a word: neither words nor a split.
        let shifted = StridedCopy {
            output_base: 1,
            ..half.clone()
        };
        assert_eq!(shifted.as_words(&device), None);
        // Whole words need no merge: every other copy's mask is 0.
        let even = slice(DataType::Int8, &[4095, 4096], &[0, 0], &[4095, 4096]);
        for step in even.steps(&device, Placement::Always) {
            assert_eq!(copy_params(&step).last_mask, 0);
        }
    }

    #[test]
    fn planes_take_four_units_a_thread_only_where_enough_workgroups_remain() {
        let device = device();
        // The NCHW crop of the benchmark: 2^16 planes' worth of units, four a thread.
        let crop = slice(
            DataType::Float32,
            &[64, 256, 56, 56],
            &[0, 0, 1, 1],
            &[64, 256, 54, 54],
        );
        let (grid, group) = crop.merged().planes(&device).expect("planes");
        assert_eq!((grid, group), ([3, 64 * 256, 1], 4));
        // A 32 x 32 slice: one unit a thread, four workgroups instead of one.
        let tiny = slice(DataType::Float32, &[64, 64], &[0, 1], &[32, 32]);
        let (grid, group) = tiny.merged().planes(&device).expect("planes");
        assert_eq!((grid, group), ([4, 1, 1], 1));
    }
}
