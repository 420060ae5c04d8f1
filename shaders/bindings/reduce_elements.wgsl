// requires: units
// Accessors of the scatter reductions' output (see shaders/bindings/read_elements.wgsl for
// NAME and the markers): `load_NAME`, `store_NAME`, and for units of at most 4 bytes
// `reduce_NAME(element, update)`. 8-byte units are stored by one thread each (the in-order
// passes); narrower ones are atomic<u32> words every access goes through atomically, the
// element's bits in its word (all of it for 4-byte units), the words `ReduceWord` (i32 where
// signed Min and Max take WGSL's own atomics, else u32).

// @double-word-begin
fn load_NAME(e: u32) -> Unit {
    var value: Unit;
    // @at e
    value = NAME[AT];
    // @end
    return value;
}

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
// @double-word-end

// @narrow-begin
fn load_NAME(e: u32) -> u32 {
    // @word-begin
    let word = e;
    let shift = 0u;
    let mask = 0xffffffffu;
    // @word-end
    // @sub-word-begin
    let word = e / ELEMENTS_PER_WORD;
    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    let mask = ELEMENT_MASK << shift;
    // @sub-word-end
    var value: u32;
    // @at word
    value = bitcast<u32>(atomicLoad(&NAME[AT]));
    // @end
    return (value & mask) >> shift;
}

fn store_NAME(e: u32, value: u32) {
    // @word-begin
    let word = e;
    let shift = 0u;
    let mask = 0xffffffffu;
    // @word-end
    // @sub-word-begin
    let word = e / ELEMENTS_PER_WORD;
    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    let mask = ELEMENT_MASK << shift;
    // @sub-word-end
    // @at word
    var old = bitcast<u32>(atomicLoad(&NAME[AT]));
    loop {
        let swapped = atomicCompareExchangeWeak(&NAME[AT], bitcast<ReduceWord>(old), bitcast<ReduceWord>((old & ~mask) | (value << shift)));
        if swapped.exchanged {
            break;
        }
        old = bitcast<u32>(swapped.old_value);
    }
    // @end
}

// Unit e's word, the shift of its bits there and their mask.
fn word_place_NAME(e: u32) -> vec3<u32> {
    // @word-begin
    return vec3<u32>(e, 0u, 0xffffffffu);
    // @word-end
    // @sub-word-begin
    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    return vec3<u32>(e / ELEMENTS_PER_WORD, shift, ELEMENT_MASK << shift);
    // @sub-word-end
}

// A whole word of units, stored by the one thread that owns all of them.
fn store_NAME_word(w: u32, value: u32) {
    // @at w
    atomicStore(&NAME[AT], bitcast<ReduceWord>(value));
    // @end
}

fn owns_NAME(e: u32) -> bool {
    // @word-begin
    // @owns (e)
    return true;
    // @end
    // @word-end
    // @sub-word-begin
    // @owns (e / ELEMENTS_PER_WORD)
    return true;
    // @end
    // @sub-word-end
}
// @narrow-end

// @native-output-begin
// Integer Add, Min and Max of 4-byte words: WGSL's own atomics (wrap-around Add; signed
// Min and Max on i32 words).
fn reduce_NAME(e: u32, value: u32) {
    let word = bitcast<ReduceWord>(value);
    // @at e
    if REDUCTION == ADD {
        atomicAdd(&NAME[AT], word);
    } else if REDUCTION == MIN {
        atomicMin(&NAME[AT], word);
    } else {
        atomicMax(&NAME[AT], word);
    }
    // @end
}
// @native-output-end

// @exchange-output-begin
// Word w of the output, and its compare-exchange from `old` to `replacement`: (1 if it took, the
// word it held), for scatter_reduce's one exchange loop over slots and output.
fn load_NAME_word(w: u32) -> u32 {
    var value: u32;
    // @at w
    value = bitcast<u32>(atomicLoad(&NAME[AT]));
    // @end
    return value;
}

// Word w = max(word, value) as ReduceWord (Float32 Min and Max's sign atomics, scatter_reduce).
fn max_NAME_word(w: u32, value: u32) {
    // @at w
    atomicMax(&NAME[AT], bitcast<ReduceWord>(value));
    // @end
}

fn exchange_NAME_word(w: u32, old: u32, replacement: u32) -> vec2<u32> {
    var swapped: vec2<u32>;
    // @at w
    let exchange = atomicCompareExchangeWeak(&NAME[AT], bitcast<ReduceWord>(old), bitcast<ReduceWord>(replacement));
    swapped = vec2<u32>(select(0u, 1u, exchange.exchanged), bitcast<u32>(exchange.old_value));
    // @end
    return swapped;
}

// Combined with whatever the word holds when the exchange succeeds: no update is lost to
// another thread's, and an unchanged element is not written at all.
fn reduce_NAME(e: u32, value: u32) {
    // @word-begin
    let word = e;
    let shift = 0u;
    let mask = 0xffffffffu;
    // @word-end
    // @sub-word-begin
    let word = e / ELEMENTS_PER_WORD;
    let shift = (e % ELEMENTS_PER_WORD) * ELEMENT_BITS;
    let mask = ELEMENT_MASK << shift;
    // @sub-word-end
    // @at word
    var old = bitcast<u32>(atomicLoad(&NAME[AT]));
    loop {
        let current = (old & mask) >> shift;
        let combined = combine_unit(current, value);
        if combined == current {
            break;
        }
        let swapped = atomicCompareExchangeWeak(&NAME[AT], bitcast<ReduceWord>(old), bitcast<ReduceWord>((old & ~mask) | (combined << shift)));
        if swapped.exchanged {
            break;
        }
        old = bitcast<u32>(swapped.old_value);
    }
    // @end
}
// @exchange-output-end
