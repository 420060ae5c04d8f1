// Conformance cases of the npm package (see operators.js for the rules every case follows):
// tensors of size 0, and descs and inputs every operator refuses, with the error each names.

import { t } from './tensors.js';

export const edgeCases = [
  // ---------------------------------------------------------------------------------------
  // Sizes of 0.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Empty: a gather with indices of size 0 gives an empty output',
    desc: {
      type: 'gather',
      input: t('float32', [2, 3]),
      indices: t('int32', [1, 0]),
      output: t('float32', [0, 3]),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [new Float32Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), new Int32Array(0)],
    expected: new Float32Array(0),
  },
  {
    name: 'Empty: a scatter with no updates is the copy output = input',
    desc: {
      type: 'scatterElements',
      input: t('int32', [3]),
      indices: t('int32', [0]),
      updates: t('int32', [0]),
      output: t('int32', [3]),
      axis: 0,
    },
    inputs: [new Int32Array([7, -8, 9]), new Int32Array(0), new Int32Array(0)],
    expected: new Int32Array([7, -8, 9]),
  },

  // ---------------------------------------------------------------------------------------
  // Errors.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Error: scatter index out of range (the first offending one is reported)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [5]),
      indices: t('int32', [3]),
      updates: t('float32', [3]),
      output: t('float32', [5]),
      axis: 0,
    },
    inputs: [
      new Float32Array([0.5, 1.5, 2.5, 3.5, 4.5]),
      new Int32Array([4, 5, -6]),
      new Float32Array([7, 8, 9]),
    ],
    // 5 and -6 lie outside [-5, 5); 5 comes first
    error: { kind: 'IndexOutOfRange', tensor: 'indices', position: [1], value: 5, bound: 5 },
  },
  {
    name: 'Error: ScatterND tuple component out of range (position names the component)',
    desc: {
      type: 'scatterNd',
      input: t('float32', [2, 3]),
      indices: t('int64', [2, 2]),
      updates: t('float32', [2]),
      output: t('float32', [2, 3]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
    },
    inputs: [
      new Float32Array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]),
      new BigInt64Array([0n, 1n, 1n, -4n]),
      new Float32Array([7.5, 8.5]),
    ],
    // tuple 1 is (1, -4); component 1's bound is 3 and -4 < -3
    error: { kind: 'IndexOutOfRange', tensor: 'indices', position: [1, 1], value: -4, bound: 3 },
  },
  {
    name: 'Error: gather uint32 index equal to the bound',
    desc: {
      type: 'gather',
      input: t('float32', [2, 3]),
      indices: t('uint32', [1, 2]),
      output: t('float32', [2, 2]),
      axis: 1,
      indexDimensions: 1,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]), new Uint32Array([2, 3])],
    error: { kind: 'IndexOutOfRange', tensor: 'indices', position: [0, 1], value: 3, bound: 3 },
  },
  {
    name: 'Error: an int64 index past 2^32 is compared whole (not truncated to 1)',
    desc: {
      type: 'gather',
      input: t('float32', [4]),
      indices: t('int64', [2]),
      output: t('float32', [2]),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new BigInt64Array([1n, 0x1_0000_0001n])],
    error: { kind: 'IndexOutOfRange', tensor: 'indices', position: [1], value: 4294967297, bound: 4 },
  },
  {
    name: 'Error: TensorScatter linear write index whose run leaves the cache',
    desc: {
      type: 'tensorScatter',
      input: t('float32', [2, 4, 1]),
      updates: t('float32', [2, 2, 1]),
      writeIndices: t('int64', [2]),
      output: t('float32', [2, 4, 1]),
      axis: 1,
    },
    inputs: [
      new Float32Array([10, 11, 12, 13, 20, 21, 22, 23]),
      new Float32Array([1, 2, 3, 4]),
      new BigInt64Array([0n, 3n]),
    ],
    // entry 1 writes 2 positions from 3 in a cache of 4: allowed [0, 4 - 2]
    error: { kind: 'WriteIndexOutOfRange', entry: 1, value: 3, length: 2, bound: 4 },
  },
  {
    name: 'Error: axis out of range',
    desc: {
      type: 'gatherElements',
      input: t('float32', [2, 2]),
      indices: t('int32', [2, 2]),
      output: t('float32', [2, 2]),
      axis: 2,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new Int32Array([0, 1, 1, 0])],
    error: { kind: 'AxisOutOfRange', axis: 2, rank: 2 },
  },
  {
    name: 'Error: a misspelt desc member (outOfrange) is refused, not ignored',
    desc: {
      type: 'gather',
      input: t('float32', [4]),
      indices: t('int32', [2]),
      output: t('float32', [2]),
      axis: 0,
      indexDimensions: 1,
      outOfrange: 'clamp',
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new Int32Array([1, 9])],
    error: { kind: 'InvalidArgument', field: 'desc.outOfrange' },
  },
  {
    name: 'Error: a Float32Array for int32 indices',
    desc: {
      type: 'gather',
      input: t('float32', [4]),
      indices: t('int32', [2]),
      output: t('float32', [2]),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new Float32Array([1, 2])],
    error: { kind: 'InvalidArgument', field: 'inputs[1] (indices)' },
  },
  {
    name: 'Error: a data type name that does not exist',
    desc: {
      type: 'slice',
      input: t('float8', [4]),
      output: t('float8', [2]),
      offsets: [0],
      sizes: [2],
      strides: [1],
    },
    inputs: [new Uint8Array([1, 2, 3, 4])],
    error: { kind: 'InvalidArgument', field: 'desc.input.dataType' },
  },
  {
    name: 'Error: float32 indices are not an index type',
    desc: {
      type: 'gather',
      input: t('float32', [4]),
      indices: t('float32', [2]),
      output: t('float32', [2]),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new Float32Array([1, 2])],
    error: { kind: 'UnsupportedDataType', tensor: 'indices', actual: 'float32' },
  },
];
