// 8-byte units as 64-bit words (`WideWord`, declared only by the modules of kernels that
// bind 64-bit atomics: shaders/bindings/reduce_wide.wgsl, scatter_reduce_wide), and as the
// (low, high) word pairs every other kernel holds them in.

// @double-word-begin
fn wide_pair(word: WideWord) -> vec2<u32> {
    let bits = bitcast<u64>(word);
    return vec2<u32>(u32(bits), u32(bits >> 32u));
}

fn pair_wide(pair: vec2<u32>) -> WideWord {
    return bitcast<WideWord>(u64(pair.x) | (u64(pair.y) << 32u));
}
// @double-word-end
