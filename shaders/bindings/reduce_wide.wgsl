// requires: units wide
// Accessors of a reduction's 8-byte output bound as 64-bit atomics (`WideWord`: i64 for
// signed integer Min and Max, else u64), where the device has them (see
// shaders/bindings/read_elements.wgsl for NAME and the markers): `reduce_NAME(element,
// update)`, the update a (low, high) word pair. Integer Add, Min and Max by WGSL's own
// atomics (Add needs SHADER_INT64_ATOMIC_ALL_OPS; Min and Max whose result is unused only
// SHADER_INT64_ATOMIC_MIN_MAX, so each module holds only its own operation); every other
// reduction (Float64, integer Mul) by a compare-exchange loop (SHADER_INT64_ATOMIC_ALL_OPS).

// @native-begin
// @add-begin
fn reduce_NAME(e: u32, value: vec2<u32>) {
    let wide = pair_wide(value);
    // @at e
    atomicAdd(&NAME[AT], wide);
    // @end
}
// @add-end

// @min-max-begin
fn reduce_NAME(e: u32, value: vec2<u32>) {
    let wide = pair_wide(value);
    // @at e
    if REDUCTION == MIN {
        atomicMin(&NAME[AT], wide);
    } else {
        atomicMax(&NAME[AT], wide);
    }
    // @end
}
// @min-max-end

// @native-end

// @exchange-begin
// Combined with whatever the word holds when the exchange succeeds: no update is lost to
// another thread's, and an unchanged element is not written at all.
fn reduce_NAME(e: u32, value: vec2<u32>) {
    // @at e
    var old = atomicLoad(&NAME[AT]);
    loop {
        let current = wide_pair(old);
        let combined = combine_unit(current, value);
        if all(combined == current) {
            break;
        }
        let swapped = atomicCompareExchangeWeak(&NAME[AT], old, pair_wide(combined));
        if swapped.exchanged {
            break;
        }
        old = swapped.old_value;
    }
    // @end
}
// @exchange-end

// @combines-rows-begin
// Loads and stores of whole units (SHADER_INT64_ATOMIC_ALL_OPS, which the combining passes'
// kernel, ReduceOrder::RowsWide, is only chosen with), for the functions of the in-order files
// its module holds (shaders/scatter_slices.wgsl) but its passes never call.
fn load_NAME(e: u32) -> Unit {
    var value: Unit;
    // @at e
    value = wide_pair(atomicLoad(&NAME[AT]));
    // @end
    return value;
}

fn store_NAME(e: u32, value: Unit) {
    // @at e
    atomicStore(&NAME[AT], pair_wide(value));
    // @end
}
// @combines-rows-end

fn owns_NAME(e: u32) -> bool {
    // @owns e
    return true;
    // @end
}
