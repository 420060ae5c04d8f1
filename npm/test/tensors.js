// Helpers of the npm package's conformance cases (operators.js and the files it gathers).

/** A tensor desc: `{ dataType, sizes }` plus any of `strides`, `totalTensorSizeInBytes`. */
export const t = (dataType, sizes, more = {}) => ({ dataType, sizes, ...more });

// The DirectML slice pages' input: {1,1,4,4} of 1..16.
export const seed16 = () => new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
