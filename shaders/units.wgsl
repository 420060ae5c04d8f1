// requires: arithmetic
// The scatter reductions' values of the kernel's unit: `combine_unit` (the reduction on one
// unit, shaders/arithmetic.wgsl's `combine`), and the unit as a (low, high) word pair and as
// its low word, where 8-byte units travel as pairs.

// @double-word-begin
fn combine_unit(current: vec2<u32>, update: vec2<u32>) -> vec2<u32> {
    return combine(current, update);
}

fn unit_pair(v: Unit) -> vec2<u32> {
    return v;
}

fn pair_unit(p: vec2<u32>) -> Unit {
    return p;
}
// @double-word-end

// @narrow-begin
fn combine_unit(current: u32, update: u32) -> u32 {
    return combine(vec2<u32>(current, 0u), vec2<u32>(update, 0u)).x;
}

fn unit_pair(v: Unit) -> vec2<u32> {
    return vec2<u32>(v, 0u);
}

fn pair_unit(p: vec2<u32>) -> Unit {
    return p.x;
}
// @narrow-end

fn unit_word(v: Unit) -> u32 {
    return unit_pair(v).x;
}

fn word_unit(w: u32) -> Unit {
    return pair_unit(vec2<u32>(w, 0u));
}

// @narrow-begin
// Values combined in workgroup memory (the any-order pass's slots, the bins) are ReduceWords:
// with WGSL's own atomics, signed Min and Max compare them as i32, so narrower values are
// held sign-extended there (`widened`), and `narrowed` gives the unit's bits back.
fn widened(value: u32) -> ReduceWord {
    if SIGN_EXTENDED {
        return bitcast<ReduceWord>(bitcast<i32>(value << NUMBER_SHIFT) >> NUMBER_SHIFT);
    }
    return bitcast<ReduceWord>(value);
}

fn narrowed(word: ReduceWord) -> u32 {
    return bitcast<u32>(word) & NUMBER_MASK;
}

// @narrow-end

// @ties-begin
// Float Min and Max in order: equal numbers have equal bits but for two tie classes, zeros
// (+0.0, -0.0) and NaNs (any payload), and in order the first value of the winning class
// wins (ReduceOrder::FirstTie's passes, shaders/scatter_reduce.wgsl; ReduceOrder::ListTies's
// claims, shaders/scatter_lists.wgsl).
const NO_TIE: u32 = 0u;
const ZERO_TIE: u32 = 1u;
const NAN_TIE: u32 = 2u;

fn tie_class(bits: u32) -> u32 {
    let f = number_format();
    if narrow_is_nan(bits, f) {
        return NAN_TIE;
    }
    if narrow_is_zero(bits, f) {
        return ZERO_TIE;
    }
    return NO_TIE;
}

// Whether `bits` is a zero or a NaN (of a tie class), in one test: its magnitude less one,
// wrapping, is at least the infinity's.
fn is_tie(bits: u32) -> bool {
    let f = number_format();
    let magnitude_mask = (1u << (f.fraction_bits + f.exponent_bits)) - 1u;
    let infinity = ((1u << f.exponent_bits) - 1u) << f.fraction_bits;
    return (bits & magnitude_mask) - 1u >= infinity;
}

// The rank of position i of a class in heads (atomicMax): NaNs above zeros, then earlier
// positions above later ones (the host keeps i below 2^31 - 1, so a rank is never 0).
fn tie_rank(kind: u32, i: u32) -> u32 {
    return select(0u, 0x80000000u, kind == NAN_TIE) | (0x7fffffffu - i);
}

// params.bins.claims where scatter_reduce and scatter_reduce_bins claim as they place updates.
const CLAIMS_AS_PLACED: u32 = 1u;

// Update unit i, placed in range at output unit `unit` with `value`: its claim, where the
// pass claims as it places (`claims`: params.bins.claims, ReduceOrder::FirstTie's
// scatter_reduce and scatter_reduce_bins) and it is a zero or a NaN (a load first: most later
// claims of a unit lose).
fn claim_placed_tie(claims: u32, i: u32, unit: u32, value: u32) {
    if claims != CLAIMS_AS_PLACED || !is_tie(value) {
        return;
    }
    let rank = tie_rank(tie_class(value), i + 1u);
    if atomic_load_heads(unit) < rank {
        atomic_max_heads(unit, rank);
    }
}
// @ties-end
