// requires: integers binary64 binary32
// Scatter reductions: `combine(current, update)`, the kernel's REDUCTION on numbers of
// NUMBER_KIND and NUMBER_BITS held in the low bits of a (low, high) word pair. The header
// defines REDUCTION, NUMBER_KIND, NUMBER_BITS, NUMBER_MASK and NUMBER_SHIFT.
//
// Integer arithmetic on bit patterns, so every adapter gives the same bits: WGSL lets float
// operations flush subnormals and assume no NaN or infinity, and has no f64 (wgpu's
// SHADER_F64 adds it on some devices). Floats are IEEE with round to nearest even, emulated
// on u32 words: Float64 as binary64 on word pairs, Float32 as binary32 on one word, and
// Float16 and BFloat16 (NUMBER_KIND BFLOAT) widened exactly to binary32, computed there and
// rounded again to 16 bits, as the semantics ask (each step in f32). The exceptions,
// binary32_step and binary64_step (where the device has f64): a `+` or `*` of normal
// numbers with a normal result, which a correctly rounded f32 or f64 gives exactly as IEEE
// does. Both trust the device to give infinity on overflow (naga marks no operation as
// assuming finite values); subnormals, zeros, infinities and NaNs never reach it.
//
// Here: `combine` and the float reductions; the numbers' arithmetic by kind in
// shaders/integers.wgsl, binary64.wgsl (the IEEE formats, Float64) and binary32.wgsl
// (Float32, Float16, BFloat16).

// NaN tests and order in the kernel's format (Min and Max): on one word where its numbers
// fit in one (a quarter of the instructions, and of what a driver compiles: the module keeps
// one of each pair of sections).

// a < b as IEEE numbers (neither NaN): -0 and +0 are equal.
fn float_less(a: vec2<u32>, b: vec2<u32>, f: Format) -> bool {
// @double-word-begin
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
// @double-word-end
// @narrow-begin
    if narrow_is_zero(a.x, f) && narrow_is_zero(b.x, f) {
        return false;
    }
    let sa = narrow_sign(a.x, f);
    let sb = narrow_sign(b.x, f);
    if sa != sb {
        return sa == 1u;
    }
    // Same sign: magnitudes order as their bits do.
    if sa == 0u {
        return a.x < b.x;
    }
    return b.x < a.x;
// @narrow-end
}

fn float_is_nan(bits: vec2<u32>, f: Format) -> bool {
// @double-word-begin
    return is_nan(bits, f);
// @double-word-end
// @narrow-begin
    return narrow_is_nan(bits.x, f);
// @narrow-end
}


fn number_format() -> Format {
    if NUMBER_KIND == BFLOAT {
        return BFLOAT16;
    }
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
// @min-max-begin
    let current_nan = float_is_nan(current, f);
    let update_nan = float_is_nan(update, f);
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
// @min-max-end
// @add-mul-begin
    // Both tests on word pairs, both before either branch: written otherwise, an H100's
    // Float32 Add of rows ran 4 % slower (its driver compiled the exchange loop otherwise).
    let current_nan = is_nan(current, f);
    let update_nan = is_nan(update, f);
    if current_nan {
        return quieted(current, f);
    }
    if update_nan {
        return quieted(update, f);
    }
    return combine_numbers(current, update);
// @add-mul-end
}

// Add or Mul of two numbers, neither NaN.
fn combine_numbers(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
// @double-word-begin
    return binary64_step(current, update);
// @double-word-end
// @word-begin
    return vec2<u32>(binary32_step(current.x, update.x), 0u);
// @word-end
// @sub-word-begin
    // Float16 and BFloat16 widen exactly to binary32; the binary32 result is rounded again to
    // 16 bits, as each step is computed in f32.
    if NUMBER_KIND == BFLOAT {
        return vec2<u32>(narrow_bfloat(binary32_step(widen_bfloat(current.x), widen_bfloat(update.x))), 0u);
    }
    let a = widen_half(current.x);
    let b = widen_half(update.x);
    return vec2<u32>(narrow_single(binary32_step(a, b)), 0u);
// @sub-word-end
}

// current op update (REDUCTION Add or Mul) in binary64, NaN operands already handled. Where
// the device has f64 (SHADER_F64, with SHADER_INT64 for the bit casts: the hardware-float64
// section), as binary32_step does for f32: normal operands with a normal result not at the
// bottom of the range, where a driver may flush subnormals, take the device's correctly
// rounded `+` or `*`, IEEE's bits; everything else the integer path.
fn binary64_step(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
// @hardware-float64-begin
    if binary64_normal_from(a, 1u) && binary64_normal_from(b, 1u) {
        var fast: f64;
        if REDUCTION == ADD {
            fast = as_f64(a) + as_f64(b);
        } else {
            fast = as_f64(a) * as_f64(b);
        }
        let bits = f64_pair(fast);
        if binary64_normal_from(bits, 2u) {
            return bits;
        }
    }
// @hardware-float64-end
// @add-begin
    return add_binary64(a, b);
// @add-end
// @not-add-begin
    return mul_binary64(a, b);
// @not-add-end
}

// @hardware-float64-begin
// Exponent field in [lowest, 2046]: a normal number no smaller than 2^(lowest - 1023).
fn binary64_normal_from(bits: vec2<u32>, lowest: u32) -> bool {
    return ((bits.y >> 20u) & 0x7ffu) - lowest < 0x7ffu - lowest;
}

fn as_f64(bits: vec2<u32>) -> f64 {
    return bitcast<f64>((u64(bits.y) << 32u) | u64(bits.x));
}

fn f64_pair(x: f64) -> vec2<u32> {
    let wide = bitcast<u64>(x);
    return vec2<u32>(u32(wide), u32(wide >> 32u));
}
// @hardware-float64-end

// The module keeps one kind of number's arithmetic (its sections): a driver compiles all
// the code an entry point reaches, and WGSL's constant conditions do not remove any (a
// Float32 Add kernel that also reached the Float64 and integer code took an H100's driver
// four times as long to build).
fn combine(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
// @float-begin
    return combine_floats(current, update);
// @float-end
// @integer-begin
    return combine_integers(current, update);
// @integer-end
}
