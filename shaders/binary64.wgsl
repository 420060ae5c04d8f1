// requires: integers
// IEEE binary floats on bit patterns for the scatter reductions (shaders/arithmetic.wgsl):
// the formats, and binary64 arithmetic on word pairs (Float64).

struct Format {
    fraction_bits: u32,
    exponent_bits: u32,
    bias: i32,
}

const BINARY16: Format = Format(10u, 5u, 15);
const BFLOAT16: Format = Format(7u, 8u, 127);
const BINARY32: Format = Format(23u, 8u, 127);
const BINARY64: Format = Format(52u, 11u, 1023);

fn exponent_field(bits: vec2<u32>, f: Format) -> u32 {
    return shr64(bits, f.fraction_bits).x & ((1u << f.exponent_bits) - 1u);
}

fn fraction_field(bits: vec2<u32>, f: Format) -> vec2<u32> {
    return sub64(bits, shl64(shr64(bits, f.fraction_bits), f.fraction_bits));
}

fn sign_field(bits: vec2<u32>, f: Format) -> u32 {
    return shr64(bits, f.fraction_bits + f.exponent_bits).x & 1u;
}

fn is_nan(bits: vec2<u32>, f: Format) -> bool {
    return exponent_field(bits, f) == (1u << f.exponent_bits) - 1u && !is_zero64(fraction_field(bits, f));
}

fn is_infinite(bits: vec2<u32>, f: Format) -> bool {
    return exponent_field(bits, f) == (1u << f.exponent_bits) - 1u && is_zero64(fraction_field(bits, f));
}

fn is_zero_float(bits: vec2<u32>, f: Format) -> bool {
    return exponent_field(bits, f) == 0u && is_zero64(fraction_field(bits, f));
}

// Bits from sign, exponent field and fraction.
fn pack_float(sign: u32, exponent: u32, fraction: vec2<u32>, f: Format) -> vec2<u32> {
    let top = shl64(vec2<u32>((sign << f.exponent_bits) | exponent, 0u), f.fraction_bits);
    return vec2<u32>(top.x | fraction.x, top.y | fraction.y);
}

fn infinity(sign: u32, f: Format) -> vec2<u32> {
    return pack_float(sign, (1u << f.exponent_bits) - 1u, vec2<u32>(0u), f);
}

// The positive quiet NaN with an empty payload: what an invalid operation gives.
fn default_nan(f: Format) -> vec2<u32> {
    return pack_float(0u, (1u << f.exponent_bits) - 1u, shl64(vec2<u32>(1u, 0u), f.fraction_bits - 1u), f);
}

fn quieted(bits: vec2<u32>, f: Format) -> vec2<u32> {
    let quiet = shl64(vec2<u32>(1u, 0u), f.fraction_bits - 1u);
    return vec2<u32>(bits.x | quiet.x, bits.y | quiet.y);
}

// A finite nonzero value as significand * 2^(exponent - 62), the significand's leading one at
// bit 62: room above for a carry, and at least 10 bits below the widest fraction for rounding.
struct Unpacked {
    sign: u32,
    exponent: i32,
    significand: vec2<u32>,
}

fn unpack(bits: vec2<u32>, f: Format) -> Unpacked {
    let field = exponent_field(bits, f);
    var significand = fraction_field(bits, f);
    var scale = 1 - f.bias - i32(f.fraction_bits);
    if field != 0u {
        significand = add64(significand, shl64(vec2<u32>(1u, 0u), f.fraction_bits));
        scale = i32(field) - f.bias - i32(f.fraction_bits);
    }
    let shift = leading_zeros64(significand) - 1u;
    return Unpacked(sign_field(bits, f), scale + 62 - i32(shift), shl64(significand, shift));
}

