//! The scatter reductions' arithmetic on one element's bytes: integers wrap or compare by
//! signedness; floats in software, the 16-bit formats through f32 (their conversions written
//! out by hand in `narrow_floats.rs`) and NaN bits defined explicitly. The CPU twin of
//! `shaders/arithmetic.wgsl`.

use super::narrow_floats::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use crate::ops::Reduction;
use crate::tensor::DataType;

/// The quiet bit of each float format's NaNs (the mantissa's top bit).
const F32_QUIET: u32 = 0x0040_0000;
const F64_QUIET: u64 = 0x0008_0000_0000_0000;
/// The NaN an invalid operation (inf - inf, 0 * inf) gives: positive, quiet, empty payload.
const F32_DEFAULT_NAN: u32 = 0x7fc0_0000;
const F64_DEFAULT_NAN: u64 = 0x7ff8_0000_0000_0000;

/// One step of a scatter's [`Reduction`]: the new value of an output element holding
/// `current` when an update `update` lands on it, both (and the result) one element of
/// `data_type` as little-endian bytes (`current` and `update` must hold at least
/// `data_type.size_in_bytes()` bytes; only those are read).
///
/// * [`Reduction::None`]: the update.
/// * Integers: `Add` and `Mul` wrap around (two's complement); `Min` and `Max` compare as the
///   type's signed or unsigned numbers.
/// * Float32 and Float64: IEEE arithmetic, round to nearest even, subnormals kept. Float16
///   and BFloat16: both values converted to f32 (exactly), the f32 step computed, and its
///   result rounded to the 16-bit format to nearest even ([`f16_to_f32`], [`f32_to_f16`],
///   [`bf16_to_f32`], [`f32_to_bf16`]): so their Add and Mul round twice, first to f32 and
///   then to 16 bits.
/// * NaN in `Add` and `Mul`: a NaN current value gives its own bits with the quiet bit set;
///   else a NaN update gives its bits with the quiet bit set; else an invalid operation
///   (inf - inf, 0 * inf) gives the positive quiet NaN with an empty payload (`0x7e00`,
///   `0x7fc0` for BFloat16, `0x7fc00000`, `0x7ff8000000000000`).
/// * `Min` and `Max`, every type: the update replaces the current value only when it is
///   strictly smaller (larger) as a number (floats compared as IEEE numbers, not as bit
///   patterns), so equal values keep the current bits (+0.0 and -0.0 tie). NaN propagates: a
///   NaN current value stays, and a NaN update replaces a number; either keeps its bits as
///   they are (no quieting).
pub fn reduce_element(
    data_type: DataType,
    reduction: Reduction,
    current: &[u8],
    update: &[u8],
) -> Vec<u8> {
    let width = data_type.size_in_bytes() as usize;
    let mut element = current[..width].to_vec();
    reduce_into(data_type, reduction, &mut element, update);
    element
}

/// [`reduce_element`] in place: `element = element op update`.
pub fn reduce_into(data_type: DataType, reduction: Reduction, element: &mut [u8], update: &[u8]) {
    let width = data_type.size_in_bytes() as usize;
    let (element, update) = (&mut element[..width], &update[..width]);
    if reduction == Reduction::None {
        element.copy_from_slice(update);
        return;
    }
    macro_rules! integer {
        ($t:ty) => {{
            let x = <$t>::from_le_bytes((&*element).try_into().unwrap());
            let y = <$t>::from_le_bytes(update.try_into().unwrap());
            let z = match reduction {
                Reduction::None => y,
                Reduction::Add => x.wrapping_add(y),
                Reduction::Mul => x.wrapping_mul(y),
                Reduction::Min => x.min(y),
                Reduction::Max => x.max(y),
            };
            element.copy_from_slice(&z.to_le_bytes());
        }};
    }
    match data_type {
        DataType::Int64 => integer!(i64),
        DataType::Int32 => integer!(i32),
        DataType::Int16 => integer!(i16),
        DataType::Int8 => integer!(i8),
        DataType::UInt64 => integer!(u64),
        DataType::UInt32 => integer!(u32),
        DataType::UInt16 => integer!(u16),
        DataType::UInt8 => integer!(u8),
        DataType::Float64 => {
            let x = u64::from_le_bytes((&*element).try_into().unwrap());
            let y = u64::from_le_bytes(update.try_into().unwrap());
            element.copy_from_slice(&reduce_f64(reduction, x, y).to_le_bytes());
        }
        DataType::Float32 => {
            let x = u32::from_le_bytes((&*element).try_into().unwrap());
            let y = u32::from_le_bytes(update.try_into().unwrap());
            element.copy_from_slice(&reduce_f32(reduction, x, y).to_le_bytes());
        }
        DataType::Float16 | DataType::BFloat16 => {
            let format = if data_type == DataType::Float16 {
                FLOAT16
            } else {
                BFLOAT16
            };
            let x = u16::from_le_bytes((&*element).try_into().unwrap());
            let y = u16::from_le_bytes(update.try_into().unwrap());
            element.copy_from_slice(&reduce_narrow(format, reduction, x, y).to_le_bytes());
        }
    }
}

