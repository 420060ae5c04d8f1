// Accessors of a binding of raw u32 words, read only (index tensors of 4- or 8-byte
// integers; see shaders/bindings/read_elements.wgsl for NAME and the markers).

fn load_NAME_word(w: u32) -> u32 {
    var value: u32;
    // @at w
    value = NAME[AT];
    // @end
    return value;
}

// An 8-byte element's two words: pairs never straddle a window (windows are a power of two
// of at least 16 bytes), and in a window `2 * pair` is never formed.
fn load_NAME_pair(p: u32) -> vec2<u32> {
    var value: vec2<u32>;
    // @at-pair p
    value = vec2<u32>(NAME[AT], NAME[AT + 1u]);
    // @end
    return value;
}

fn owns_NAME(w: u32) -> bool {
    // @owns w
    return true;
    // @end
}

fn owns_NAME_pair(p: u32) -> bool {
    // @owns-pair p
    return true;
    // @end
}
