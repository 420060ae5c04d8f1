// dml-wgsl for JavaScript: DirectML's tensor data-movement operators on WebGPU.
// Loads the WebAssembly module (next to this file) when imported, and defines DmlError, the
// class every error is thrown as. The API is declared, with its documentation, in index.d.ts.
import init, { Context, Operator, DeviceBuffer, setErrorClass } from './wasm/dml_wgsl.js';

/**
 * An error of the library: `kind` names the rule's kind (`IndexOutOfRange`,
 * `InvalidArgument`, `AxisOutOfRange`, ...), and each of the Rust error's fields is a
 * property (`tensor`, `field`, `value`, `rule`, ...), also gathered in `fields`.
 */
export class DmlError extends Error {
  constructor(message, kind, fields) {
    super(message);
    this.name = 'DmlError';
    this.kind = kind;
    this.fields = fields;
    for (const [key, value] of Object.entries(fields)) {
      if (!(key in this)) this[key] = value;
    }
  }
}

await init();
setErrorClass(DmlError);

export { Context, Operator, DeviceBuffer };
