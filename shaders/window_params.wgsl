// Which windows of each tensor a dispatch binds and owns, where tensors are bound a few
// windows at a time (a partial windowing): per role (src/kernels/bindings.rs, Role::index),
// four to a vec4. Mirrors WindowParams in src/kernels/params.rs (a test compares the two through naga).
struct WindowParams {
    first: array<vec4<u32>, 2>,
    own_begin: array<vec4<u32>, 2>,
    own_end: array<vec4<u32>, 2>,
}
