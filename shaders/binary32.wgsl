// requires: integers binary64
// Float16, BFloat16 and Float32 for the scatter reductions (shaders/arithmetic.wgsl).

// The same scheme as binary64 (shaders/binary64.wgsl) on a single word (a quarter of the
// instructions): a finite nonzero value is significand * 2^(exponent - 30), the leading one
// at bit 30, with 7 bits below binary32's 24 for rounding.

struct Narrow {
    sign: u32,
    exponent: i32,
    significand: u32,
}

fn narrow_exponent(bits: u32, f: Format) -> u32 {
    return (bits >> f.fraction_bits) & ((1u << f.exponent_bits) - 1u);
}

fn narrow_fraction(bits: u32, f: Format) -> u32 {
    return bits & ((1u << f.fraction_bits) - 1u);
}

fn narrow_sign(bits: u32, f: Format) -> u32 {
    return (bits >> (f.fraction_bits + f.exponent_bits)) & 1u;
}

fn narrow_is_infinite(bits: u32, f: Format) -> bool {
    return narrow_exponent(bits, f) == (1u << f.exponent_bits) - 1u && narrow_fraction(bits, f) == 0u;
}

fn narrow_is_nan(bits: u32, f: Format) -> bool {
    return narrow_exponent(bits, f) == (1u << f.exponent_bits) - 1u && narrow_fraction(bits, f) != 0u;
}

fn narrow_is_zero(bits: u32, f: Format) -> bool {
    return (bits & ~(1u << (f.fraction_bits + f.exponent_bits))) == 0u;
}

fn narrow_pack(sign: u32, exponent: u32, fraction: u32, f: Format) -> u32 {
    return (((sign << f.exponent_bits) | exponent) << f.fraction_bits) | fraction;
}

fn narrow_infinity(sign: u32, f: Format) -> u32 {
    return narrow_pack(sign, (1u << f.exponent_bits) - 1u, 0u, f);
}

fn unpack_narrow(bits: u32, f: Format) -> Narrow {
    let field = narrow_exponent(bits, f);
    var significand = narrow_fraction(bits, f);
    var scale = 1 - f.bias - i32(f.fraction_bits);
    if field != 0u {
        significand |= 1u << f.fraction_bits;
        scale = i32(field) - f.bias - i32(f.fraction_bits);
    }
    let shift = countLeadingZeros(significand) - 1u;
    return Narrow(narrow_sign(bits, f), scale + 30 - i32(shift), significand << shift);
}

// a >> n (any n) with the bits shifted out ORed into bit 0.
fn shr32_sticky(a: u32, n: u32) -> u32 {
    if n >= 32u {
        return select(0u, 1u, a != 0u);
    }
    let kept = a >> n;
    return kept | select(0u, 1u, (kept << n) != a);
}

// significand * 2^(exponent - 30) (significand nonzero) rounded to nearest even in f.
fn round_pack_narrow(sign: u32, exponent_in: i32, significand_in: u32, f: Format) -> u32 {
    var exponent = exponent_in;
    var significand = significand_in;
    let zeros = countLeadingZeros(significand);
    if zeros == 0u {
        significand = shr32_sticky(significand, 1u);
        exponent += 1;
    } else if zeros > 1u {
        significand <<= zeros - 1u;
        exponent -= i32(zeros - 1u);
    }
    let biased = exponent + f.bias;
    if biased >= i32((1u << f.exponent_bits) - 1u) {
        return narrow_infinity(sign, f);
    }
    var base = 0u;
    if biased <= 0 {
        significand = shr32_sticky(significand, u32(1 - biased));
    } else {
        base = u32(biased - 1);
    }
    let round_bits = 30u - f.fraction_bits;
    let half = 1u << (round_bits - 1u);
    let rest = significand & ((1u << round_bits) - 1u);
    var rounded = (significand + half) >> round_bits;
    if rest == half {
        rounded &= 0xfffffffeu;
    }
    return ((base << f.fraction_bits) + rounded) | (sign << (f.fraction_bits + f.exponent_bits));
}