/// Defines `reduce_f32` and `reduce_f64`: [`reduce_element`]'s rule on the bits of one
/// float format, computed with Rust's native arithmetic of that format.
macro_rules! reduce_float {
    ($name:ident, $float:ty, $bits:ty, $quiet:expr, $default_nan:expr) => {
        fn $name(reduction: Reduction, current: $bits, update: $bits) -> $bits {
            let (x, y) = (<$float>::from_bits(current), <$float>::from_bits(update));
            match reduction {
                Reduction::None => update,
                Reduction::Add | Reduction::Mul => {
                    if x.is_nan() {
                        current | $quiet
                    } else if y.is_nan() {
                        update | $quiet
                    } else {
                        let z = if reduction == Reduction::Add {
                            x + y
                        } else {
                            x * y
                        };
                        if z.is_nan() {
                            $default_nan
                        } else {
                            z.to_bits()
                        }
                    }
                }
                Reduction::Min | Reduction::Max => {
                    let replaces = if reduction == Reduction::Min {
                        y < x
                    } else {
                        y > x
                    };
                    if !x.is_nan() && (y.is_nan() || replaces) {
                        update
                    } else {
                        current
                    }
                }
            }
        }
    };
}
reduce_float!(reduce_f32, f32, u32, F32_QUIET, F32_DEFAULT_NAN);
reduce_float!(reduce_f64, f64, u64, F64_QUIET, F64_DEFAULT_NAN);

/// A 16-bit float format: its exact widening to f32, its rounding from f32, and the NaN an
/// invalid operation gives.
#[derive(Clone, Copy)]
struct NarrowFormat {
    widen: fn(u16) -> f32,
    round: fn(f32) -> u16,
    default_nan: u16,
}

const FLOAT16: NarrowFormat = NarrowFormat {
    widen: f16_to_f32,
    round: f32_to_f16,
    default_nan: 0x7e00,
};
const BFLOAT16: NarrowFormat = NarrowFormat {
    widen: bf16_to_f32,
    round: f32_to_bf16,
    default_nan: 0x7fc0,
};

