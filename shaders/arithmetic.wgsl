// Scatter reductions: `combine(current, update)`, the kernel's REDUCTION on numbers of
// NUMBER_KIND and NUMBER_BITS held in the low bits of a (low, high) word pair. The header
// defines REDUCTION, NUMBER_KIND, NUMBER_BITS, NUMBER_MASK and NUMBER_SHIFT.
//
// Integer arithmetic on bit patterns, so every adapter gives the same bits: WGSL lets float
// operations flush subnormals and assume no NaN or infinity, and has no f64 at all. Floats
// are IEEE with round to nearest even, emulated on u32 words: Float64 as binary64 on word
// pairs, Float32 as binary32 on one word, and Float16 widened exactly to binary32, computed
// there and rounded again to binary16, as the semantics ask (each step in f32). The one
// exception, binary32_step: an f32 `+` or `*` of normal numbers with a normal result, which
// WGSL's correctly rounded f32 gives exactly as IEEE does.

const ADD: u32 = 1u;
const MUL: u32 = 2u;
const MIN: u32 = 3u;
const MAX: u32 = 4u;

const UNSIGNED: u32 = 0u;
const SIGNED: u32 = 1u;
const FLOAT: u32 = 2u;

// ---- 64-bit integers as vec2<u32>(low, high) ----

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = a.x + b.x;
    return vec2<u32>(low, a.y + b.y + select(0u, 1u, low < a.x));
}

fn sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn less64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn is_zero64(a: vec2<u32>) -> bool {
    return (a.x | a.y) == 0u;
}

// Shifts by any amount (WGSL takes a u32 shift modulo 32, so each case is spelt out).
fn shl64(a: vec2<u32>, n: u32) -> vec2<u32> {
    if n == 0u {
        return a;
    }
    if n >= 64u {
        return vec2<u32>(0u);
    }
    if n >= 32u {
        return vec2<u32>(0u, a.x << (n - 32u));
    }
    return vec2<u32>(a.x << n, (a.y << n) | (a.x >> (32u - n)));
}

fn shr64(a: vec2<u32>, n: u32) -> vec2<u32> {
    if n == 0u {
        return a;
    }
    if n >= 64u {
        return vec2<u32>(0u);
    }
    if n >= 32u {
        return vec2<u32>(a.y >> (n - 32u), 0u);
    }
    return vec2<u32>((a.x >> n) | (a.y << (32u - n)), a.y >> n);
}

// a >> n with every bit shifted out ORed into bit 0, so rounding still sees them.
fn shr64_sticky(a: vec2<u32>, n: u32) -> vec2<u32> {
    let kept = shr64(a, n);
    let lost = !is_zero64(sub64(a, shl64(kept, n)));
    return vec2<u32>(kept.x | select(0u, 1u, lost), kept.y);
}

fn leading_zeros64(a: vec2<u32>) -> u32 {
    if a.y != 0u {
        return countLeadingZeros(a.y);
    }
    return 32u + countLeadingZeros(a.x);
}

// The whole 64-bit product of two u32s, from 16-bit halves.
fn mul_wide(x: u32, y: u32) -> vec2<u32> {
    let xl = x & 0xffffu;
    let xh = x >> 16u;
    let yl = y & 0xffffu;
    let yh = y >> 16u;
    let ll = xl * yl;
    let lh = xl * yh;
    let hl = xh * yl;
    let middle = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    return vec2<u32>((ll & 0xffffu) | (middle << 16u), xh * yh + (lh >> 16u) + (hl >> 16u) + (middle >> 16u));
}

// a * b modulo 2^64.
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = mul_wide(a.x, b.x);
    return vec2<u32>(low.x, low.y + a.x * b.y + a.y * b.x);
}

// ---- integers ----

// The NUMBER_BITS-bit value sign- or zero-extended to 64 bits.
fn extend(v: vec2<u32>) -> vec2<u32> {
    if NUMBER_BITS == 64u {
        return v;
    }
    if NUMBER_KIND == SIGNED {
        let low = bitcast<u32>(bitcast<i32>(v.x << NUMBER_SHIFT) >> NUMBER_SHIFT);
        return vec2<u32>(low, select(0u, 0xffffffffu, (low & 0x80000000u) != 0u));
    }
    return vec2<u32>(v.x & NUMBER_MASK, 0u);
}

// The low NUMBER_BITS bits (wrap-around).
fn narrow_integer(v: vec2<u32>) -> vec2<u32> {
    if NUMBER_BITS == 64u {
        return v;
    }
    return vec2<u32>(v.x & NUMBER_MASK, 0u);
}