// Bits of narrow format `source` (binary16, binary32) as the nearest value of `destination`
// (exact when widening). NaNs keep their sign and the payload's top bits, quieted.
fn convert_narrow(bits: u32, source: Format, destination: Format) -> u32 {
    let sign = narrow_sign(bits, source);
    let all_ones = (1u << destination.exponent_bits) - 1u;
    if narrow_is_nan(bits, source) {
        let fraction = narrow_fraction(bits, source);
        var payload: u32;
        if destination.fraction_bits >= source.fraction_bits {
            payload = fraction << (destination.fraction_bits - source.fraction_bits);
        } else {
            payload = fraction >> (source.fraction_bits - destination.fraction_bits);
        }
        return narrow_pack(sign, all_ones, payload | (1u << (destination.fraction_bits - 1u)), destination);
    }
    if narrow_is_infinite(bits, source) {
        return narrow_infinity(sign, destination);
    }
    if narrow_is_zero(bits, source) {
        return narrow_pack(sign, 0u, 0u, destination);
    }
    let u = unpack_narrow(bits, source);
    return round_pack_narrow(u.sign, u.exponent, u.significand, destination);
}

// a + b in binary32, NaN operands already handled: zeros and infinities by their bits, every
// other sum by the hardware's f32 addition on the operands scaled by 2^64 (up, or down where
// one is 2^62 or more), where operands and result are normal numbers: the hardware's
// correctly rounded sum (binary32_step's premise), scaled back exactly. Scaled up, both are
// multiples of 2^-85 (2^-149 scaled), so a sum below 2^-126 once scaled back is exact and
// taken apart as a subnormal's integer; scaled down, an operand below 2^-62 is nothing next
// to one of 2^62 or more (a fraction of its half unit in the last place), and a sum of 2^64
// or more scaled back overflows. A few instructions where the integer path (unpack, align,
// round, pack) took a driver as long to compile as the rest of the kernel.
fn add_binary32(a: u32, b: u32) -> u32 {
    let magnitude_a = a & 0x7fffffffu;
    let magnitude_b = b & 0x7fffffffu;
    if max(magnitude_a, magnitude_b) == 0x7f800000u {
        // inf + -inf is the default NaN; else the infinity.
        if magnitude_a == magnitude_b && a != b {
            return 0x7fc00000u;
        }
        return select(b, a, magnitude_a == 0x7f800000u);
    }
    if min(magnitude_a, magnitude_b) == 0u {
        // -0 only from -0 + -0; else the other operand.
        if max(magnitude_a, magnitude_b) == 0u {
            return a & b;
        }
        return select(a, b, magnitude_a == 0u);
    }
    let down = max(magnitude_a, magnitude_b) >= (189u << 23u);
    let sum = scaled_by_2_64(a, down) + scaled_by_2_64(b, down);
    let bits = bitcast<u32>(sum);
    let magnitude = bits & 0x7fffffffu;
    if magnitude == 0u {
        return 0u;
    }
    if down {
        // At least 2^-26 (a sum near zero cancels operands of 2^-3 or more).
        if magnitude >= ((255u - 64u) << 23u) {
            return (bits & 0x80000000u) | 0x7f800000u;
        }
        return bits + (64u << 23u);
    }
    // At least 2^-85 (a nonzero multiple of it).
    if magnitude >= (65u << 23u) {
        return bits - (64u << 23u);
    }
    return (bits & 0x80000000u) | u32(abs(sum) * 0x1p85f);
}

// x (finite, nonzero) times 2^64, or times 2^-64 where `down` (0 if x is below 2^-62 then),
// exactly and as a normal number.
fn scaled_by_2_64(x: u32, down: bool) -> f32 {
    let sign = x & 0x80000000u;
    let field = (x >> 23u) & 0xffu;
    if down {
        if field < 65u {
            return bitcast<f32>(sign);
        }
        return bitcast<f32>(x - (64u << 23u));
    }
    if field == 0u {
        // A subnormal, (x & 0x7fffff) * 2^-149: its integer times 2^-85.
        let scaled = f32(x & 0x7fffffu) * 0x1p-85f;
        return bitcast<f32>(bitcast<u32>(scaled) | sign);
    }
    return bitcast<f32>(x + (64u << 23u));
}

