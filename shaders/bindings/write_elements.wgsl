// Accessors of a binding of elements written whole (units of 4, 8 or 16 bytes; see
// shaders/bindings/read_elements.wgsl for NAME and the markers).

fn store_NAME(e: u32, value: Unit) {
    // @at e
    NAME[AT] = value;
    // @end
}

fn owns_NAME(e: u32) -> bool {
    // @owns e
    return true;
    // @end
}