/// Float16's and BFloat16's rule: Min and Max compare the exact f32 values and keep the
/// chosen operand's bits; Add and Mul compute in f32 (the f32 NaN rules, which carry over: a
/// 16-bit NaN's payload survives the round trip, quiet bit included) and round the result to
/// the format.
fn reduce_narrow(format: NarrowFormat, reduction: Reduction, current: u16, update: u16) -> u16 {
    let (x, y) = ((format.widen)(current), (format.widen)(update));
    match reduction {
        Reduction::None => update,
        Reduction::Min | Reduction::Max => {
            let replaces = if reduction == Reduction::Min {
                y < x
            } else {
                y > x
            };
            if !x.is_nan() && (y.is_nan() || replaces) {
                update
            } else {
                current
            }
        }
        Reduction::Add | Reduction::Mul => {
            let z = reduce_f32(reduction, x.to_bits(), y.to_bits());
            let h = (format.round)(f32::from_bits(z));
            debug_assert!(z != F32_DEFAULT_NAN || h == format.default_nan);
            h
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16r(reduction: Reduction, current: u16, update: u16) -> u16 {
        let r = reduce_element(
            DataType::Float16,
            reduction,
            &current.to_le_bytes(),
            &update.to_le_bytes(),
        );
        u16::from_le_bytes(r.try_into().unwrap())
    }

    fn bf16r(reduction: Reduction, current: u16, update: u16) -> u16 {
        let r = reduce_element(
            DataType::BFloat16,
            reduction,
            &current.to_le_bytes(),
            &update.to_le_bytes(),
        );
        u16::from_le_bytes(r.try_into().unwrap())
    }

    fn f32r(reduction: Reduction, current: u32, update: u32) -> u32 {
        let r = reduce_element(
            DataType::Float32,
            reduction,
            &current.to_le_bytes(),
            &update.to_le_bytes(),
        );
        u32::from_le_bytes(r.try_into().unwrap())
    }

    fn f64r(reduction: Reduction, current: u64, update: u64) -> u64 {
        let r = reduce_element(
            DataType::Float64,
            reduction,
            &current.to_le_bytes(),
            &update.to_le_bytes(),
        );
        u64::from_le_bytes(r.try_into().unwrap())
    }

    /// A small deterministic generator (xorshift64*), for sampled cross-checks.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    // ---- float reductions ----

    /// The 16-bit float nearest to `s` (ties to even), found by a search over the format's
    /// magnitudes up to `largest`, the largest finite one, with `value`, half's widening to
    /// f64 (which must give `largest + 1`, infinity, the place of the next power of two, so
    /// that from halfway there up `s` rounds to infinity): an oracle independent of the
    /// conversions under test. `s` must not be zero, and exact in f64 or f64's rounding of
    /// the exact value (53 bits, at least 2 * 11 + 2: rounding that again to a 16-bit format
    /// gives what one rounding of the exact value would).
    fn nearest(s: f64, largest: u16, value: impl Fn(u16) -> f64) -> u16 {
        let magnitude = s.abs();
        // The largest finite magnitude at most |s|.
        let (mut low, mut high) = (0u16, largest);
        while low < high {
            let mid = (low + high).div_ceil(2);
            if value(mid) <= magnitude {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        let m = if value(low) == magnitude {
            low
        } else {
            let (below, above) = (magnitude - value(low), value(low + 1) - magnitude);
            if below < above || (below == above && low & 1 == 0) {
                low
            } else {
                low + 1
            }
        };
        if s < 0.0 { m | 0x8000 } else { m }
    }

    /// The f16 nearest to `s` (at least 65520 in magnitude: infinity).
    fn nearest_f16(s: f64) -> u16 {
        nearest(s, 0x7bff, |m| match m {
            0x7c00 => 65536.0,
            _ => half::f16::from_bits(m).to_f64(),
        })
    }

    /// The bfloat16 nearest to `s` (at least (2 - 2^-8) * 2^127 in magnitude: infinity).
    fn nearest_bf16(s: f64) -> u16 {
        nearest(s, 0x7f7f, |m| match m {
            0x7f80 => 2f64.powi(128),
            _ => half::bf16::from_bits(m).to_f64(),
        })
    }

    fn is_finite_f16(h: u16) -> bool {
        h & 0x7c00 != 0x7c00
    }

    #[test]
    fn f16_add_and_mul_are_correctly_rounded() {
        // The exact sum or product of two f16s is exact in f64; f32 then f16 (two roundings)
        // must give the f16 nearest to it (f32's 24 bits are enough for that: 24 >= 2 * 11 + 1).
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let check = |a: u16, b: u16| {
            if !is_finite_f16(a) || !is_finite_f16(b) {
                return;
            }
            let (x, y) = (
                half::f16::from_bits(a).to_f64(),
                half::f16::from_bits(b).to_f64(),
            );
            let sum = x + y;
            let want = if sum == 0.0 {
                // An exact zero sum is +0, unless both are -0.
                if a == 0x8000 && b == 0x8000 {
                    0x8000
                } else {
                    0
                }
            } else {
                nearest_f16(sum)
            };
            assert_eq!(f16r(Reduction::Add, a, b), want, "{a:#06x} + {b:#06x}");
            let product = x * y;
            let want = if product == 0.0 {
                (a ^ b) & 0x8000
            } else {
                nearest_f16(product)
            };
            assert_eq!(f16r(Reduction::Mul, a, b), want, "{a:#06x} * {b:#06x}");
        };
        for _ in 0..100_000 {
            let r = rng.next();
            check(r as u16, (r >> 16) as u16);
            // Exponents close together, where rounding decides more often.
            let a = (r >> 32) as u16;
            let exponent = ((a >> 10) & 0x1f) as i32 + ((r >> 48) % 25) as i32 - 12;
            let b = ((r >> 52) as u16 & 0x83ff) | ((exponent.clamp(0, 30) as u16) << 10);
            check(a, b);
        }
    }

    #[test]
    fn f16_add_rounds_the_f32_result_to_nearest_even() {
        // 1 + 2^-11: halfway between 1 and 1 + 2^-10: the even 1.0.
        assert_eq!(f16r(Reduction::Add, 0x3c00, 0x1000), 0x3c00);
        // (1 + 2^-10) + 2^-11: halfway between 0x3c01 and 0x3c02: 0x3c02.
        assert_eq!(f16r(Reduction::Add, 0x3c01, 0x1000), 0x3c02);
        // 2048 + 1 = 2049: halfway, down to 2048; 2048 + 3 = 2051: up to 2052.
        assert_eq!(f16r(Reduction::Add, 0x6800, 0x3c00), 0x6800);
        assert_eq!(f16r(Reduction::Add, 0x6800, 0x4200), 0x6802);
        // 65504 + 16 = 65520: infinity; 65504 + 8 = 65512: 65504.
        assert_eq!(f16r(Reduction::Add, 0x7bff, 0x4c00), 0x7c00);
        assert_eq!(f16r(Reduction::Add, 0x7bff, 0x4800), 0x7bff);
        // Subnormals: 2^-24 + 2^-24 = 2^-23.
        assert_eq!(f16r(Reduction::Add, 0x0001, 0x0001), 0x0002);
        // 1 + -1 = +0; -0 + -0 = -0.
        assert_eq!(f16r(Reduction::Add, 0x3c00, 0xbc00), 0x0000);
        assert_eq!(f16r(Reduction::Add, 0x8000, 0x8000), 0x8000);
    }

    #[test]
    fn f16_mul_underflows_to_subnormals_with_ties_to_even() {
        // 2^-14 * 0.5 = 2^-15, a subnormal.
        assert_eq!(f16r(Reduction::Mul, 0x0400, 0x3800), 0x0200);
        // 2^-24 * 0.5 = 2^-25: a tie, to 0; 3 * 2^-24 * 0.5: a tie between 1 and 2 units, 2.
        assert_eq!(f16r(Reduction::Mul, 0x0001, 0x3800), 0x0000);
        assert_eq!(f16r(Reduction::Mul, 0x0003, 0x3800), 0x0002);
        // -2^-24 * 0.25 = -2^-26: -0.
        assert_eq!(f16r(Reduction::Mul, 0x8001, 0x3400), 0x8000);
        // 256 * 256 = 65536: infinity; -256 * 255.875 = -65504.
        assert_eq!(f16r(Reduction::Mul, 0x5c00, 0x5c00), 0x7c00);
        assert_eq!(f16r(Reduction::Mul, 0xdc00, 0x5bff), 0xfbff);
    }

    #[test]
    fn bf16_add_and_mul_are_correctly_rounded() {
        // The exact sum or product of two bfloat16s in f64 (the product exact, a sum of far
        // apart magnitudes rounded once); f32 then bfloat16 (two roundings) must give the
        // bfloat16 nearest to it (24 >= 2 * 8 + 2).
        let mut rng = Rng(0x0fed_cba9_8765_4321);
        let check = |a: u16, b: u16| {
            let finite = |h: u16| h & 0x7f80 != 0x7f80;
            if !finite(a) || !finite(b) {
                return;
            }
            let (x, y) = (
                half::bf16::from_bits(a).to_f64(),
                half::bf16::from_bits(b).to_f64(),
            );
            let sum = x + y;
            let want = if sum == 0.0 {
                // An exact zero sum is +0, unless both are -0.
                if a == 0x8000 && b == 0x8000 {
                    0x8000
                } else {
                    0
                }
            } else {
                nearest_bf16(sum)
            };
            assert_eq!(bf16r(Reduction::Add, a, b), want, "{a:#06x} + {b:#06x}");
            let product = x * y;
            let want = if product == 0.0 {
                (a ^ b) & 0x8000
            } else {
                nearest_bf16(product)
            };
            assert_eq!(bf16r(Reduction::Mul, a, b), want, "{a:#06x} * {b:#06x}");
        };
        for _ in 0..100_000 {
            let r = rng.next();
            check(r as u16, (r >> 16) as u16);
            // Exponents close together, where rounding decides more often; and products near
            // the ends of the range (exponent fields summing to about 127 or 254).
            let a = (r >> 32) as u16;
            let field = ((a >> 7) & 0xff) as i32;
            let bits = rng.next() as u16 & 0x807f;
            let near = (field + ((r >> 48) % 17) as i32 - 8).clamp(0, 254);
            check(a, bits | ((near as u16) << 7));
            let far = (127 - field + ((r >> 56) % 17) as i32 - 8).clamp(0, 254);
            check(a, bits | ((far as u16) << 7));
        }
    }

    #[test]
    fn bf16_add_and_mul_round_the_f32_result_to_nearest_even() {
        // 1 + 2^-8: halfway between 1 and 1 + 2^-7: the even 1.0.
        assert_eq!(bf16r(Reduction::Add, 0x3f80, 0x3b80), 0x3f80);
        // (1 + 2^-7) + 2^-8: halfway between 0x3f81 and 0x3f82: 0x3f82.
        assert_eq!(bf16r(Reduction::Add, 0x3f81, 0x3b80), 0x3f82);
        // 256 + 1 = 257: halfway, down to 256; 256 + 3 = 259: up to 260.
        assert_eq!(bf16r(Reduction::Add, 0x4380, 0x3f80), 0x4380);
        assert_eq!(bf16r(Reduction::Add, 0x4380, 0x4040), 0x4382);
        // The largest plus half its ulp (2^119): infinity; plus a quarter (2^118): itself.
        assert_eq!(bf16r(Reduction::Add, 0x7f7f, 0x7b00), 0x7f80);
        assert_eq!(bf16r(Reduction::Add, 0xff7f, 0xfa80), 0xff7f);
        // Subnormals: 2^-133 + 2^-133 = 2^-132; 2^-126 * 0.5 = 2^-127.
        assert_eq!(bf16r(Reduction::Add, 0x0001, 0x0001), 0x0002);
        assert_eq!(bf16r(Reduction::Mul, 0x0080, 0x3f00), 0x0040);
        // 2^-133 * 0.5 = 2^-134: a tie, to 0; 3 * 2^-133 * 0.5: a tie between 1 and 2 units, 2.
        assert_eq!(bf16r(Reduction::Mul, 0x0001, 0x3f00), 0x0000);
        assert_eq!(bf16r(Reduction::Mul, 0x0003, 0x3f00), 0x0002);
        assert_eq!(bf16r(Reduction::Mul, 0x8001, 0x3e80), 0x8000);
        // 2^64 * 2^64 = 2^128: infinity; 1 + -1 = +0; -0 + -0 = -0.
        assert_eq!(bf16r(Reduction::Mul, 0x5f80, 0xdf80), 0xff80);
        assert_eq!(bf16r(Reduction::Add, 0x3f80, 0xbf80), 0x0000);
        assert_eq!(bf16r(Reduction::Add, 0x8000, 0x8000), 0x8000);
        // 1.0078125 * 1.0078125 = 1.01568603515625: 0x3f82 (1.015625).
        assert_eq!(bf16r(Reduction::Mul, 0x3f81, 0x3f81), 0x3f82);
    }

    #[test]
    fn f32_and_f64_arithmetic_keeps_subnormals() {
        // The smallest subnormals add exactly (no flush to zero).
        assert_eq!(f32r(Reduction::Add, 1, 1), 2);
        assert_eq!(f64r(Reduction::Add, 1, 1), 2);
        // 2^-126 * 0.5 = 2^-127, a subnormal (bits 0x0040_0000).
        assert_eq!(f32r(Reduction::Mul, 0x0080_0000, 0x3f00_0000), 0x0040_0000);
        // 1 + 2^-24 in f32: a tie, to the even 1.0; 1 + 3 * 2^-24: 1 + 2^-22.
        assert_eq!(f32r(Reduction::Add, 0x3f80_0000, 0x3380_0000), 0x3f80_0000);
        assert_eq!(f32r(Reduction::Add, 0x3f80_0000, 0x3440_0000), 0x3f80_0002);
        // f64 wrap of 0.1 + 0.2: 0x3fd3333333333334 (the famous 0.30000000000000004).
        assert_eq!(
            f64r(Reduction::Add, 0x3fb9_9999_9999_999a, 0x3fc9_9999_9999_999a),
            0x3fd3_3333_3333_3334
        );
    }

    #[test]
    fn nan_current_value_is_quieted_by_add_and_mul() {
        // Signalling NaNs: their own bits with the quiet bit set, whatever the update.
        assert_eq!(f32r(Reduction::Add, 0x7f80_0001, 0x3f80_0000), 0x7fc0_0001);
        assert_eq!(f32r(Reduction::Mul, 0xff80_0123, 0x7fc0_0000), 0xffc0_0123);
        assert_eq!(f32r(Reduction::Add, 0x7fc0_0005, 0xffc0_0000), 0x7fc0_0005);
        assert_eq!(
            f64r(Reduction::Add, 0x7ff0_0000_0000_0001, 0x3ff0_0000_0000_0000),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(f16r(Reduction::Add, 0x7c01, 0x3c00), 0x7e01);
        assert_eq!(f16r(Reduction::Mul, 0xfd55, 0x7c00), 0xff55);
        assert_eq!(f16r(Reduction::Add, 0x7e00, 0x7d00), 0x7e00);
        assert_eq!(bf16r(Reduction::Add, 0x7f81, 0x3f80), 0x7fc1);
        assert_eq!(bf16r(Reduction::Mul, 0xffaa, 0x7f80), 0xffea);
        assert_eq!(bf16r(Reduction::Add, 0x7fc0, 0x7fa0), 0x7fc0);
    }

    #[test]
    fn nan_update_is_quieted_by_add_and_mul() {
        assert_eq!(f32r(Reduction::Mul, 0x4000_0000, 0xff80_0005), 0xffc0_0005);
        assert_eq!(f32r(Reduction::Add, 0x7f80_0000, 0x7f80_0010), 0x7fc0_0010);
        assert_eq!(
            f64r(Reduction::Mul, 0x4000_0000_0000_0000, 0xfff0_0000_0000_0abc),
            0xfff8_0000_0000_0abc
        );
        assert_eq!(f16r(Reduction::Mul, 0x3c00, 0x7d00), 0x7f00);
        assert_eq!(f16r(Reduction::Add, 0xfc00, 0xfc01), 0xfe01);
        assert_eq!(bf16r(Reduction::Mul, 0x3f80, 0x7fa0), 0x7fe0);
        assert_eq!(bf16r(Reduction::Add, 0xff80, 0xff81), 0xffc1);
    }

    #[test]
    fn invalid_operations_give_the_positive_default_nan() {
        // inf + -inf and 0 * inf, in either order and sign.
        assert_eq!(f32r(Reduction::Add, 0x7f80_0000, 0xff80_0000), 0x7fc0_0000);
        assert_eq!(f32r(Reduction::Add, 0xff80_0000, 0x7f80_0000), 0x7fc0_0000);
        assert_eq!(f32r(Reduction::Mul, 0x8000_0000, 0x7f80_0000), 0x7fc0_0000);
        assert_eq!(f32r(Reduction::Mul, 0xff80_0000, 0x0000_0000), 0x7fc0_0000);
        let (inf, neg_inf) = (0x7ff0_0000_0000_0000u64, 0xfff0_0000_0000_0000u64);
        assert_eq!(f64r(Reduction::Add, inf, neg_inf), 0x7ff8_0000_0000_0000);
        assert_eq!(f64r(Reduction::Mul, 0, neg_inf), 0x7ff8_0000_0000_0000);
        assert_eq!(f16r(Reduction::Add, 0x7c00, 0xfc00), 0x7e00);
        assert_eq!(f16r(Reduction::Mul, 0x8000, 0x7c00), 0x7e00);
        assert_eq!(bf16r(Reduction::Add, 0x7f80, 0xff80), 0x7fc0);
        assert_eq!(bf16r(Reduction::Add, 0xff80, 0x7f80), 0x7fc0);
        assert_eq!(bf16r(Reduction::Mul, 0x8000, 0x7f80), 0x7fc0);
        assert_eq!(bf16r(Reduction::Mul, 0xff80, 0x0000), 0x7fc0);
        // Not invalid: inf + inf, and overflow, give infinities.
        assert_eq!(f32r(Reduction::Add, 0x7f80_0000, 0x7f80_0000), 0x7f80_0000);
        assert_eq!(f32r(Reduction::Mul, 0x7f7f_ffff, 0xc000_0000), 0xff80_0000);
    }

    #[test]
    fn float_min_and_max_keep_the_current_value_on_signed_zero_ties() {
        for reduction in [Reduction::Min, Reduction::Max] {
            assert_eq!(f32r(reduction, 0x0000_0000, 0x8000_0000), 0x0000_0000);
            assert_eq!(f32r(reduction, 0x8000_0000, 0x0000_0000), 0x8000_0000);
            assert_eq!(f64r(reduction, 0, 1 << 63), 0);
            assert_eq!(f64r(reduction, 1 << 63, 0), 1 << 63);
            assert_eq!(f16r(reduction, 0x0000, 0x8000), 0x0000);
            assert_eq!(f16r(reduction, 0x8000, 0x0000), 0x8000);
            assert_eq!(bf16r(reduction, 0x0000, 0x8000), 0x0000);
            assert_eq!(bf16r(reduction, 0x8000, 0x0000), 0x8000);
        }
    }

    #[test]
    fn float_min_and_max_compare_numbers_not_bits() {
        // 1.0 vs -2.0: -2.0's bits (0xc0000000) are the larger unsigned pattern.
        assert_eq!(f32r(Reduction::Min, 0x3f80_0000, 0xc000_0000), 0xc000_0000);
        assert_eq!(f32r(Reduction::Max, 0x3f80_0000, 0xc000_0000), 0x3f80_0000);
        // -1.0 vs -2.0: Min is -2.0, Max -1.0.
        assert_eq!(f32r(Reduction::Min, 0xbf80_0000, 0xc000_0000), 0xc000_0000);
        assert_eq!(f32r(Reduction::Max, 0xc000_0000, 0xbf80_0000), 0xbf80_0000);
        assert_eq!(f16r(Reduction::Max, 0xbc00, 0x3800), 0x3800);
        assert_eq!(f16r(Reduction::Min, 0x3800, 0xbc00), 0xbc00);
        assert_eq!(f16r(Reduction::Min, 0xfc00, 0xfbff), 0xfc00); // -inf < -65504
        assert_eq!(f16r(Reduction::Min, 0x0001, 0x8001), 0x8001); // subnormals
        assert_eq!(bf16r(Reduction::Max, 0xbf80, 0x3f00), 0x3f00);
        assert_eq!(bf16r(Reduction::Min, 0x3f00, 0xbf80), 0xbf80);
        assert_eq!(bf16r(Reduction::Min, 0xff80, 0xff7f), 0xff80); // -inf < the lowest
        assert_eq!(bf16r(Reduction::Max, 0x0001, 0x0002), 0x0002); // subnormals
        assert_eq!(bf16r(Reduction::Min, 0x0001, 0x8001), 0x8001);
        let (one, minus_two) = (0x3ff0_0000_0000_0000u64, 0xc000_0000_0000_0000u64);
        assert_eq!(f64r(Reduction::Min, one, minus_two), minus_two);
        assert_eq!(f64r(Reduction::Max, minus_two, one), one);
    }

    #[test]
    fn float_min_and_max_propagate_nan_bits_unchanged() {
        // A NaN update replaces a number, even an infinity, its bits as they are.
        assert_eq!(f32r(Reduction::Max, 0x3f80_0000, 0x7f80_0001), 0x7f80_0001);
        assert_eq!(f32r(Reduction::Min, 0xff80_0000, 0xffc0_0002), 0xffc0_0002);
        assert_eq!(f16r(Reduction::Max, 0x7c00, 0x7c01), 0x7c01);
        assert_eq!(bf16r(Reduction::Max, 0x7f80, 0x7f81), 0x7f81);
        assert_eq!(bf16r(Reduction::Min, 0x3f80, 0xffc3), 0xffc3);
        assert_eq!(
            f64r(Reduction::Min, 0, 0x7ff0_0000_0000_0001),
            0x7ff0_0000_0000_0001
        );
        // A NaN current value stays, against numbers and other NaNs.
        assert_eq!(f32r(Reduction::Min, 0x7f80_0001, 0xff80_0000), 0x7f80_0001);
        assert_eq!(f32r(Reduction::Max, 0xffc0_0000, 0x7fc0_0001), 0xffc0_0000);
        assert_eq!(f16r(Reduction::Min, 0xfe00, 0xfc00), 0xfe00);
        assert_eq!(bf16r(Reduction::Max, 0xff81, 0x7f80), 0xff81);
        assert_eq!(bf16r(Reduction::Min, 0x7fc0, 0x7f81), 0x7fc0);
        assert_eq!(
            f64r(Reduction::Max, 0xfff0_0000_0000_0002, 0x7ff0_0000_0000_0000),
            0xfff0_0000_0000_0002
        );
    }

    #[test]
    fn no_reduction_returns_the_update() {
        for data_type in DataType::ALL {
            let width = data_type.size_in_bytes() as usize;
            let current = vec![0x7fu8; 8];
            let update = [0x01u8, 0x82, 0x03, 0x84, 0x05, 0x86, 0x07, 0x88];
            let got = reduce_element(data_type, Reduction::None, &current, &update);
            assert_eq!(got, update[..width], "{data_type:?}");
        }
    }

    // ---- integer reductions ----

    fn int_r(data_type: DataType, reduction: Reduction, current: i128, update: i128) -> Vec<u8> {
        let width = data_type.size_in_bytes() as usize;
        let (c, u) = (current.to_le_bytes(), update.to_le_bytes());
        reduce_element(data_type, reduction, &c[..width], &u[..width])
    }

    #[test]
    fn integer_add_and_mul_wrap_around() {
        assert_eq!(int_r(DataType::Int8, Reduction::Add, 127, 1), [0x80]); // -128
        assert_eq!(int_r(DataType::Int8, Reduction::Add, -128, -1), [0x7f]); // 127
        assert_eq!(int_r(DataType::UInt8, Reduction::Add, 255, 1), [0]);
        assert_eq!(int_r(DataType::UInt8, Reduction::Mul, 16, 16), [0]); // 256
        assert_eq!(int_r(DataType::UInt8, Reduction::Mul, 15, 17), [255]);
        // -32768 * -1 = 32768 wraps to -32768.
        assert_eq!(
            int_r(DataType::Int16, Reduction::Mul, -32768, -1),
            [0x00, 0x80]
        );
        assert_eq!(
            int_r(DataType::UInt16, Reduction::Add, 0xffff, 0xffff),
            [0xfe, 0xff]
        );
        assert_eq!(
            int_r(DataType::Int32, Reduction::Add, i32::MAX as i128, 1),
            i32::MIN.to_le_bytes()
        );
        // 65536 * 65536 = 2^32: 0 in 32 bits.
        assert_eq!(
            int_r(DataType::UInt32, Reduction::Mul, 65536, 65536),
            [0; 4]
        );
        // (2^64 - 1)^2 = 2^128 - 2^65 + 1: 1 modulo 2^64; 2^32 * 2^32 = 0.
        let max = u64::MAX as i128;
        assert_eq!(
            int_r(DataType::UInt64, Reduction::Mul, max, max),
            1u64.to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::UInt64, Reduction::Mul, 1 << 32, 1 << 32),
            [0; 8]
        );
        // 3 * (2^63 + 1) = 3 * 2^63 + 3: 2^63 + 3 modulo 2^64.
        assert_eq!(
            int_r(DataType::UInt64, Reduction::Mul, 3, (1 << 63) + 1),
            ((1u64 << 63) + 3).to_le_bytes()
        );
        assert_eq!(
            int_r(
                DataType::Int64,
                Reduction::Add,
                i64::MAX as i128,
                i64::MAX as i128
            ),
            (-2i64).to_le_bytes()
        );
    }

    #[test]
    fn integer_min_and_max_compare_signed_or_unsigned() {
        // Bytes ff..ff: -1 signed, the largest value unsigned.
        assert_eq!(
            int_r(DataType::Int64, Reduction::Min, 1, -1),
            (-1i64).to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::UInt64, Reduction::Min, 1, -1),
            1u64.to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::Int64, Reduction::Max, 1, -1),
            1i64.to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::UInt64, Reduction::Max, 1, -1),
            u64::MAX.to_le_bytes()
        );
        assert_eq!(int_r(DataType::Int8, Reduction::Min, 5, -128), [0x80]);
        assert_eq!(int_r(DataType::UInt8, Reduction::Min, 5, 0x80), [5]);
        assert_eq!(
            int_r(DataType::Int16, Reduction::Max, -300, -299),
            (-299i16).to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::UInt16, Reduction::Max, 0x8000, 0x7fff),
            [0x00, 0x80]
        );
        assert_eq!(
            int_r(DataType::Int32, Reduction::Max, -5, -3),
            (-3i32).to_le_bytes()
        );
        assert_eq!(
            int_r(DataType::UInt32, Reduction::Min, 7, 7),
            7u32.to_le_bytes()
        );
    }
}
