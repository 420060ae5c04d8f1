// requires: integers
// Accessors of a reduction's output of 8-byte integers bound as 64-bit atomics (`WideWord`:
// i64 for signed Min and Max, else u64), where the device has them (see
// shaders/bindings/read_elements.wgsl for NAME and the markers): `reduce_NAME(element,
// update)`, the update a (low, high) word pair. Add needs SHADER_INT64_ATOMIC_ALL_OPS; Min
// and Max whose result is unused only SHADER_INT64_ATOMIC_MIN_MAX, so each module holds only
// its own operation.

// @add-begin
fn reduce_NAME(e: u32, value: vec2<u32>) {
    let wide = bitcast<WideWord>(u64(value.x) | (u64(value.y) << 32u));
    // @at e
    atomicAdd(&NAME[AT], wide);
    // @end
}
// @add-end

// @min-max-begin
fn reduce_NAME(e: u32, value: vec2<u32>) {
    let wide = bitcast<WideWord>(u64(value.x) | (u64(value.y) << 32u));
    // @at e
    if REDUCTION == MIN {
        atomicMin(&NAME[AT], wide);
    } else {
        atomicMax(&NAME[AT], wide);
    }
    // @end
}
// @min-max-end

fn owns_NAME(e: u32) -> bool {
    // @owns e
    return true;
    // @end
}
