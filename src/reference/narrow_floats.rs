//! The 16-bit float formats, Float16 and BFloat16, and f32: each format's exact widening to
//! f32 and its rounding from f32 (nearest even), written out by hand with NaN bits defined
//! explicitly. The scatter reductions compute each 16-bit step in f32 between the two
//! (`arithmetic.rs`); the CPU twin of `widen_half`, `narrow_single` and `narrow_bfloat` in
//! `shaders/binary32.wgsl`.

/// The quiet bit of each 16-bit format's NaNs (the fraction's top bit).
const F16_QUIET: u16 = 0x0200;
const BF16_QUIET: u16 = 0x0040;

/// The f16 with bits `h` as an f32, exactly (every f16 value is an f32 value): normal
/// numbers rebias their exponent, subnormals are normalised, infinities stay infinite, and a
/// NaN keeps its sign and its payload, shifted left by 13 (quiet bit included).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exponent = ((h >> 10) & 0x1f) as u32;
    let mantissa = (h & 0x3ff) as u32;
    let bits = match exponent {
        // Infinity or NaN.
        0x1f => sign | 0x7f80_0000 | (mantissa << 13),
        0 if mantissa == 0 => sign,
        // A subnormal, mantissa * 2^-24: with its top bit at position p (0..=9) it is
        // 1.f * 2^(p - 24), an f32 of biased exponent p - 24 + 127.
        0 => {
            let p = 31 - mantissa.leading_zeros();
            sign | ((p + 103) << 23) | ((mantissa << (23 - p)) & 0x7f_ffff)
        }
        // A normal number: rebias the exponent from 15 to 127.
        _ => sign | ((exponent + 112) << 23) | (mantissa << 13),
    };
    f32::from_bits(bits)
}

/// `value` rounded to the nearest f16, ties to even, as its bits: magnitudes from 65520
/// (halfway between the largest f16, 65504, and 2^16) up overflow to infinity; below 2^-14
/// the result is an f16 subnormal (gradual underflow: multiples of 2^-24, where 2^-25 itself
/// ties to 0 and anything above it rounds to 2^-24); signed zeros keep their sign. A NaN
/// keeps its sign and the top 10 bits of its payload (shifted right by 13), with the quiet
/// bit set (as an IEEE conversion quiets a signalling NaN, and so that no payload is lost
/// to an infinity).
pub fn f32_to_f16(value: f32) -> u16 {
    let f = value.to_bits();
    let sign = ((f >> 16) & 0x8000) as u16;
    let exponent = ((f >> 23) & 0xff) as i32;
    let mantissa = f & 0x7f_ffff;
    if exponent == 0xff {
        return if mantissa == 0 {
            sign | 0x7c00
        } else {
            sign | 0x7c00 | F16_QUIET | (mantissa >> 13) as u16
        };
    }
    // The exponent rebiased from 127 to 15 (f32 zeros and subnormals land far below 0).
    let biased = exponent - 127 + 15;
    if biased >= 0x1f {
        return sign | 0x7c00;
    }
    if biased >= 1 {
        // A normal f16 unless rounding carries: the carry out of the mantissa increments the
        // exponent, which is right, up to infinity (0x7c00) past the largest exponent.
        let truncated = ((biased as u32) << 10) | (mantissa >> 13);
        return sign | round_half_even(truncated, mantissa & 0x1fff, 13) as u16;
    }
    if biased < -10 {
        // Below 2^-25, half the smallest subnormal: rounds to zero.
        return sign;
    }
    // An f16 subnormal: the value is m * 2^(biased - 15 - 23) with the implicit bit in m,
    // that is (m >> (14 - biased)) units of 2^-24; shift by 14..=24. A carry into 0x400 is
    // the smallest normal number, correctly encoded.
    let m = mantissa | 0x80_0000;
    let shift = (14 - biased) as u32;
    let truncated = m >> shift;
    sign | round_half_even(truncated, m & ((1 << shift) - 1), shift) as u16
}

