// Accessors of a binding of elements written whole (units of 4, 8 or 16 bytes; see
// shaders/bindings/read_elements.wgsl for NAME and the markers).

fn store_NAME(e: u32, value: Unit) {
    // @at e
    NAME[AT] = value;
    // @end
}

// A unit read back (a copy's merged last word keeps the bytes past its tensor).
fn load_NAME(e: u32) -> Unit {
    var value: Unit;
    // @at e
    value = NAME[AT];
    // @end
    return value;
}

fn owns_NAME(e: u32) -> bool {
    // @owns e
    return true;
    // @end
}
