// Accessors of a binding of f32 elements added by the device's float atomics (wgpu's
// SHADER_FLOAT32_ATOMIC): the binding is atomic<f32> (see shaders/bindings/read_elements.wgsl
// for NAME and the markers).

// The element's bits, read atomically.
fn load_NAME_bits(e: u32) -> u32 {
    var value: f32;
    // @at e
    value = atomicLoad(&NAME[AT]);
    // @end
    return bitcast<u32>(value);
}

// The element's bits stored whole (an f32 store of bits moves them unchanged: no arithmetic).
fn store_NAME_bits(e: u32, bits: u32) {
    // @at e
    atomicStore(&NAME[AT], bitcast<f32>(bits));
    // @end
}

fn add_NAME(e: u32, value: f32) {
    // @at e
    atomicAdd(&NAME[AT], value);
    // @end
}

fn owns_NAME(e: u32) -> bool {
    // @owns e
    return true;
    // @end
}
