// A tensor's 2-byte elements as f16, written: a second binding of the output
// (`output_halves`, Windowing::half_stores, where the device has wgpu's SHADER_F16), through
// which an element is stored by one 16-bit store, not by atomics on the word it
// shares with a neighbour. The elements are moved, never computed with, so their bits (NaNs
// and subnormals included) arrive unchanged. The prelude declares the array; no accessors.