// a < b, both extended, as the kernel's signed or unsigned type.
fn integer_less(a: vec2<u32>, b: vec2<u32>) -> bool {
    if NUMBER_KIND == SIGNED {
        return less64(vec2<u32>(a.x, a.y ^ 0x80000000u), vec2<u32>(b.x, b.y ^ 0x80000000u));
    }
    return less64(a, b);
}

fn combine_integers(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
    let a = extend(current);
    let b = extend(update);
    switch REDUCTION {
        case ADD: {
            return narrow_integer(add64(a, b));
        }
        case MUL: {
            return narrow_integer(mul64(a, b));
        }
        case MIN: {
            return select(current, update, integer_less(b, a));
        }
        default: {
            return select(current, update, integer_less(a, b));
        }
    }
}

// ---- IEEE binary floats on bit patterns ----

struct Format {
    fraction_bits: u32,
    exponent_bits: u32,
    bias: i32,
}

const BINARY16: Format = Format(10u, 5u, 15);
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

// ---- Float16 and Float32 on one u32: binary32 arithmetic ----
// The same scheme as binary64 above on a single word (a quarter of the instructions): a
// finite nonzero value is significand * 2^(exponent - 30), the leading one at bit 30, with 7
// bits below binary32's 24 for rounding.

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

// a + b in binary32, NaN operands already handled.
fn add_binary32(a: u32, b: u32) -> u32 {
    let f = BINARY32;
    if narrow_is_infinite(a, f) {
        if narrow_is_infinite(b, f) && a != b {
            return 0x7fc00000u;
        }
        return a;
    }
    if narrow_is_infinite(b, f) {
        return b;
    }
    if narrow_is_zero(a, f) {
        if narrow_is_zero(b, f) {
            return a & b;
        }
        return b;
    }
    if narrow_is_zero(b, f) {
        return a;
    }
    var x = unpack_narrow(a, f);
    var y = unpack_narrow(b, f);
    if x.exponent < y.exponent || (x.exponent == y.exponent && x.significand < y.significand) {
        let swap = x;
        x = y;
        y = swap;
    }
    let aligned = shr32_sticky(y.significand, u32(x.exponent - y.exponent));
    if x.sign == y.sign {
        return round_pack_narrow(x.sign, x.exponent, x.significand + aligned, f);
    }
    let difference = x.significand - aligned;
    if difference == 0u {
        return 0u;
    }
    return round_pack_narrow(x.sign, x.exponent, difference, f);
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

// a < b as IEEE numbers (neither NaN): -0 and +0 are equal.
fn float_less(a: vec2<u32>, b: vec2<u32>, f: Format) -> bool {
    if is_zero_float(a, f) && is_zero_float(b, f) {
        return false;
    }
    let sa = sign_field(a, f);
    let sb = sign_field(b, f);
    if sa != sb {
        return sa == 1u;
    }
    // Same sign: magnitudes order as their bits do.
    if sa == 0u {
        return less64(a, b);
    }
    return less64(b, a);
}

fn number_format() -> Format {
    switch NUMBER_BITS {
        case 16u: {
            return BINARY16;
        }
        case 32u: {
            return BINARY32;
        }
        default: {
            return BINARY64;
        }
    }
}

fn combine_floats(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
    let f = number_format();
    let current_nan = is_nan(current, f);
    let update_nan = is_nan(update, f);
    if REDUCTION == MIN || REDUCTION == MAX {
        // NaN propagates: a NaN current value stays, a NaN update replaces a number.
        if current_nan {
            return current;
        }
        if update_nan {
            return update;
        }
        if REDUCTION == MIN {
            return select(current, update, float_less(update, current, f));
        }
        return select(current, update, float_less(current, update, f));
    }
    if current_nan {
        return quieted(current, f);
    }
    if update_nan {
        return quieted(update, f);
    }
    if NUMBER_BITS == 64u {
        if REDUCTION == ADD {
            return add_binary64(current, update);
        }
        return mul_binary64(current, update);
    }
    if NUMBER_BITS == 32u {
        return vec2<u32>(binary32_step(current.x, update.x), 0u);
    }
    // Float16 widens exactly to binary32; the binary32 result is rounded again to binary16,
    // as each step is computed in f32.
    let a = widen_half(current.x);
    let b = widen_half(update.x);
    return vec2<u32>(narrow_single(binary32_step(a, b)), 0u);
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
    if REDUCTION == ADD {
        return add_binary32(a, b);
    }
    return mul_binary32(a, b);
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

fn combine(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
    if NUMBER_KIND == FLOAT {
        return combine_floats(current, update);
    }
    return combine_integers(current, update);
}
