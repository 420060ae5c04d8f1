// Accessors of a binding of elements read whole (units of 4, 8 or 16 bytes). A template the
// registry instantiates per binding (src/kernels/source.rs): NAME is the binding's name, and
// each `// @at` block, the one statement that touches the array (NAME[AT]), is expanded to
// the one array or to a switch over the windows bound, so the kernels never see windows.
// `owns_NAME`: whether this dispatch handles the element (always, unless the windowing is
// partial: the `// @owns` block is then the window check).

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
