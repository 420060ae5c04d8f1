// Accessors of a binding of 1- or 2-byte elements, read only: ELEMENTS_PER_WORD of them in
// each u32 word (see shaders/bindings/read_elements.wgsl for NAME and the markers).

fn load_NAME_word(w: u32) -> u32 {
    var value: u32;
    // @at w
    value = NAME[AT];
    // @end
    return value;
}

fn load_NAME(e: u32) -> u32 {
    return (load_NAME_word(e / ELEMENTS_PER_WORD) >> ((e % ELEMENTS_PER_WORD) * ELEMENT_BITS)) & ELEMENT_MASK;
}

fn owns_NAME(e: u32) -> bool {
    // @owns (e / ELEMENTS_PER_WORD)
    return true;
    // @end
}
