// Conformance cases of the npm package (see operators.js for the rules every case follows):
// scatters whose duplicates apply in order, reductions, and TensorScatter.

import { t } from './tensors.js';

export const scatterCases = [
  // ---------------------------------------------------------------------------------------
  // Duplicates in order.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Duplicates inOrder on int8 (1-byte elements): the last in row-major order wins',
    desc: {
      type: 'scatterElements',
      input: t('int8', [8]),
      indices: t('int32', [6]),
      updates: t('int8', [6]),
      output: t('int8', [8]),
      axis: 0,
      duplicates: 'inOrder',
    },
    inputs: [
      new Int8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      new Int32Array([0, 7, 0, -1, 3, 0]),
      // 6 int8 = 6 bytes; the tensor spans 8: two padding elements
      new Int8Array([-1, -2, -3, -4, -5, -6, 0, 0]),
    ],
    // out[0] <- -1, -3, -6 (last: -6); out[7] <- -2, then -1 = 7 <- -4 (last: -4); out[3] <- -5
    expected: new Int8Array([-6, 2, 3, -5, 5, 6, 7, -4]),
  },
  {
    name: 'Duplicates inOrder on ScatterND rows (int32)',
    desc: {
      type: 'scatterNd',
      input: t('int32', [3, 2]),
      indices: t('uint32', [3, 1]),
      updates: t('int32', [3, 2]),
      output: t('int32', [3, 2]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
      duplicates: 'inOrder',
    },
    inputs: [
      new Int32Array([1, 2, 3, 4, 5, 6]),
      new Uint32Array([1, 0, 1]),
      new Int32Array([10, 11, 20, 21, 30, 31]),
    ],
    // row 1 <- [10,11] then [30,31] (last wins); row 0 <- [20,21]; row 2 kept
    expected: new Int32Array([20, 21, 30, 31, 5, 6]),
  },

  // ---------------------------------------------------------------------------------------
  // Reductions.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Reduction add, int32',
    desc: {
      type: 'scatterElements',
      input: t('int32', [4]),
      indices: t('int32', [5]),
      updates: t('int32', [5]),
      output: t('int32', [4]),
      axis: 0,
      reduction: 'add',
    },
    inputs: [
      new Int32Array([10, 20, 30, 40]),
      new Int32Array([0, 2, 0, -1, 2]),
      new Int32Array([1, 2, 3, 4, -50]),
    ],
    // out[0] = 10 + 1 + 3 = 14; out[2] = 30 + 2 - 50 = -18; out[3] = 40 + 4 = 44; out[1] kept
    expected: new Int32Array([14, 20, -18, 44]),
  },
  {
    name: 'Reduction mul, int32 (wraps modulo 2^32)',
    desc: {
      type: 'scatterElements',
      input: t('int32', [3]),
      indices: t('uint32', [4]),
      updates: t('int32', [4]),
      output: t('int32', [3]),
      axis: 0,
      reduction: 'mul',
    },
    inputs: [
      new Int32Array([3, -2, 65536]),
      new Uint32Array([0, 1, 2, 2]),
      new Int32Array([5, 7, 32768, 3]),
    ],
    // out[0] = 15; out[1] = -14; out[2] = 2^16 * 2^15 * 3 = 3 * 2^31 = 2^32 + 2^31
    // = 2^31 (mod 2^32) = -2^31 as int32
    expected: new Int32Array([15, -14, -2147483648]),
  },
  {
    name: 'Reduction min, int32 (2-D, axis 1)',
    desc: {
      type: 'scatterElements',
      input: t('int32', [2, 3]),
      indices: t('int32', [2, 2]),
      updates: t('int32', [2, 2]),
      output: t('int32', [2, 3]),
      axis: 1,
      reduction: 'min',
    },
    inputs: [
      new Int32Array([5, -5, 9, 100, -100, 7]),
      new Int32Array([0, 2, 1, 1]),
      new Int32Array([3, 10, -200, -50]),
    ],
    // (0,0) = min(5, 3) = 3; (0,2) = min(9, 10) = 9; (1,1) = min(-100, -200, -50) = -200
    expected: new Int32Array([3, -5, 9, 100, -200, 7]),
  },
  {
    name: 'Reduction max, int32 (ScatterND rows, int64 indices)',
    desc: {
      type: 'scatterNd',
      input: t('int32', [3, 2]),
      indices: t('int64', [3, 1]),
      updates: t('int32', [3, 2]),
      output: t('int32', [3, 2]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
      reduction: 'max',
    },
    inputs: [
      new Int32Array([1, -2, 3, -4, 5, -6]),
      new BigInt64Array([0n, 2n, 0n]),
      new Int32Array([0, -1, 6, -7, 2, -3]),
    ],
    // row 0: max(1, 0, 2) = 2, max(-2, -1, -3) = -1; row 2: max(5, 6) = 6, max(-6, -7) = -6
    expected: new Int32Array([2, -1, 3, -4, 6, -6]),
  },
  {
    name: 'Reduction add, float32 (exact sums)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [2, 2]),
      indices: t('int32', [2, 3]),
      updates: t('float32', [2, 3]),
      output: t('float32', [2, 2]),
      axis: 1,
      reduction: 'add',
    },
    inputs: [
      new Float32Array([0.5, 1.5, -2, 4]),
      new Int32Array([0, 1, 0, 1, 1, 0]),
      new Float32Array([0.25, -1.25, 8, 0.125, 2, -0.5]),
    ],
    // (0,0) = 0.5 + 0.25 + 8 = 8.75; (0,1) = 1.5 - 1.25 = 0.25;
    // (1,1) = 4 + 0.125 + 2 = 6.125; (1,0) = -2 - 0.5 = -2.5 (exact in any order)
    expected: new Float32Array([8.75, 0.25, -2.5, 6.125]),
  },
  {
    name: 'Reduction mul, float32 (ScatterND 2-tuples, in order)',
    desc: {
      type: 'scatterNd',
      input: t('float32', [2, 2]),
      indices: t('uint32', [3, 2]),
      updates: t('float32', [3]),
      output: t('float32', [2, 2]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
      reduction: 'mul',
      duplicates: 'inOrder',
    },
    inputs: [
      new Float32Array([1.5, -2, 3, 0.5]),
      new Uint32Array([0, 0, 1, 1, 0, 0]),
      new Float32Array([2, -8, -0.25]),
    ],
    // (0,0) = 1.5 * 2 * -0.25 = -0.75; (1,1) = 0.5 * -8 = -4
    expected: new Float32Array([-0.75, -2, 3, -4]),
  },
  {
    name: 'Reduction min, float32 (int64 indices)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [4]),
      indices: t('int64', [4]),
      updates: t('float32', [4]),
      output: t('float32', [4]),
      axis: 0,
      reduction: 'min',
    },
    inputs: [
      new Float32Array([1.5, -2.5, 3.25, 0.75]),
      new BigInt64Array([1n, 3n, 1n, 0n]),
      new Float32Array([-3, 0.5, -2, 2]),
    ],
    // out[1] = min(-2.5, -3, -2) = -3; out[3] = min(0.75, 0.5) = 0.5; out[0] = min(1.5, 2) = 1.5
    expected: new Float32Array([1.5, -3, 3.25, 0.5]),
  },
  {
    name: 'Reduction max, float32 (axis 0, uint64 indices)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [2, 2]),
      indices: t('uint64', [2, 2]),
      updates: t('float32', [2, 2]),
      output: t('float32', [2, 2]),
      axis: 0,
      reduction: 'max',
    },
    inputs: [
      new Float32Array([1.25, -1, 2.5, -3.5]),
      new BigUint64Array([1n, 0n, 1n, 1n]),
      new Float32Array([2, -0.5, 3, -4]),
    ],
    // (1,0) = max(2.5, 2, 3) = 3; (0,1) = max(-1, -0.5) = -0.5; (1,1) = max(-3.5, -4) = -3.5
    expected: new Float32Array([1.25, -0.5, 3, -3.5]),
  },
  {
    name: 'Reduction add, uint8 (wraps modulo 256)',
    desc: {
      type: 'scatterElements',
      input: t('uint8', [4]),
      indices: t('int32', [4]),
      updates: t('uint8', [4]),
      output: t('uint8', [4]),
      axis: 0,
      reduction: 'add',
    },
    inputs: [
      new Uint8Array([250, 10, 128, 1]),
      new Int32Array([0, 2, 0, 2]),
      new Uint8Array([10, 200, 255, 100]),
    ],
    // out[0] = 250 + 10 + 255 = 515 = 3 (mod 256); out[2] = 128 + 200 + 100 = 428 = 172
    expected: new Uint8Array([3, 10, 172, 1]),
  },
  {
    name: 'Reduction add, float16 (in f32, rounded to f16: a tie rounds to even)',
    desc: {
      type: 'scatterElements',
      input: t('float16', [4]),
      indices: t('int32', [4]),
      updates: t('float16', [4]),
      output: t('float16', [4]),
      axis: 0,
      reduction: 'add',
      duplicates: 'inOrder',
    },
    inputs: [
      // [1.0, 2.0, -0.5, 2048]
      new Uint16Array([0x3c00, 0x4000, 0xb800, 0x6800]),
      new Int32Array([0, 3, 0, 2]),
      // [0.5, 3.0, 0.25, 2.0]
      new Uint16Array([0x3800, 0x4200, 0x3400, 0x4000]),
    ],
    // out[0] = (1 + 0.5) + 0.25 = 1.75 = 0x3f00 (exact);
    // out[3] = 2048 + 3 = 2051 in f32; f16 steps by 2 in [2048, 4096): 2051 lies halfway
    //   between 2050 (mantissa 1, odd) and 2052 (mantissa 2, even): 2052 = 0x6802;
    // out[2] = -0.5 + 2 = 1.5 = 0x3e00; out[1] kept (2.0 = 0x4000)
    expected: new Uint16Array([0x3f00, 0x4000, 0x3e00, 0x6802]),
  },

  // ---------------------------------------------------------------------------------------
  // TensorScatter (ONNX opset 24).
  // ---------------------------------------------------------------------------------------
  {
    name: 'TensorScatter linear with int64 writeIndices',
    desc: {
      type: 'tensorScatter',
      input: t('float32', [2, 4, 2]),
      updates: t('float32', [2, 2, 2]),
      writeIndices: t('int64', [2]),
      output: t('float32', [2, 4, 2]),
      axis: 1,
    },
    inputs: [
      new Float32Array([-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16]),
      new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]),
      new BigInt64Array([1n, 2n]),
    ],
    // entry 0: positions 1, 2 <- [1,2], [3,4]; entry 1: positions 2, 3 <- [5,6], [7,8]
    expected: new Float32Array([-1, -2, 1, 2, 3, 4, -7, -8, -9, -10, -11, -12, 5, 6, 7, 8]),
  },
  {
    name: 'TensorScatter linear without writeIndices (every entry writes at 0), int32',
    desc: {
      type: 'tensorScatter',
      input: t('int32', [2, 3, 2]),
      updates: t('int32', [2, 1, 2]),
      output: t('int32', [2, 3, 2]),
      axis: 1,
    },
    inputs: [
      new Int32Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
      new Int32Array([-1, -2, -3, -4]),
    ],
    // entry 0 position 0 <- [-1,-2]; entry 1 position 0 <- [-3,-4]
    expected: new Int32Array([-1, -2, 3, 4, 5, 6, -3, -4, 9, 10, 11, 12]),
  },
  {
    name: 'TensorScatter circular: write indices wrap (int32, one negative)',
    desc: {
      type: 'tensorScatter',
      input: t('float32', [2, 4, 1]),
      updates: t('float32', [2, 3, 1]),
      writeIndices: t('int32', [2]),
      output: t('float32', [2, 4, 1]),
      axis: 1,
      mode: 'circular',
    },
    inputs: [
      new Float32Array([10, 11, 12, 13, 20, 21, 22, 23]),
      new Float32Array([1, 2, 3, 4, 5, 6]),
      new Int32Array([3, -3]),
    ],
    // entry 0: (3 + s) mod 4 = 3, 0, 1 <- 1, 2, 3 -> [2, 3, 12, 1]
    // entry 1: (-3 + s) floor-mod 4 = 1, 2, 3 <- 4, 5, 6 -> [20, 4, 5, 6]
    expected: new Float32Array([2, 3, 12, 1, 20, 4, 5, 6]),
  },
];
