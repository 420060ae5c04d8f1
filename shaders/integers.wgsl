// Integer arithmetic for the scatter reductions (shaders/arithmetic.wgsl): 64-bit integers
// as (low, high) word pairs, and `combine_integers`. The reductions' and number kinds'
// names, which the header's REDUCTION and NUMBER_KIND take.

const ADD: u32 = 1u;
const MUL: u32 = 2u;
const MIN: u32 = 3u;
const MAX: u32 = 4u;

const UNSIGNED: u32 = 0u;
const SIGNED: u32 = 1u;
// IEEE binary formats of NUMBER_BITS: binary16, binary32, binary64.
const FLOAT: u32 = 2u;
// bfloat16 (NUMBER_BITS 16): binary32's upper half.
const BFLOAT: u32 = 3u;

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