/// The bfloat16 with bits `b` as an f32, exactly: bfloat16 is binary32's upper half (the same
/// sign, the same 8-bit exponent, the fraction's top 7 bits), so its bits shifted left by 16.
/// Subnormals stay subnormal, and a NaN keeps its sign and its payload (quiet bit, or its
/// absence, included).
pub fn bf16_to_f32(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// `value` rounded to the nearest bfloat16, ties to even, as its bits. bfloat16 has f32's
/// exponent range, so this rounds f32's low 16 bits away: magnitudes from halfway between
/// the largest bfloat16 (`0x7f7f`, (2 - 2^-7) * 2^127) and 2^128 up overflow to infinity
/// (the carry runs into the exponent); f32 subnormals round to bfloat16 subnormals
/// (multiples of 2^-133: gradual underflow, nothing flushed); signed zeros keep their sign.
/// A NaN keeps its sign and the top 7 bits of its payload, with the quiet bit set (as an
/// IEEE conversion quiets a signalling NaN, and so that no payload is lost to an infinity):
/// the default NaN `0x7fc00000` gives `0x7fc0`.
pub fn f32_to_bf16(value: f32) -> u16 {
    let f = value.to_bits();
    if value.is_nan() {
        return (f >> 16) as u16 | BF16_QUIET;
    }
    // The magnitude stays at most 0x7f80 (infinity) after rounding: no carry into the sign.
    round_half_even(f >> 16, f & 0xffff, 16) as u16
}

/// `truncated` plus the rounding of the `shift >= 1` bits `rest` dropped below it: up when
/// `rest` is more than half a unit, or exactly half and `truncated` is odd.
fn round_half_even(truncated: u32, rest: u32, shift: u32) -> u32 {
    let half = 1u32 << (shift - 1);
    if rest > half || (rest == half && truncated & 1 == 1) {
        truncated + 1
    } else {
        truncated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // ---- f16 conversions ----

    #[test]
    fn f16_to_f32_is_exact_for_every_bit_pattern() {
        for h in 0..=u16::MAX {
            let got = f16_to_f32(h).to_bits();
            let reference = half::f16::from_bits(h);
            if reference.is_nan() {
                // Sign kept, payload shifted left by 13, quiet bit (or its absence) included.
                let want = ((h as u32 & 0x8000) << 16) | 0x7f80_0000 | ((h as u32 & 0x3ff) << 13);
                assert_eq!(got, want, "{h:#06x}");
            } else {
                assert_eq!(got, reference.to_f32().to_bits(), "{h:#06x}");
            }
        }
    }

    #[test]
    fn f16_to_f32_known_values() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0400), 2f32.powi(-14)); // smallest normal
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24)); // smallest subnormal
        assert_eq!(f16_to_f32(0x03ff), 1023.0 * 2f32.powi(-24)); // largest subnormal
        assert_eq!(f16_to_f32(0x8001), -(2f32.powi(-24)));
        assert_eq!(f16_to_f32(0x8000).to_bits(), 0x8000_0000);
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert_eq!(f16_to_f32(0x7e00).to_bits(), 0x7fc0_0000);
        assert_eq!(f16_to_f32(0xfd55).to_bits(), 0xffaa_a000);
    }

    #[test]
    fn f32_to_f16_round_trips_every_f16() {
        for h in 0..=u16::MAX {
            let back = f32_to_f16(f16_to_f32(h));
            let is_nan = h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
            // Numbers and quiet NaNs come back unchanged; signalling NaNs come back quieted.
            let want = if is_nan { h | 0x0200 } else { h };
            assert_eq!(back, want, "{h:#06x}");
        }
    }

    #[test]
    fn f32_to_f16_rounds_ties_to_even() {
        let p = |e: i32| 2f32.powi(e);
        // Halfway between 1.0 (0x3c00, even) and 1 + 2^-10 (0x3c01): down to the even one.
        assert_eq!(f32_to_f16(1.0 + p(-11)), 0x3c00);
        // Halfway between 0x3c01 and 0x3c02: up to the even one.
        assert_eq!(f32_to_f16(1.0 + 3.0 * p(-11)), 0x3c02);
        // Just above or below halfway: to the nearer one.
        assert_eq!(f32_to_f16(1.0 + p(-11) + p(-23)), 0x3c01);
        assert_eq!(f32_to_f16(1.0 + 3.0 * p(-11) - p(-23)), 0x3c01);
        assert_eq!(f32_to_f16(-(1.0 + p(-11))), 0xbc00);
        // 2049 lies halfway between 2048 (0x6800) and 2050 (0x6801): 2048; 2051: 2052.
        assert_eq!(f32_to_f16(2049.0), 0x6800);
        assert_eq!(f32_to_f16(2051.0), 0x6802);
        // A tie that carries into the exponent: 2^-14 - 2^-25, halfway between the largest
        // subnormal 0x03ff and the smallest normal 0x0400, goes to the even 0x0400.
        assert_eq!(f32_to_f16(p(-14) - p(-25)), 0x0400);
        // 2 - 2^-11, halfway between 0x3bff and 2.0 (0x4000): 2.0.
        assert_eq!(f32_to_f16(2.0 - p(-11)), 0x4000);
    }

    #[test]
    fn f32_to_f16_overflows_from_65520() {
        // 65520 is halfway between the largest f16 (65504, mantissa odd) and 2^16: infinity.
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(-65520.0), 0xfc00);
        // The f32 just below 65520 (ulp 2^-8 there) rounds down to 65504.
        assert_eq!(f32_to_f16(65520.0 - 2f32.powi(-8)), 0x7bff);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(1.0e6), 0x7c00);
        assert_eq!(f32_to_f16(f32::MAX), 0x7c00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(f32::NEG_INFINITY), 0xfc00);
    }

    #[test]
    fn f32_to_f16_underflows_gradually() {
        let p = |e: i32| 2f32.powi(e);
        assert_eq!(f32_to_f16(p(-24)), 0x0001); // smallest subnormal
        assert_eq!(f32_to_f16(-p(-24)), 0x8001);
        assert_eq!(f32_to_f16(p(-14)), 0x0400); // smallest normal
        assert_eq!(f32_to_f16(p(-15)), 0x0200);
        // 2^-25, half the smallest subnormal: a tie, to the even 0 (sign kept).
        assert_eq!(f32_to_f16(p(-25)), 0x0000);
        assert_eq!(f32_to_f16(-p(-25)), 0x8000);
        // Anything above it rounds up to the smallest subnormal.
        assert_eq!(f32_to_f16(p(-25) + p(-40)), 0x0001);
        assert_eq!(f32_to_f16(p(-25) * 1.5), 0x0001);
        // Below it: zero.
        assert_eq!(f32_to_f16(p(-25) - p(-50)), 0x0000);
        assert_eq!(f32_to_f16(p(-26)), 0x0000);
        assert_eq!(f32_to_f16(f32::from_bits(1)), 0x0000); // an f32 subnormal
        assert_eq!(f32_to_f16(f32::from_bits(0x8000_0001)), 0x8000);
        // 3 * 2^-25 is halfway between 1 and 2 units of 2^-24: 2; 5 * 2^-25: 2 as well.
        assert_eq!(f32_to_f16(3.0 * p(-25)), 0x0002);
        assert_eq!(f32_to_f16(5.0 * p(-25)), 0x0002);
        assert_eq!(f32_to_f16(7.0 * p(-25)), 0x0004);
        assert_eq!(f32_to_f16(0.0), 0x0000);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
    }

    #[test]
    fn f32_to_f16_keeps_nan_payloads_quiet() {
        assert_eq!(f32_to_f16(f32::from_bits(0x7fc0_0000)), 0x7e00);
        assert_eq!(f32_to_f16(f32::from_bits(0xffc0_0000)), 0xfe00);
        // Top payload bits kept (shifted right by 13) and the quiet bit set.
        assert_eq!(f32_to_f16(f32::from_bits(0x7fa0_0000)), 0x7f00);
        assert_eq!(f32_to_f16(f32::from_bits(0xffaa_a000)), 0xff55);
        // A payload only in the low 13 bits would leave an infinity: the quiet bit stops it.
        assert_eq!(f32_to_f16(f32::from_bits(0x7f80_0001)), 0x7e00);
    }

    #[test]
    fn f32_to_f16_matches_half_on_sampled_f32s() {
        let check = |bits: u32| {
            let value = f32::from_bits(bits);
            if !value.is_nan() {
                let want = half::f16::from_f32(value).to_bits();
                assert_eq!(f32_to_f16(value), want, "{bits:#010x}");
            }
        };
        // Sparse over every f32, dense over the magnitudes f16 can tell apart (2^-26 to 2^17).
        for bits in (0..=u32::MAX).step_by(4093) {
            check(bits);
        }
        for magnitude in (0x3280_0000u32..0x4800_0000).step_by(211) {
            check(magnitude);
            check(magnitude | 0x8000_0000);
        }
        // Every exact and near tie: the low 13 bits around 0x1000 at every exponent.
        for exponent in 0x60u32..0x90 {
            for high in [0u32, 1, 2, 0x3fe, 0x3ff] {
                for low in [0u32, 1, 0xfff, 0x1000, 0x1001, 0x1fff] {
                    check((exponent << 23) | (high << 13) | low);
                }
            }
        }
    }

    // ---- bfloat16 conversions ----

    #[test]
    fn bf16_to_f32_is_exact_for_every_bit_pattern() {
        for b in 0..=u16::MAX {
            let got = bf16_to_f32(b);
            let reference = half::bf16::from_bits(b);
            if reference.is_nan() {
                // Sign and payload kept as they are (half's own widening quiets them).
                assert!(got.is_nan(), "{b:#06x}");
                assert_eq!(got.to_bits(), (b as u32) << 16, "{b:#06x}");
            } else {
                assert_eq!(got.to_bits(), reference.to_f32().to_bits(), "{b:#06x}");
                // half's f64 widening decodes the fields itself: the same value.
                assert_eq!(got as f64, reference.to_f64(), "{b:#06x}");
            }
        }
    }

    #[test]
    fn bf16_to_f32_known_values() {
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
        assert_eq!(bf16_to_f32(0xc000), -2.0);
        assert_eq!(bf16_to_f32(0x3f81), 1.0 + 2f32.powi(-7));
        assert_eq!(bf16_to_f32(0x7f7f), (2.0 - 2f32.powi(-7)) * 2f32.powi(127)); // largest
        assert_eq!(bf16_to_f32(0x0080), 2f32.powi(-126)); // smallest normal
        // (2^-133 as f64: f32's powi would overflow computing 2^133 on the way.)
        let smallest = 2f64.powi(-133) as f32;
        assert_eq!(bf16_to_f32(0x0001), smallest); // smallest subnormal
        assert_eq!(bf16_to_f32(0x007f), 127.0 * smallest); // largest subnormal
        assert_eq!(bf16_to_f32(0x8000).to_bits(), 0x8000_0000);
        assert_eq!(bf16_to_f32(0x7f80), f32::INFINITY);
        assert_eq!(bf16_to_f32(0xff80), f32::NEG_INFINITY);
        assert_eq!(bf16_to_f32(0x7fc0).to_bits(), 0x7fc0_0000);
        assert_eq!(bf16_to_f32(0xff81).to_bits(), 0xff81_0000); // signalling: not quieted
    }

    #[test]
    fn f32_to_bf16_round_trips_every_bf16() {
        for b in 0..=u16::MAX {
            let back = f32_to_bf16(bf16_to_f32(b));
            let is_nan = b & 0x7f80 == 0x7f80 && b & 0x7f != 0;
            // Numbers and quiet NaNs come back unchanged; signalling NaNs come back quieted.
            let want = if is_nan { b | 0x0040 } else { b };
            assert_eq!(back, want, "{b:#06x}");
        }
    }

    #[test]
    fn f32_to_bf16_rounds_ties_to_even() {
        let p = |e: i32| 2f32.powi(e);
        // Halfway between 1.0 (0x3f80, even) and 1 + 2^-7 (0x3f81): down to the even one.
        assert_eq!(f32_to_bf16(1.0 + p(-8)), 0x3f80);
        // Halfway between 0x3f81 and 0x3f82: up to the even one.
        assert_eq!(f32_to_bf16(1.0 + 3.0 * p(-8)), 0x3f82);
        // Just above or below halfway: to the nearer one.
        assert_eq!(f32_to_bf16(1.0 + p(-8) + p(-23)), 0x3f81);
        assert_eq!(f32_to_bf16(1.0 + 3.0 * p(-8) - p(-22)), 0x3f81);
        assert_eq!(f32_to_bf16(-(1.0 + p(-8))), 0xbf80);
        // 257 lies halfway between 256 (0x4380) and 258 (0x4381): 256; 259: 260.
        assert_eq!(f32_to_bf16(257.0), 0x4380);
        assert_eq!(f32_to_bf16(259.0), 0x4382);
        // 2 - 2^-8, halfway between 0x3fff and 2.0 (0x4000): the carry into the exponent.
        assert_eq!(f32_to_bf16(2.0 - p(-8)), 0x4000);
    }

    #[test]
    fn f32_to_bf16_overflows_from_halfway_past_the_largest() {
        // (2 - 2^-8) * 2^127 is halfway between the largest bfloat16 (fraction odd) and
        // 2^128: infinity. Just below it: the largest.
        assert_eq!(f32_to_bf16(f32::from_bits(0x7f7f_8000)), 0x7f80);
        assert_eq!(f32_to_bf16(f32::from_bits(0xff7f_8000)), 0xff80);
        assert_eq!(f32_to_bf16(f32::from_bits(0x7f7f_7fff)), 0x7f7f);
        assert_eq!(f32_to_bf16(f32::MAX), 0x7f80);
        assert_eq!(f32_to_bf16(f32::MIN), 0xff80);
        assert_eq!(f32_to_bf16(f32::INFINITY), 0x7f80);
        assert_eq!(f32_to_bf16(f32::NEG_INFINITY), 0xff80);
    }

    #[test]
    fn f32_to_bf16_underflows_gradually() {
        let p = |e: i32| 2f64.powi(e) as f32; // exact: f32's powi overflows past 2^128

        assert_eq!(f32_to_bf16(p(-133)), 0x0001); // smallest subnormal
        assert_eq!(f32_to_bf16(-p(-133)), 0x8001);
        assert_eq!(f32_to_bf16(p(-126)), 0x0080); // smallest normal
        // 2^-134, half the smallest subnormal: a tie, to the even 0 (sign kept); above it,
        // the smallest subnormal; 3 * 2^-134, a tie between 1 and 2 units: 2.
        assert_eq!(f32_to_bf16(p(-134)), 0x0000);
        assert_eq!(f32_to_bf16(-p(-134)), 0x8000);
        assert_eq!(f32_to_bf16(p(-134) + p(-149)), 0x0001);
        assert_eq!(f32_to_bf16(3.0 * p(-134)), 0x0002);
        assert_eq!(f32_to_bf16(f32::from_bits(1)), 0x0000); // the smallest f32
        assert_eq!(f32_to_bf16(f32::from_bits(0x8000_0001)), 0x8000);
        // The largest f32 subnormal rounds up into the smallest normal bfloat16.
        assert_eq!(f32_to_bf16(f32::from_bits(0x007f_ffff)), 0x0080);
        assert_eq!(f32_to_bf16(0.0), 0x0000);
        assert_eq!(f32_to_bf16(-0.0), 0x8000);
    }

    #[test]
    fn f32_to_bf16_keeps_nan_payloads_quiet() {
        assert_eq!(f32_to_bf16(f32::from_bits(0x7fc0_0000)), 0x7fc0);
        assert_eq!(f32_to_bf16(f32::from_bits(0xffc0_0000)), 0xffc0);
        // Top payload bits kept and the quiet bit set.
        assert_eq!(f32_to_bf16(f32::from_bits(0x7fa0_0000)), 0x7fe0);
        assert_eq!(f32_to_bf16(f32::from_bits(0xff95_ffff)), 0xffd5);
        // A payload only in the low 16 bits would leave an infinity: the quiet bit stops it
        // (and no rounding carries a NaN into another one or into the sign).
        assert_eq!(f32_to_bf16(f32::from_bits(0x7f80_0001)), 0x7fc0);
        assert_eq!(f32_to_bf16(f32::from_bits(0x7fff_ffff)), 0x7fff);
    }

    #[test]
    fn f32_to_bf16_matches_half_on_sampled_f32s() {
        // half rounds the same way and keeps NaNs the same way (sign, top payload bits, the
        // quiet bit set): every f32 compares, NaNs included.
        let check = |bits: u32| {
            let want = half::bf16::from_f32(f32::from_bits(bits)).to_bits();
            assert_eq!(f32_to_bf16(f32::from_bits(bits)), want, "{bits:#010x}");
        };
        // Sparse over every f32.
        for bits in (0..=u32::MAX).step_by(4093) {
            check(bits);
        }
        // Every bfloat16 pattern with the low 16 bits at, around and away from a tie: every
        // exponent, both signs, subnormals, infinities and NaNs.
        for high in 0..=u16::MAX as u32 {
            for low in [
                0u32,
                1,
                0x7fff,
                0x8000,
                0x8001,
                0xffff,
                (high * 0x9e37) & 0xffff,
            ] {
                check((high << 16) | low);
            }
        }
    }
}