// The value significand * 2^(exponent - 62) (significand nonzero) rounded to nearest even in
// format f: overflow gives infinity, small values become subnormal or zero.
fn round_pack(sign: u32, exponent_in: i32, significand_in: vec2<u32>, f: Format) -> vec2<u32> {
    var exponent = exponent_in;
    var significand = significand_in;
    let zeros = leading_zeros64(significand);
    if zeros == 0u {
        significand = shr64_sticky(significand, 1u);
        exponent += 1;
    } else if zeros > 1u {
        significand = shl64(significand, zeros - 1u);
        exponent -= i32(zeros - 1u);
    }
    // Now the value is 1.f * 2^exponent.
    let biased = exponent + f.bias;
    let all_ones = i32((1u << f.exponent_bits) - 1u);
    if biased >= all_ones {
        return infinity(sign, f);
    }
    var base = 0u;
    if biased <= 0 {
        significand = shr64_sticky(significand, u32(1 - biased));
    } else {
        // The significand's leading one adds the last 1 to the exponent field.
        base = u32(biased - 1);
    }
    let round_bits = 62u - f.fraction_bits;
    let half = shl64(vec2<u32>(1u, 0u), round_bits - 1u);
    let rest = sub64(significand, shl64(shr64(significand, round_bits), round_bits));
    var rounded = shr64(add64(significand, half), round_bits);
    if all(rest == half) {
        rounded.x &= 0xfffffffeu;
    }
    // A carry out of the significand moves into the exponent, up to infinity's pattern.
    let packed = add64(shl64(vec2<u32>(base, 0u), f.fraction_bits), rounded);
    let sign_bit = shl64(vec2<u32>(sign, 0u), f.fraction_bits + f.exponent_bits);
    return vec2<u32>(packed.x | sign_bit.x, packed.y | sign_bit.y);
}

// a + b in binary64, NaN operands already handled.
fn add_binary64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let f = BINARY64;
    if is_infinite(a, f) {
        if is_infinite(b, f) && sign_field(a, f) != sign_field(b, f) {
            return default_nan(f);
        }
        return a;
    }
    if is_infinite(b, f) {
        return b;
    }
    if is_zero_float(a, f) {
        if is_zero_float(b, f) {
            // -0 + -0 = -0; any other sum of zeros is +0 (round to nearest).
            return pack_float(sign_field(a, f) & sign_field(b, f), 0u, vec2<u32>(0u), f);
        }
        return b;
    }
    if is_zero_float(b, f) {
        return a;
    }
    var x = unpack(a, f);
    var y = unpack(b, f);
    if x.exponent < y.exponent || (x.exponent == y.exponent && less64(x.significand, y.significand)) {
        let swap = x;
        x = y;
        y = swap;
    }
    let aligned = shr64_sticky(y.significand, u32(x.exponent - y.exponent));
    if x.sign == y.sign {
        return round_pack(x.sign, x.exponent, add64(x.significand, aligned), f);
    }
    let difference = sub64(x.significand, aligned);
    if is_zero64(difference) {
        return vec2<u32>(0u);
    }
    return round_pack(x.sign, x.exponent, difference, f);
}

// a * b in binary64, NaN operands already handled.
fn mul_binary64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let f = BINARY64;
    let sign = sign_field(a, f) ^ sign_field(b, f);
    let zero = is_zero_float(a, f) || is_zero_float(b, f);
    if is_infinite(a, f) || is_infinite(b, f) {
        if zero {
            return default_nan(f);
        }
        return infinity(sign, f);
    }
    if zero {
        return pack_float(sign, 0u, vec2<u32>(0u), f);
    }
    let x = unpack(a, f);
    let y = unpack(b, f);
    // The 128-bit product of the significands, words w0..w3.
    let p00 = mul_wide(x.significand.x, y.significand.x);
    let p01 = mul_wide(x.significand.x, y.significand.y);
    let p10 = mul_wide(x.significand.y, y.significand.x);
    let p11 = mul_wide(x.significand.y, y.significand.y);
    let w1 = add64(add64(vec2<u32>(p00.y, 0u), vec2<u32>(p01.x, 0u)), vec2<u32>(p10.x, 0u));
    let w2 = add64(add64(add64(vec2<u32>(w1.y, 0u), vec2<u32>(p01.y, 0u)), vec2<u32>(p10.y, 0u)), vec2<u32>(p11.x, 0u));
    let w3 = p11.y + w2.y;
    // The product lies in [2^124, 2^126): keep bits 62..125, the rest as a sticky bit.
    let sticky = (w1.x & 0x3fffffffu) != 0u || p00.x != 0u;
    let significand = vec2<u32>((w1.x >> 30u) | (w2.x << 2u) | select(0u, 1u, sticky), (w2.x >> 30u) | (w3 << 2u));
    return round_pack(sign, x.exponent + y.exponent, significand, f);
}