// a * b in binary32, NaN operands already handled.
fn mul_binary32(a: u32, b: u32) -> u32 {
    let f = BINARY32;
    let sign = (a ^ b) >> 31u;
    let zero = narrow_is_zero(a, f) || narrow_is_zero(b, f);
    if narrow_is_infinite(a, f) || narrow_is_infinite(b, f) {
        if zero {
            return 0x7fc00000u;
        }
        return narrow_infinity(sign, f);
    }
    if zero {
        return sign << 31u;
    }
    let x = unpack_narrow(a, f);
    let y = unpack_narrow(b, f);
    // The product lies in [2^60, 2^62): keep bits 30..61, the rest as a sticky bit.
    let product = mul_wide(x.significand, y.significand);
    let significand = (product.x >> 30u) | (product.y << 2u) | select(0u, 1u, (product.x & 0x3fffffffu) != 0u);
    return round_pack_narrow(sign, x.exponent + y.exponent, significand, f);
}


// ---- The hardware's binary32, where IEEE leaves it no choice ----
// WGSL requires f32 `+` and `*` correctly rounded, but lets an implementation flush
// subnormals and assume there are no infinities or NaNs. Where both operands and the result
// are normal numbers (the result at least 2^-125, so that no rounding near the subnormal
// range is left to the hardware) none of that can apply, and the hardware's result is
// IEEE's: one instruction instead of about sixty. Everything else takes the integer path.

// Exponent field in [lowest, 254]: a normal number no smaller than 2^(lowest - 127).
fn binary32_normal_from(bits: u32, lowest: u32) -> bool {
    return ((bits >> 23u) & 0xffu) - lowest < 255u - lowest;
}

// current op update (REDUCTION Add or Mul) in binary32, NaN operands already handled.
fn binary32_step(a: u32, b: u32) -> u32 {
    if binary32_normal_from(a, 1u) && binary32_normal_from(b, 1u) {
        var fast: f32;
        if REDUCTION == ADD {
            fast = bitcast<f32>(a) + bitcast<f32>(b);
        } else {
            fast = bitcast<f32>(a) * bitcast<f32>(b);
        }
        let bits = bitcast<u32>(fast);
        if binary32_normal_from(bits, 2u) {
            return bits;
        }
    }
// @add-begin
    return add_binary32(a, b);
// @add-end
// @not-add-begin
    return mul_binary32(a, b);
// @not-add-end
}

// Binary16 bits widened to binary32 (exact): bit moves for normal numbers.
fn widen_half(bits: u32) -> u32 {
    let field = (bits >> 10u) & 0x1fu;
    if field - 1u < 30u {
        return ((bits & 0x8000u) << 16u) | ((field + 112u) << 23u) | ((bits & 0x3ffu) << 13u);
    }
    return convert_narrow(bits, BINARY16, BINARY32);
}

// Binary32 bits rounded to binary16 (nearest even): integer rounding of the fraction where
// the result is a normal binary16 or overflows to infinity (the carry runs into the
// exponent, as rounding does).
fn narrow_single(bits: u32) -> u32 {
    let field = (bits >> 23u) & 0xffu;
    if field - 113u < 30u {
        let fraction = bits & 0x7fffffu;
        let rounded = (fraction + 0xfffu + ((fraction >> 13u) & 1u)) >> 13u;
        return ((bits >> 16u) & 0x8000u) | (((field - 112u) << 10u) + rounded);
    }
    return convert_narrow(bits, BINARY32, BINARY16);
}

// BFloat16 bits widened to binary32 (exact): bfloat16 is binary32's upper half.
fn widen_bfloat(bits: u32) -> u32 {
    return bits << 16u;
}

// Binary32 bits rounded to bfloat16 (nearest even): the low 16 bits rounded away, the carry
// running into the exponent (up to infinity; subnormals round as the integers they are). A
// NaN keeps its sign and its payload's top bits, quieted (0x7fc00000 gives 0x7fc0).
fn narrow_bfloat(bits: u32) -> u32 {
    if narrow_is_nan(bits, BINARY32) {
        return (bits >> 16u) | 0x40u;
    }
    return (bits + 0x7fffu + ((bits >> 16u) & 1u)) >> 16u;
}
