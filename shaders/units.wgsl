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
