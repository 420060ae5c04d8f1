// requires: units
// Accessors of the output of the in-order reductions' folds that copy as they fold
// (`Kernel::ScatterReduce { copies: true }`: fold_slice_list_copy, fold_slice_list_copy_wide,
// fold_slice_columns_copy, fold_runs_copy), whose threads each own the words they store
// (see shaders/bindings/read_elements.wgsl for NAME and the markers): plain loads and
// stores, no atomics, so that a word is one store instruction. `load_NAME`, `store_NAME` and,
// for units narrower than a word, `store_NAME_word`. Only those entry points are dispatched
// with this binding: `store_NAME` of a unit narrower than a word rewrites its whole word.

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
    value = NAME[AT];
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
    NAME[AT] = (NAME[AT] & ~mask) | (value << shift);
    // @end
}

// A whole word of units, stored by the one thread that owns all of them.
fn store_NAME_word(w: u32, value: u32) {
    // @at w
    NAME[AT] = value;
    // @end
}
// @narrow-end

fn owns_NAME(e: u32) -> bool {
    // @double-word-begin
    // @owns e
    return true;
    // @end
    // @double-word-end
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
