/// <reference types="@webgpu/types" />
/// <reference lib="esnext.disposable" />
// dml-wgsl for JavaScript and TypeScript. The classes and types are the WebAssembly module's
// (wasm/dml_wgsl.d.ts, with their documentation); DmlError is index.js's.

export { Context, Operator, DeviceBuffer } from './wasm/dml_wgsl.js';
export type {
  DataType, TensorDesc, DuplicateMode, Reduction, OutOfRange, TensorScatterMode,
  SliceDesc, Slice1Desc, ScatterElementsDesc, ScatterNdDesc, GatherDesc, GatherElementsDesc,
  GatherNdDesc, TensorScatterDesc, OperatorDesc, TensorData, TypedArray, Binding,
  BufferBinding, AdapterInfo,
} from './wasm/dml_wgsl.js';

/**
 * An error of the library: `kind` names the rule's kind (`IndexOutOfRange`,
 * `InvalidArgument`, `AxisOutOfRange`, ...), and each of the Rust error's fields is a
 * property (`tensor`, `field`, `value`, `rule`, ...), also gathered in `fields`.
 */
export declare class DmlError extends Error {
  readonly name: 'DmlError';
  /** The kind of error: the Rust error's variant, or `InvalidArgument` for an argument of the wrong shape. */
  readonly kind: string;
  /** The error's fields by name (camelCase): numbers, strings, arrays, BigInts past 2^53. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}
