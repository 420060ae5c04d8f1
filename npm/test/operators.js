// Conformance cases for the npm package: `context.run(desc, inputs)` must resolve to
// `expected` (same TypedArray class, same length, same elements; float16 and bfloat16 as
// Uint16Array bits), or reject with a DmlError whose `kind` and listed fields equal `error`.
//
// Every expected value is derived by hand from the operators' semantics (DirectML's pages,
// ONNX's definitions, the crate's README), never by running the package or the library.
//
// Layout facts the expected lengths follow (README, "Semantics"; npm/src/arrays.rs):
// * `run` returns the output's whole byte size: the given totalTensorSizeInBytes, else the
//   layout's span in bytes rounded up to a multiple of 4; bytes no element covers are zero.
//   So a uint8 output of 6 elements comes back as 8 bytes (two trailing zeros), an int16
//   output of 3 elements as 4 elements (one trailing zero).
// * Each input must hold at least its tensor's byte size, also rounded up to 4: a uint8 or
//   int8 tensor of 6 elements needs 8 bytes, so its data carries padding at the end.
// * An empty tensor (a size of 0) spans 0 bytes: its data is an empty array, and an empty
//   output comes back as an empty TypedArray.
//
// The cases are in three files: the DirectML pages' examples, ONNX-style cases, data types
// and layouts here; scatter_cases.js (duplicates in order, reductions, TensorScatter);
// edge_cases.js (sizes of 0, errors).

import { edgeCases } from './edge_cases.js';
import { scatterCases } from './scatter_cases.js';
import { t, seed16 } from './tensors.js';

