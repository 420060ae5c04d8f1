/** A tensor element type: DirectML's eleven and bfloat16, by WebNN's names. */
export type DataType =
  | 'float64' | 'float32' | 'float16' | 'bfloat16'
  | 'int64' | 'int32' | 'int16' | 'int8'
  | 'uint64' | 'uint32' | 'uint16' | 'uint8';

/**
 * A tensor's layout (DirectML's DML_BUFFER_TENSOR_DESC): 1 to 8 sizes (a size may be 0),
 * element strides (absent: packed, the last dimension fastest; 0 broadcasts an input), and
 * the total byte size (absent: the layout's minimum, rounded up to a multiple of 4).
 */
export interface TensorDesc {
  dataType: DataType;
  sizes: number[];
  strides?: number[];
  totalTensorSizeInBytes?: number | bigint;
}

/** Where several updates aim at one element: any one of them wins (default), or they apply in the updates' row-major order. */
export type DuplicateMode = 'anyUpdate' | 'inOrder';
/** A scatter's combination of an update with its target (default `'none'`: the update replaces it). */
export type Reduction = 'none' | 'add' | 'mul' | 'min' | 'max';
/** What an out-of-range index does: skipped and reported (default), or clamped into range. */
export type OutOfRange = 'report' | 'clamp';
/** TensorScatter's writes: at `writeIndices` onwards (default), or wrapping around the axis. */
export type TensorScatterMode = 'linear' | 'circular';

/** DML_SLICE: `output[c] = input[offsets + strides * c]`. */
export interface SliceDesc {
  type: 'slice';
  input: TensorDesc;
  output: TensorDesc;
  offsets: number[];
  sizes: number[];
  strides: number[];
}

/** DML_SLICE1: a window of the input walked with signed, non-zero strides. */
export interface Slice1Desc {
  type: 'slice1';
  input: TensorDesc;
  output: TensorDesc;
  inputWindowOffsets: number[];
  inputWindowSizes: number[];
  inputWindowStrides: number[];
}

/** DML_SCATTER (ONNX ScatterElements): `output = input`, then each update written along `axis`. */
export interface ScatterElementsDesc {
  type: 'scatterElements';
  input: TensorDesc;
  indices: TensorDesc;
  updates: TensorDesc;
  output: TensorDesc;
  axis: number;
  duplicates?: DuplicateMode;
  reduction?: Reduction;
  outOfRange?: OutOfRange;
}

/** DML_SCATTER_ND: `output = input`, then slices written at index tuples. */
export interface ScatterNdDesc {
  type: 'scatterNd';
  input: TensorDesc;
  indices: TensorDesc;
  updates: TensorDesc;
  output: TensorDesc;
  inputDimensionCount: number;
  indicesDimensionCount: number;
  duplicates?: DuplicateMode;
  reduction?: Reduction;
  outOfRange?: OutOfRange;
}

/** DML_GATHER: slices of the input along `axis` at each index. */
export interface GatherDesc {
  type: 'gather';
  input: TensorDesc;
  indices: TensorDesc;
  output: TensorDesc;
  axis: number;
  indexDimensions: number;
  outOfRange?: OutOfRange;
}

/** DML_GATHER_ELEMENTS: `output[c] = input[c with c[axis] = indices[c]]`. */
export interface GatherElementsDesc {
  type: 'gatherElements';
  input: TensorDesc;
  indices: TensorDesc;
  output: TensorDesc;
  axis: number;
  outOfRange?: OutOfRange;
}

/** DML_GATHER_ND1: slices of the input at index tuples, with batch dimensions. */
export interface GatherNdDesc {
  type: 'gatherNd';
  input: TensorDesc;
  indices: TensorDesc;
  output: TensorDesc;
  inputDimensionCount: number;
  indicesDimensionCount: number;
  batchDimensionCount: number;
  outOfRange?: OutOfRange;
}

/** ONNX TensorScatter: a key/value cache update, one write index per batch entry (absent: 0). */
export interface TensorScatterDesc {
  type: 'tensorScatter';
  input: TensorDesc;
  updates: TensorDesc;
  writeIndices?: TensorDesc | null;
  output: TensorDesc;
  axis: number;
  mode?: TensorScatterMode;
  outOfRange?: OutOfRange;
}

/** Any operator, told apart by `type`. */
export type OperatorDesc =
  | SliceDesc | Slice1Desc | ScatterElementsDesc | ScatterNdDesc
  | GatherDesc | GatherElementsDesc | GatherNdDesc | TensorScatterDesc;

/** A tensor's data: a TypedArray of its data type, or raw bytes. */
export type TensorData = ArrayBuffer | ArrayBufferView;

/** What `run` and `DeviceBuffer.read` resolve to. */
export type TypedArray =
  | Float64Array | Float32Array | BigInt64Array | BigUint64Array
  | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** A buffer to dispatch on: a DeviceBuffer, its GPUBuffer, or a range of either. */
export type Binding = DeviceBuffer | GPUBuffer | BufferBinding;

/** A range of a buffer: `offset` (default 0) and `size` (default: to the buffer's end) in bytes. */
export interface BufferBinding {
  buffer: DeviceBuffer | GPUBuffer;
  offset?: number;
  size?: number;
}

/** The adapter as wgpu reports it. */
export interface AdapterInfo {
  backend: string;
  deviceType: string;
  name: string;
  vendor: number;
  device: number;
  driver: string;
  driverInfo: string;
}
