//! Elements drawn from pools of bit patterns: the zeros and NaNs whose bits only the order
//! of updates decides, and ordinary numbers for long in-order sums.

use super::Rng;
use dml_wgsl::DataType;

/// Ordinary Float32 and Float64 numbers (bit patterns), whose long in-order sums keep the
/// hardware's chain throughout (its result is the one kept).
pub const SUMS: [u64; 7] = [
    0x3fc0_0000,
    0xbf40_0000,
    0x3f80_0001,
    0xba83_126f,
    0x449a_522b,
    0xc49a_5000,
    0x2b80_0000,
];
pub const DOUBLE_SUMS: [u64; 7] = [
    0x3ff8_0000_0000_0000,
    0xbfe8_0000_0000_0000,
    0x3ff0_0000_0000_0001,
    0xbf50_624d_d2f1_a9fc,
    0x4093_4a45_6d5c_faad,
    0xc093_4a00_0000_0000,
    0x3d70_0000_0000_0000,
];

/// `count` elements of `data_type` drawn from `pool` (bit patterns), padded to whole words.
pub fn pooled_bytes(rng: &mut Rng, data_type: DataType, pool: &[u64], count: u32) -> Vec<u8> {
    let width = data_type.size_in_bytes() as usize;
    let mut bytes: Vec<u8> = (0..count)
        .flat_map(|_| rng.pick(pool).to_le_bytes()[..width].to_vec())
        .collect();
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    bytes
}

/// Zeros of both signs, NaNs of several payloads (signalling ones too, the least beside the
/// infinities), and numbers around them (the least and the greatest magnitudes), as bit
/// patterns of `data_type`: which zero or NaN ends in a target is decided by the updates'
/// order alone.
pub fn tie_pool(data_type: DataType) -> &'static [u64] {
    match data_type {
        DataType::Float16 => &[
            0x0000, 0x8000, 0x7e01, 0xfe02, 0x7c03, 0x7d04, 0xfc01, 0xbc00, 0x3c00, 0x7c00, 0xfc00,
            0x7bff, 0x0001,
        ],
        DataType::BFloat16 => &[
            0x0000, 0x8000, 0x7fc1, 0xffc2, 0x7f83, 0x7fa4, 0xff81, 0xbf80, 0x3f80, 0x7f80, 0xff80,
            0x7f7f, 0x0001,
        ],
        DataType::Float32 => &[
            0x0000_0000,
            0x8000_0000,
            0x7fc0_0001,
            0xffc0_0002,
            0x7f80_0003,
            0x7fa0_0004,
            0xff80_0001,
            0xbf80_0000,
            0x3f80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7f7f_ffff,
            0x0000_0001,
        ],
        _ => &[
            0,
            1 << 63,
            0x7ff8_0000_0000_0001,
            0xfff8_0000_0000_0002,
            0x7ff0_0000_0000_0003,
            0xbff0_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            1,
        ],
    }
}

/// The pool, and the pool without its NaNs: zeros and NaNs are told apart by their bits only,
/// and NaN-free rounds let zeros win.
pub fn tie_pools(data_type: DataType) -> [Vec<u64>; 2] {
    let pool = tie_pool(data_type);
    let zeros_and_numbers = pool
        .iter()
        .copied()
        .filter(|&bits| !super::is_nan_bits(data_type, bits))
        .collect();
    [pool.to_vec(), zeros_and_numbers]
}
