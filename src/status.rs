//! The status words of the indexed kernels (`shaders/index_map.wgsl` writes them, the host
//! decodes them here): the first out-of-range index tuple, found on the GPU.
//!
//! * While an execution runs, `FOUND_BAD_UNIT` holds `0xffffffff - u` for the lowest dense
//!   unit `u` (of the updates or the gather's output) whose tuple was out of range; 0 means
//!   none. `atomicMax` over that encoding keeps the lowest unit: the first bad tuple in the
//!   indices' row-major order.
//! * A pass after the execution's last report moves it to `FIRST_BAD_UNIT`, the report the
//!   host reads, and zeroes it again (`describe_status`, the last pass; or, in the sorted
//!   runs' and the lists' plans, thread 0 of the pass after their reports:
//!   `DESCRIBES_STATUS`); where a tuple was out of range it fills
//!   `BAD_COMPONENT` (the tuple component out of range) and `VALUE_LOW`, `VALUE_HIGH` (its raw
//!   value's words, sign-extended for Int32). So every execution starts from the zero it left
//!   (a new slot's buffer is zeroed by wgpu) and no clear command precedes the kernels: a
//!   `clear_buffer` and the barrier after it cost about 5 us an operator on an H200.
//!
//! * `SCREENED`: a Float32 Add by the device's f32 atomics (`shaders/scatter_float_add.wgsl`)
//!   raises it to `SCREENED_UPDATES` where an update's value needs the compare-exchange path,
//!   to `SCREENED_ALL` where an output value does; Float32 Min and Max's sign atomics
//!   (`shaders/scatter_reduce.wgsl`) raise it the same way for the NaNs they would replace;
//!   the describing pass zeroes it too.
//!
//! The registry declares the word indices to the shaders under these names
//! ([`wgsl_constants`]), so both sides read one definition.

use crate::error::{Error, Result};
use crate::tensor::DataType;

pub(crate) const FIRST_BAD_UNIT: usize = 0;
pub(crate) const BAD_COMPONENT: usize = 1;
pub(crate) const VALUE_LOW: usize = 2;
pub(crate) const VALUE_HIGH: usize = 3;
pub(crate) const FOUND_BAD_UNIT: usize = 4;
pub(crate) const SCREENED: usize = 5;
/// `SCREENED`'s values: the updates the f32 atomics refused are left to the compare-exchange
/// pass; every update is (the output holds a value unsafe for them).
pub(crate) const SCREENED_UPDATES: usize = 1;
pub(crate) const SCREENED_ALL: usize = 2;
/// The words of the report the host reads (`FIRST_BAD_UNIT` to `VALUE_HIGH`).
pub(crate) const REPORT_WORDS: usize = 4;
pub(crate) const REPORT_BYTES: u64 = REPORT_WORDS as u64 * 4;
/// Bytes of an operator's status words.
pub(crate) const STATUS_BYTES: u64 = (SCREENED as u64 + 1) * 4;

/// The WGSL declarations of the word indices.
pub(crate) fn wgsl_constants() -> String {
    [
        ("FIRST_BAD_UNIT", FIRST_BAD_UNIT),
        ("BAD_COMPONENT", BAD_COMPONENT),
        ("VALUE_LOW", VALUE_LOW),
        ("VALUE_HIGH", VALUE_HIGH),
        ("FOUND_BAD_UNIT", FOUND_BAD_UNIT),
        ("SCREENED", SCREENED),
        ("SCREENED_UPDATES", SCREENED_UPDATES),
        ("SCREENED_ALL", SCREENED_ALL),
    ]
    .iter()
    .map(|(name, word)| format!("const {name}: u32 = {word}u;\n"))
    .collect()
}

/// What the host needs to describe an out-of-range index found by the GPU, which reports
/// the lowest dense unit (updates or output) whose index tuple was out of range.
#[derive(Clone, Debug)]
pub(crate) struct IndexReport {
    /// The dense tensor's sizes: the reported unit counts over them, row-major.
    pub dense_sizes: Vec<u32>,
    /// Elements per unit moved (more than 1 where rows move 16 bytes at a time).
    pub elements_per_unit: u64,
    /// Per indices dimension (less the tuple dimension), the dense dimension holding its
    /// coordinate; `None` for placeholders of size 1.
    pub positions: Vec<Option<usize>>,
    /// The indices' last dimension holds tuples: the position gets the component appended.
    pub tuples: bool,
    /// The bound of each tuple component.
    pub bounds: Vec<u32>,
    pub index_type: DataType,
    /// TensorScatter (linear): the bad index is the write index of the dense unit's batch
    /// entry, whose run of `length` positions passes the sequence axis' `bound`.
    pub sequence: Option<SequenceReport>,
}

