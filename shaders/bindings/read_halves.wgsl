// A tensor's 2-byte elements as f16, read: a second binding of the updates
// (`updates_halves`), the source of write_halves.wgsl's 16-bit stores. The prelude declares
// the array; no accessors.
