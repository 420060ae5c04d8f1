// Accessors of a binding of atomic<u32> words (status reports, in-order claims, reduction
// lists; see shaders/bindings/read_elements.wgsl for NAME and the markers).

fn atomic_max_NAME(w: u32, value: u32) {
    // @at w
    atomicMax(&NAME[AT], value);
    // @end
}

fn atomic_store_NAME(w: u32, value: u32) {
    // @at w
    atomicStore(&NAME[AT], value);
    // @end
}

fn atomic_load_NAME(w: u32) -> u32 {
    var value: u32;
    // @at w
    value = atomicLoad(&NAME[AT]);
    // @end
    return value;
}

fn atomic_exchange_NAME(w: u32, value: u32) -> u32 {
    var old: u32;
    // @at w
    old = atomicExchange(&NAME[AT], value);
    // @end
    return old;
}

fn atomic_add_NAME(w: u32, value: u32) -> u32 {
    var old: u32;
    // @at w
    old = atomicAdd(&NAME[AT], value);
    // @end
    return old;
}

// Zeroes this thread's words of the first `count`: CLEAR_WORDS of them a workgroup's width
// apart, from workgroup `group` (the scratch's clear entries, clear_heads and clear_winners).
fn zero_NAME(group: u32, local: u32, count: u32) {
    for (var k = 0u; k < CLEAR_WORDS; k += 1u) {
        let w = (group * CLEAR_WORDS + k) * WORKGROUP_SIZE + local;
        if w < count && owns_NAME(w) {
            atomic_store_NAME(w, 0u);
        }
    }
}

fn owns_NAME(w: u32) -> bool {
    // @owns w
    return true;
    // @end
}

// Whether this dispatch binds the first slab of every split tensor: always, unless tensors
// are bound a slab at a time (a partial windowing), where a step's first dispatch does.
fn first_slabs_NAME() -> bool {
    // @first-slabs all
    return true;
    // @end
}