/// What names a TensorScatter's out-of-range write index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SequenceReport {
    /// The updates' length along the sequence axis.
    pub length: u32,
    /// The cache's (the input's) size along it.
    pub bound: u32,
}

impl IndexReport {
    /// Decodes the report words.
    pub fn decode(&self, words: [u32; REPORT_WORDS]) -> Result<()> {
        let encoded = words[FIRST_BAD_UNIT];
        if encoded == 0 {
            return Ok(());
        }
        let mut linear = (u32::MAX - encoded) as u64 * self.elements_per_unit;
        let mut dense = vec![0u32; self.dense_sizes.len()];
        for (c, &size) in dense.iter_mut().zip(&self.dense_sizes).rev() {
            *c = (linear % size as u64) as u32;
            linear /= size as u64;
        }
        let mut position: Vec<u32> = self
            .positions
            .iter()
            .map(|p| p.map_or(0, |d| dense[d]))
            .collect();
        let component = words[BAD_COMPONENT] as usize;
        if self.tuples {
            position.push(component as u32);
        }
        let (low, high) = (words[VALUE_LOW], words[VALUE_HIGH]);
        let wide = (high as u64) << 32 | low as u64;
        let value = match self.index_type {
            DataType::Int32 => low as i32 as i128,
            DataType::Int64 => wide as i64 as i128,
            DataType::UInt32 => low as i128,
            _ => wide as i128,
        };
        if let Some(sequence) = self.sequence {
            return Err(Error::WriteIndexOutOfRange {
                entry: dense.first().copied().unwrap_or(0),
                value,
                length: sequence.length,
                bound: sequence.bound,
            });
        }
        Err(Error::IndexOutOfRange {
            tensor: "indices",
            position,
            value,
            bound: self.bounds.get(component).copied().unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words `shaders/index_map.wgsl` writes for a bad tuple at dense unit `unit`.
    fn words(unit: u32, component: u32, value: u64) -> [u32; REPORT_WORDS] {
        let mut w = [0; REPORT_WORDS];
        w[FIRST_BAD_UNIT] = u32::MAX - unit;
        w[BAD_COMPONENT] = component;
        w[VALUE_LOW] = value as u32;
        w[VALUE_HIGH] = (value >> 32) as u32;
        w
    }

    fn scatter_nd_report(index_type: DataType) -> IndexReport {
        // Updates [3, 2, 4] from indices [1, 3, 2, 2]: tuples of 2 over an input [5, 6, 4].
        IndexReport {
            dense_sizes: vec![3, 2, 4],
            elements_per_unit: 4,
            positions: vec![None, Some(0), Some(1)],
            tuples: true,
            bounds: vec![5, 6],
            index_type,
            sequence: None,
        }
    }

    #[test]
    fn cleared_words_mean_no_error() {
        assert_eq!(scatter_nd_report(DataType::Int32).decode([0; 4]), Ok(()));
    }

    #[test]
    fn words_name_the_position_component_value_and_bound() {
        // Unit 5 of 16-byte units holds element 20 = [2, 1, 0]; component 1 of tuple [2, 1].
        let report = scatter_nd_report(DataType::Int64);
        assert_eq!(
            report.decode(words(5, 1, -7i64 as u64)),
            Err(Error::IndexOutOfRange {
                tensor: "indices",
                position: vec![0, 2, 1, 1],
                value: -7,
                bound: 6,
            })
        );
    }

    #[test]
    fn values_read_by_index_type() {
        let value =
            |index_type, raw: u64| match scatter_nd_report(index_type).decode(words(0, 0, raw)) {
                Err(Error::IndexOutOfRange { value, .. }) => value,
                other => panic!("{other:?}"),
            };
        assert_eq!(value(DataType::Int32, 0xffff_ffff_ffff_fff0), -16);
        assert_eq!(value(DataType::UInt32, 0xffff_fff0), 0xffff_fff0);
        assert_eq!(value(DataType::Int64, 1 << 40), 1 << 40);
        assert_eq!(value(DataType::UInt64, u64::MAX), u64::MAX as i128);
    }
}
