// Accessors of a binding of 1- or 2-byte elements, written: the binding is atomic<u32>
// words (see shaders/bindings/read_elements.wgsl for NAME and the markers).

// A whole word, read atomically (a scatter in place reads the rows it owns).
fn load_NAME_word(w: u32) -> u32 {
    var value: u32;
    // @at w
    value = atomicLoad(&NAME[AT]);
    // @end
    return value;
}

fn store_NAME_word(w: u32, value: u32) {
    // @at w
    atomicStore(&NAME[AT], value);
    // @end
}

// The bits under `mask` replaced atomically. Neighbouring elements share a word: replace only
// this element's bits, so concurrent stores to the same word never lose each other's bytes
// or tear. The bits are cleared and set by two atomics that need no load first (the clear
// returns nothing); bits found set by the second mean another store to the same elements
// (a duplicate target) came between the two, and a compare-exchange then writes them whole.
// So the last write to an element is a whole one: an atomicOr that found its bits clear (a
// later one finds them set, unless they are zero, and rewrites them whole), a
// compare-exchange, or a whole word stored by a thread that owns it: the element ends as one
// store's value, never a mix.
fn store_NAME_bits(w: u32, mask: u32, bits: u32) {
    // @at w
    atomicAnd(&NAME[AT], ~mask);
    var old = atomicOr(&NAME[AT], bits & mask);
    if (old & mask) != 0u {
        old |= bits & mask;
        loop {
            let swapped = atomicCompareExchangeWeak(&NAME[AT], old, (old & ~mask) | (bits & mask));
            if swapped.exchanged {
                break;
            }
            old = swapped.old_value;
        }
    }
    // @end
}

fn store_NAME(e: u32, value: u32) {
    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    store_NAME_bits(e / ELEMENTS_PER_WORD, ELEMENT_MASK << shift, value << shift);
}

// An element read back, as read_sub_words.wgsl reads one.
fn load_NAME(e: u32) -> u32 {
    return (load_NAME_word(e / ELEMENTS_PER_WORD) >> ((e % ELEMENTS_PER_WORD) * ELEMENT_BITS)) & ELEMENT_MASK;
}

fn owns_NAME(e: u32) -> bool {
    // @owns (e / ELEMENTS_PER_WORD)
    return true;
    // @end
}