export const cases = [
  // ---------------------------------------------------------------------------------------
  // The DirectML pages' examples, literally (shared/seeds/, examples/shared/tour.rs).
  // ---------------------------------------------------------------------------------------
  {
    name: 'DML_SLICE example 1: contiguous slice',
    desc: {
      type: 'slice',
      input: t('float32', [1, 1, 4, 4]),
      output: t('float32', [1, 1, 3, 2]),
      offsets: [0, 0, 1, 2],
      sizes: [1, 1, 3, 2],
      strides: [1, 1, 1, 1],
    },
    inputs: [seed16()],
    // rows 1..3, columns 2..3 of [[1..4],[5..8],[9..12],[13..16]]
    expected: new Float32Array([7, 8, 11, 12, 15, 16]),
  },
  {
    name: 'DML_SLICE example 2: strided slice',
    desc: {
      type: 'slice',
      input: t('float32', [1, 1, 4, 4]),
      output: t('float32', [1, 1, 2, 2]),
      offsets: [0, 0, 1, 0],
      sizes: [1, 1, 2, 2],
      strides: [1, 1, 2, 3],
    },
    inputs: [seed16()],
    // rows 1 and 3, columns 0 and 3
    expected: new Float32Array([5, 8, 13, 16]),
  },
  {
    name: 'DML_SLICE1: a window walked backwards (negative strides)',
    desc: {
      type: 'slice1',
      input: t('float32', [1, 1, 4, 4]),
      output: t('float32', [1, 1, 3, 2]),
      inputWindowOffsets: [0, 0, 1, 0],
      inputWindowSizes: [1, 1, 3, 4],
      inputWindowStrides: [1, 1, -1, -2],
    },
    inputs: [seed16()],
    // window rows 1..3, columns 0..3; rows walked 3, 2, 1; ceil(4/2) = 2 columns walked
    // from the window's last: 3, 1. Row r column c holds 4r + c + 1:
    // row 3: 16, 14; row 2: 12, 10; row 1: 8, 6.
    expected: new Float32Array([16, 14, 12, 10, 8, 6]),
  },
  {
    name: 'DML_SCATTER example 1: 1-D, duplicates in order (the last update wins)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [5]),
      indices: t('uint32', [4]),
      updates: t('float32', [4]),
      output: t('float32', [5]),
      axis: 0,
      duplicates: 'inOrder',
    },
    inputs: [
      new Float32Array([0, 1, 2, 3, 4]),
      new Uint32Array([3, 1, 3, 0]),
      new Float32Array([5, 6, 7, 8]),
    ],
    // out[3] = 5 then 7; out[1] = 6; out[0] = 8; out[2], out[4] kept
    expected: new Float32Array([8, 6, 2, 7, 4]),
  },
  {
    name: 'DML_SCATTER example 2: 2-D along axis 0 (input {3,3}, as the example settles it)',
    desc: {
      type: 'scatterElements',
      input: t('float32', [3, 3]),
      indices: t('uint32', [2, 3]),
      updates: t('float32', [2, 3]),
      output: t('float32', [3, 3]),
      axis: 0,
    },
    inputs: [
      new Float32Array([0, 0, 0, 0, 0, 0, 0, 0, 0]),
      new Uint32Array([1, 0, 2, 0, 2, 1]),
      new Float32Array([10, 11, 12, 20, 21, 22]),
    ],
    // out[idx[y][x]][x] = upd[y][x]: (1,0)=10 (0,1)=11 (2,2)=12 (0,0)=20 (2,1)=21 (1,2)=22
    expected: new Float32Array([20, 11, 0, 10, 0, 22, 0, 21, 12]),
  },
  {
    name: 'DML_SCATTER_ND example: {8} input, {4,1} UINT32 indices, {4} updates',
    desc: {
      type: 'scatterNd',
      input: t('float32', [8]),
      indices: t('uint32', [4, 1]),
      updates: t('float32', [4]),
      output: t('float32', [8]),
      inputDimensionCount: 1,
      indicesDimensionCount: 2,
    },
    inputs: [
      new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]),
      new Uint32Array([4, 3, 1, 7]),
      new Float32Array([9, 10, 11, 12]),
    ],
    // out[4]=9 out[3]=10 out[1]=11 out[7]=12
    expected: new Float32Array([1, 11, 3, 10, 9, 6, 7, 12]),
  },

  // ---------------------------------------------------------------------------------------
  // ONNX-style cases, mapped to descs as tests/onnx.rs maps ONNX nodes.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Gather axis 0 (ONNX test_gather_0 shape): data [3,2], int64 indices [2,2]',
    // ONNX output [2,2,2]; every tensor padded to rank 3: input [1,3,2] (axis 0 -> 1),
    // indices [1,2,2] with indexDimensions 2; gathered sizes [1] ++ [2,2] ++ [2], the
    // leading 1 cropped to the output's rank 3.
    desc: {
      type: 'gather',
      input: t('float32', [1, 3, 2]),
      indices: t('int64', [1, 2, 2]),
      output: t('float32', [2, 2, 2]),
      axis: 1,
      indexDimensions: 2,
    },
    inputs: [
      new Float32Array([1, 1.25, 2.5, 3.5, 4.5, 5.75]),
      new BigInt64Array([0n, 1n, 1n, 2n]),
    ],
    // [[row0, row1], [row1, row2]]
    expected: new Float32Array([1, 1.25, 2.5, 3.5, 2.5, 3.5, 4.5, 5.75]),
  },
  {
    name: 'Gather axis 1 (ONNX test_gather_1 shape): data [3,3], int32 indices [[0,-1]]',
    // ONNX output [3] ++ [1,2] = [3,1,2]; input [1,3,3] (axis 1 -> 2), indices [1,1,2],
    // indexDimensions 2; gathered [1,3] ++ [1,2], the leading 1 cropped.
    desc: {
      type: 'gather',
      input: t('float32', [1, 3, 3]),
      indices: t('int32', [1, 1, 2]),
      output: t('float32', [3, 1, 2]),
      axis: 2,
      indexDimensions: 2,
    },
    inputs: [
      new Float32Array([1, 1.25, 1.5, 2.5, 3.5, 3.75, 4.5, 5.75, 5.5]),
      new Int32Array([0, -1]),
    ],
    // columns 0 and -1 (= 2) of each row
    expected: new Float32Array([1, 1.5, 2.5, 3.75, 4.5, 5.5]),
  },
  {
    name: 'Gather with indexDimensions 0: one index (int32 -2) picks a row',
    desc: {
      type: 'gather',
      input: t('float32', [3, 2]),
      indices: t('int32', [1, 1]),
      output: t('float32', [1, 2]),
      axis: 0,
      indexDimensions: 0,
    },
    inputs: [new Float32Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), new Int32Array([-2])],
    // gathered sizes [] ++ [] ++ [2], right-aligned as [1,2]; -2 is row 1
    expected: new Float32Array([3.5, 4.5]),
  },
  {
    name: 'GatherElements axis 1 (ONNX test_gather_elements_0 shape), int32 data, uint32 indices',
    desc: {
      type: 'gatherElements',
      input: t('int32', [2, 2]),
      indices: t('uint32', [2, 2]),
      output: t('int32', [2, 2]),
      axis: 1,
    },
    inputs: [new Int32Array([10, -20, 30, -40]), new Uint32Array([0, 0, 1, 0])],
    // out[i][j] = in[i][idx[i][j]]: row 0 -> in[0][0], in[0][0]; row 1 -> in[1][1], in[1][0]
    expected: new Int32Array([10, 10, -40, 30]),
  },
  {
    name: 'GatherElements axis 0, negative int64 indices (ONNX test_gather_elements_negative_indices)',
    desc: {
      type: 'gatherElements',
      input: t('float32', [3, 3]),
      indices: t('int64', [2, 3]),
      output: t('float32', [2, 3]),
      axis: 0,
    },
    inputs: [
      new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]),
      new BigInt64Array([-1n, -2n, 0n, -2n, 0n, 0n]),
    ],
    // out[i][j] = in[idx[i][j]][j]: in[2][0]=7 in[1][1]=5 in[0][2]=3 / in[1][0]=4 in[0][1]=2 in[0][2]=3
    expected: new Float32Array([7, 5, 3, 4, 2, 3]),
  },
  {
    name: 'GatherND with batchDimensionCount 1 (ONNX test_gathernd_example_int32_batch_dim1 shape)',
    desc: {
      type: 'gatherNd',
      input: t('int32', [2, 2, 2]),
      indices: t('int64', [2, 1]),
      output: t('int32', [2, 2]),
      inputDimensionCount: 3,
      indicesDimensionCount: 2,
      batchDimensionCount: 1,
    },
    inputs: [new Int32Array([10, 11, 12, 13, 14, 15, 16, 17]), new BigInt64Array([1n, 0n])],
    // batch 0: in[0][1] = [12,13]; batch 1: in[1][0] = [14,15]
    expected: new Int32Array([12, 13, 14, 15]),
  },
  {
    name: 'GatherND of elements (2-tuples), int16 data, uint64 indices, padded output',
    desc: {
      type: 'gatherNd',
      input: t('int16', [2, 3]),
      indices: t('uint64', [3, 2]),
      output: t('int16', [3]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
      batchDimensionCount: 0,
    },
    inputs: [
      new Int16Array([10, 11, 12, 20, 21, 22]),
      new BigUint64Array([1n, 0n, 0n, 2n, 1n, 2n]),
    ],
    // (1,0)=20 (0,2)=12 (1,2)=22; 3 int16 = 6 bytes, returned as 8: one trailing zero
    expected: new Int16Array([20, 12, 22, 0]),
  },
  {
    name: 'ScatterND with 1-tuples (rows), float64, negative int64 index',
    desc: {
      type: 'scatterNd',
      input: t('float64', [3, 2]),
      indices: t('int64', [2, 1]),
      updates: t('float64', [2, 2]),
      output: t('float64', [3, 2]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
    },
    inputs: [
      new Float64Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5]),
      new BigInt64Array([2n, -3n]),
      new Float64Array([-1, -2, -3, -4]),
    ],
    // row 2 <- [-1,-2]; row -3 = row 0 <- [-3,-4]; row 1 kept
    expected: new Float64Array([-3, -4, 3.5, 4.5, -1, -2]),
  },
  {
    name: 'ScatterND with 2-tuples (elements), int32, negative index',
    desc: {
      type: 'scatterNd',
      input: t('int32', [3, 3]),
      indices: t('int32', [3, 2]),
      updates: t('int32', [3]),
      output: t('int32', [3, 3]),
      inputDimensionCount: 2,
      indicesDimensionCount: 2,
    },
    inputs: [
      new Int32Array([11, 12, 13, 21, 22, 23, 31, 32, 33]),
      new Int32Array([0, 2, 2, 1, 1, -3]),
      new Int32Array([-1, -2, -3]),
    ],
    // (0,2) <- -1; (2,1) <- -2; (1,-3) = (1,0) <- -3
    expected: new Int32Array([11, 12, -1, -3, 22, 23, 31, -2, 33]),
  },

  // ---------------------------------------------------------------------------------------
  // Every data type as data.
  // ---------------------------------------------------------------------------------------
  {
    name: 'float16: gather rows of an embedding table (bits, NaN payload and -0 kept)',
    desc: {
      type: 'gather',
      input: t('float16', [4, 2]),
      indices: t('int64', [1, 3]),
      output: t('float16', [3, 2]),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [
      // [[0.5, 1], [1.5, -1], [2.5, NaN 0x7e01], [3.5, -0]]
      new Uint16Array([0x3800, 0x3c00, 0x3e00, 0xbc00, 0x4100, 0x7e01, 0x4300, 0x8000]),
      new BigInt64Array([3n, 0n, -2n]),
    ],
    // rows 3, 0, 2
    expected: new Uint16Array([0x4300, 0x8000, 0x3800, 0x3c00, 0x4100, 0x7e01]),
  },
  {
    name: 'bfloat16: slice1 walking backwards by 2 (bits), padded output',
    desc: {
      type: 'slice1',
      input: t('bfloat16', [6]),
      output: t('bfloat16', [3]),
      inputWindowOffsets: [1],
      inputWindowSizes: [5],
      inputWindowStrides: [-2],
    },
    // [1.0, 2.0, 3.0, -4.0, 5.0, NaN 0x7fc1]
    inputs: [new Uint16Array([0x3f80, 0x4000, 0x4040, 0xc080, 0x40a0, 0x7fc1])],
    // window 1..5, ceil(5/2) = 3 elements from the last: 5, 3, 1; 6 bytes returned as 8
    expected: new Uint16Array([0x7fc1, 0xc080, 0x4000, 0]),
  },
  {
    name: 'float64: slice of a strided input (rows 4 elements apart)',
    desc: {
      type: 'slice',
      input: t('float64', [2, 3], { strides: [4, 1] }),
      output: t('float64', [2, 2]),
      offsets: [0, 1],
      sizes: [2, 2],
      strides: [1, 1],
    },
    // span (1*4 + 2*1) + 1 = 7 elements; element 3 is padding, never read
    inputs: [new Float64Array([0.5, 1.5, 2.5, -99, 3.5, 4.5, 5.5])],
    // logical [[0.5,1.5,2.5],[3.5,4.5,5.5]], columns 1..2
    expected: new Float64Array([1.5, 2.5, 4.5, 5.5]),
  },
  {
    name: 'int64: gather columns of values past 2^32, uint32 indices',
    desc: {
      type: 'gather',
      input: t('int64', [2, 3]),
      indices: t('uint32', [1, 2]),
      output: t('int64', [2, 2]),
      axis: 1,
      indexDimensions: 1,
    },
    inputs: [
      new BigInt64Array([
        0x1_0000_0001n, -0x2_0000_0003n, 7n,
        -1n, 0x7fff_ffff_ffff_ffffn, -0x8000_0000_0000_0000n,
      ]),
      new Uint32Array([2, 1]),
    ],
    // gathered [2] ++ [2]: columns 2 and 1 of each row
    expected: new BigInt64Array([7n, -0x2_0000_0003n, -0x8000_0000_0000_0000n, 0x7fff_ffff_ffff_ffffn]),
  },
  {
    name: 'uint64: gatherElements axis 0 of values past 2^32, uint64 indices',
    desc: {
      type: 'gatherElements',
      input: t('uint64', [3, 2]),
      indices: t('uint64', [2, 2]),
      output: t('uint64', [2, 2]),
      axis: 0,
    },
    inputs: [
      new BigUint64Array([
        0x1_0000_0001n, 2n,
        0xffff_ffff_ffff_ffffn, 0x8000_0000_0000_0000n,
        0x2_0000_0000n, 5n,
      ]),
      new BigUint64Array([2n, 0n, 0n, 1n]),
    ],
    // in[2][0], in[0][1], in[0][0], in[1][1]
    expected: new BigUint64Array([0x2_0000_0000n, 2n, 0x1_0000_0001n, 0x8000_0000_0000_0000n]),
  },
  {
    name: 'int8: slice every other column, padded output',
    desc: {
      type: 'slice',
      input: t('int8', [3, 4]),
      output: t('int8', [3, 2]),
      offsets: [0, 1],
      sizes: [3, 2],
      strides: [1, 2],
    },
    inputs: [new Int8Array([-128, -1, 2, 3, 4, -5, 6, -7, 8, 9, -10, 127])],
    // columns 1 and 3 of each row; 6 bytes returned as 8
    expected: new Int8Array([-1, 3, -5, -7, 9, 127, 0, 0]),
  },
  {
    name: 'uint8: slice the inner 2x3 block of a 4x5 image, padded output',
    desc: {
      type: 'slice',
      input: t('uint8', [4, 5]),
      output: t('uint8', [2, 3]),
      offsets: [1, 1],
      sizes: [2, 3],
      strides: [1, 1],
    },
    // pixel i = 10 i + 5
    inputs: [new Uint8Array([
      5, 15, 25, 35, 45, 55, 65, 75, 85, 95,
      105, 115, 125, 135, 145, 155, 165, 175, 185, 195,
    ])],
    // row 1 columns 1..3: pixels 6..8; row 2: pixels 11..13; 6 bytes returned as 8
    expected: new Uint8Array([65, 75, 85, 115, 125, 135, 0, 0]),
  },
  {
    name: 'uint16: scatterElements along axis 1 with a negative int32 index',
    desc: {
      type: 'scatterElements',
      input: t('uint16', [2, 3]),
      indices: t('int32', [2, 2]),
      updates: t('uint16', [2, 2]),
      output: t('uint16', [2, 3]),
      axis: 1,
    },
    inputs: [
      new Uint16Array([100, 200, 300, 400, 500, 600]),
      new Int32Array([2, 0, -1, 1]),
      new Uint16Array([65535, 1, 40000, 7]),
    ],
    // row 0: col 2 <- 65535, col 0 <- 1; row 1: col -1 = 2 <- 40000, col 1 <- 7
    expected: new Uint16Array([1, 200, 65535, 400, 7, 40000]),
  },
  {
    name: 'uint32 data, int32 indices: gather with outOfRange clamp',
    desc: {
      type: 'gather',
      input: t('uint32', [5]),
      indices: t('int32', [4]),
      output: t('uint32', [4]),
      axis: 0,
      indexDimensions: 1,
      outOfRange: 'clamp',
    },
    inputs: [new Uint32Array([100, 200, 300, 400, 500]), new Int32Array([-7, 9, 2, -1])],
    // -7 -> -7 + 5 = -2 -> clamped 0; 9 -> clamped 4; 2; -1 -> 4
    expected: new Uint32Array([100, 500, 300, 500]),
  },
  {
    name: 'int16: scatterElements with outOfRange clamp, int64 indices past 2^32',
    desc: {
      type: 'scatterElements',
      input: t('int16', [6]),
      indices: t('int64', [3]),
      updates: t('int16', [3]),
      output: t('int16', [6]),
      axis: 0,
      outOfRange: 'clamp',
    },
    inputs: [
      new Int16Array([10, 20, 30, 40, 50, 60]),
      new BigInt64Array([0x1_0000_0002n, -9n, 2n]),
      // 3 int16 = 6 bytes; the tensor spans 8 (rounded up to 4): one padding element
      new Int16Array([-1, -2, -3, 0]),
    ],
    // 0x1_0000_0002 (compared whole, not truncated to 2) -> clamped 5; -9 -> -3 -> clamped 0; 2
    expected: new Int16Array([-2, 20, -3, 40, 50, -1]),
  },

  // ---------------------------------------------------------------------------------------
  // Layouts: strided, broadcast, padded total size, strided output.
  // ---------------------------------------------------------------------------------------
  {
    name: 'Strided input: gather rows of a transposed view (strides [1,3])',
    desc: {
      type: 'gather',
      input: t('float32', [3, 2], { strides: [1, 3] }),
      indices: t('int32', [1, 2]),
      output: t('float32', [2, 2]),
      axis: 0,
      indexDimensions: 1,
    },
    // element (i,j) = buffer[i + 3j]: logical [[1.5,4.5],[2.5,5.5],[3.5,6.5]]
    inputs: [new Float32Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5]), new Int32Array([2, 0])],
    // rows 2 and 0
    expected: new Float32Array([3.5, 6.5, 1.5, 4.5]),
  },
  {
    name: 'Broadcast input (stride 0): gatherElements axis 0, uint32',
    desc: {
      type: 'gatherElements',
      input: t('uint32', [3, 3], { strides: [1, 0] }),
      indices: t('uint32', [2, 3]),
      output: t('uint32', [2, 3]),
      axis: 0,
    },
    // span (2*1 + 2*0) + 1 = 3 elements; element (i,j) = buffer[i]: rows of 10s, 20s, 30s
    inputs: [new Uint32Array([10, 20, 30]), new Uint32Array([2, 1, 0, 0, 2, 1])],
    // out[i][j] = in[idx[i][j]][j] = buffer[idx[i][j]]
    expected: new Uint32Array([30, 20, 10, 10, 30, 20]),
  },
  {
    name: 'Broadcast updates (stride 0): scatterElements axis 0, int32',
    desc: {
      type: 'scatterElements',
      input: t('int32', [3, 3]),
      indices: t('int32', [2, 3]),
      updates: t('int32', [2, 3], { strides: [0, 1] }),
      output: t('int32', [3, 3]),
      axis: 0,
    },
    inputs: [
      new Int32Array([1, 2, 3, 4, 5, 6, 7, 8, 9]),
      new Int32Array([0, 1, 2, 2, 0, 1]),
      // both update rows read [-7, -8, -9]
      new Int32Array([-7, -8, -9]),
    ],
    // y=0: (0,0)=-7 (1,1)=-8 (2,2)=-9; y=1: (2,0)=-7 (0,1)=-8 (1,2)=-9 (all distinct targets)
    expected: new Int32Array([-7, -8, 3, 4, -8, -9, -7, 8, -9]),
  },
  {
    name: 'totalTensorSizeInBytes larger than needed, on the input and the output',
    desc: {
      type: 'gather',
      input: t('float32', [3, 2], { totalTensorSizeInBytes: 32 }),
      indices: t('uint32', [1, 2]),
      output: t('float32', [2, 2], { totalTensorSizeInBytes: 32 }),
      axis: 0,
      indexDimensions: 1,
    },
    inputs: [
      // 24 bytes of elements, 8 more that no element covers
      new Float32Array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5, -1, -1]),
      new Uint32Array([2, 1]),
    ],
    // rows 2 and 1, then 16 bytes of zeros up to the output's 32
    expected: new Float32Array([5.5, 6.5, 3.5, 4.5, 0, 0, 0, 0]),
  },
  {
    name: 'Strided output: slice written with output strides [3,1] (the gap stays zero)',
    desc: {
      type: 'slice',
      input: t('float32', [2, 2]),
      output: t('float32', [2, 2], { strides: [3, 1] }),
      offsets: [0, 0],
      sizes: [2, 2],
      strides: [1, 1],
    },
    inputs: [new Float32Array([1.5, 2.5, 3.5, 4.5])],
    // output span (1*3 + 1*1) + 1 = 5 elements: offsets 0, 1, 3, 4 written, 2 uncovered
    expected: new Float32Array([1.5, 2.5, 0, 3.5, 4.5]),
  },
  {
    name: 'Raw bytes: a float32 input given as a Uint8Array (slice1 reversing)',
    desc: {
      type: 'slice1',
      input: t('float32', [4]),
      output: t('float32', [4]),
      inputWindowOffsets: [0],
      inputWindowSizes: [4],
      inputWindowStrides: [-1],
    },
    inputs: [
      // little-endian binary32: 1.0 = 0x3f800000, 2.0 = 0x40000000, -3.5 = 0xc0600000,
      // 0.25 = 0x3e800000
      new Uint8Array([
        0x00, 0x00, 0x80, 0x3f,
        0x00, 0x00, 0x00, 0x40,
        0x00, 0x00, 0x60, 0xc0,
        0x00, 0x00, 0x80, 0x3e,
      ]),
    ],
    expected: new Float32Array([0.25, -3.5, 2, 1]),
  },
  {
    name: 'Raw bytes: int32 indices given as an ArrayBuffer',
    desc: {
      type: 'gatherElements',
      input: t('float32', [4]),
      indices: t('int32', [3]),
      output: t('float32', [3]),
      axis: 0,
    },
    inputs: [new Float32Array([0.5, 1.5, 2.5, 3.5]), new Int32Array([3, -4, 1]).buffer],
    // in[3], in[-4] = in[0], in[1]
    expected: new Float32Array([3.5, 0.5, 1.5]),
  },
  ...scatterCases,
  ...edgeCases,
];
