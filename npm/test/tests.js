// The installed package's test, run in a page (page.html) by scripts/npm_test.py: every case
// of operators.js through `run` and through `compile` + `dispatch` on package buffers (with
// guard bands), the README's snippets, and the API's checks on buffers and bindings.
// Results go to `window.testResults` ({ state, passed, failed }) for the driver to read.
import { Context, DeviceBuffer, DmlError, Operator } from 'dml-wgsl';
import { cases } from './operators.js';

const results = { state: 'running', adapter: '', passed: [], failed: [] };
window.testResults = results;
const log = document.getElementById('log');

// JSON, with BigInts written as their digits followed by n.
function show(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

async function check(name, body) {
  try {
    await body();
    results.passed.push(name);
  } catch (error) {
    results.failed.push(`${name}: ${error && error.stack ? error.stack : error}`);
  }
}

function bytesOf(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

// Bit for bit: the same class, length and bytes.
function sameBits(actual, expected, what) {
  const [a, e] = [actual.constructor.name, expected.constructor.name];
  if (a !== e) throw new Error(`${what}: a ${a}, not a ${e}`);
  const [got, want] = [bytesOf(actual), bytesOf(expected)];
  if (got.length !== want.length) {
    throw new Error(`${what}: ${got.length} bytes, not ${want.length}: ${show(Array.from(actual))}`);
  }
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) {
      throw new Error(`${what}: byte ${i} is ${got[i]}, not ${want[i]}; got ${show(Array.from(actual))}, ` +
        `expected ${show(Array.from(expected))}`);
    }
  }
}

// A DmlError (an Error) whose properties include every one of `want`'s.
function checkError(error, want, what) {
  if (!(error instanceof DmlError) || !(error instanceof Error)) {
    throw new Error(`${what}: threw ${error}, not a DmlError`);
  }
  if (error.name !== 'DmlError' || !error.message || typeof error.fields !== 'object') {
    throw new Error(`${what}: name ${error.name}, message ${show(error.message)}, fields ${show(error.fields)}`);
  }
  for (const [key, value] of Object.entries(want)) {
    if (show(error[key]) !== show(value)) {
      throw new Error(`${what}: ${key} is ${show(error[key])}, not ${show(value)} (${error.message})`);
    }
    if (key !== 'kind' && show(error.fields[key]) !== show(value)) {
      throw new Error(`${what}: fields.${key} is ${show(error.fields[key])}, not ${show(value)}`);
    }
  }
}

async function rejects(promise, want, what) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  if (error === undefined) throw new Error(`${what}: resolved; a DmlError of kind ${want.kind} was due`);
  checkError(error, want, what);
}

function throws(body, want, what) {
  let error;
  try {
    body();
  } catch (e) {
    error = e;
  }
  if (error === undefined) throw new Error(`${what}: returned; a DmlError of kind ${want.kind} was due`);
  checkError(error, want, what);
}

const GUARD = 256; // bytes on each side of an output binding, and its offset alignment
const GUARD_BYTE = 0xa5;

// The case through compile + dispatch on package buffers: the output bound at an offset inside
// a buffer of guard bytes, which must stay as they were. (`run` gives bytes that no element
// covers as 0; `dispatch` leaves them as they were, here 0.)
async function dispatchCase(context, c) {
  const operator = await context.compile(c.desc);
  if (!(operator instanceof Operator)) throw new Error('compile did not resolve to an Operator');
  const inputs = c.inputs.map((data, i) => (operator.inputSizes[i] === 0 ? null : context.createBuffer(data)));
  const size = operator.outputSize;
  // Guard bytes around the binding; zeros inside it, where bytes that no element covers stay.
  const filled = new Uint8Array(GUARD + size + GUARD).fill(GUARD_BYTE);
  filled.fill(0, GUARD, GUARD + size);
  const output = context.createBuffer(filled);
  operator.dispatch(inputs, size === 0 ? null : { buffer: output, offset: GUARD });
  const all = await output.read();
  for (let i = 0; i < all.length; i++) {
    if ((i < GUARD || i >= GUARD + size) && all[i] !== GUARD_BYTE) {
      throw new Error(`byte ${i - GUARD} of the output binding's guard bands was written`);
    }
  }
  const want = bytesOf(c.expected);
  const got = all.subarray(GUARD, GUARD + want.length);
  sameBits(new c.expected.constructor(got.slice().buffer), c.expected, 'dispatched output');
  for (let i = GUARD + want.length; i < GUARD + size; i++) {
    if (all[i] !== 0) throw new Error(`output byte ${i - GUARD}, past the elements, is ${all[i]}, not 0`);
  }
  if (c.expected.length > 0) await operator.checkStatus();
  for (const buffer of inputs) buffer?.destroy();
  output.destroy();
  operator.free();
}

// An error case through compile + dispatch: an index out of range is reported by
// checkStatus; a desc error rejects compile.
async function dispatchErrorCase(context, c) {
  if (c.error.kind === 'IndexOutOfRange' || c.error.kind === 'WriteIndexOutOfRange') {
    const operator = await context.compile(c.desc);
    const inputs = c.inputs.map((data) => context.createBuffer(data));
    const output = context.createBuffer(Math.max(operator.outputSize, 4));
    operator.dispatch(inputs, output);
    await rejects(operator.checkStatus(), c.error, 'checkStatus');
  } else {
    await rejects(context.compile(c.desc), c.error, 'compile');
  }
}

// The README's snippets (readme-N.js, written by the driver with readme.json: each snippet's
// console.log lines and what their comments say they print).
async function readmeSnippets() {
  const snippets = await (await fetch('./readme.json')).json();
  if (snippets.length === 0) throw new Error('no README snippets');
  for (const { file, expected } of snippets) {
    await check(`README snippet ${file}`, async () => {
      const printed = [];
      const original = console.log;
      console.log = (...args) => {
        printed.push(args.map(show).join(' '));
        original(...args);
      };
      try {
        await import(`./${file}`);
      } finally {
        console.log = original;
      }
      if (expected.length === 0 || show(printed) !== show(expected)) {
        throw new Error(`printed ${show(printed)}, the README says ${show(expected)}`);
      }
    });
  }
}

// The API around buffers and bindings.
async function apiChecks(context) {
  const desc = {
    type: 'scatterElements',
    input: { dataType: 'int32', sizes: [6] },
    indices: { dataType: 'uint32', sizes: [2] },
    updates: { dataType: 'int32', sizes: [2] },
    output: { dataType: 'int32', sizes: [6] },
    axis: 0,
  };
  const scatter = await context.compile(desc);
  await check('api: an operator reports its bindings', () => {
    if (show(scatter.inputSizes) !== show([24, 8, 8]) || scatter.outputSize !== 24) {
      throw new Error(`inputSizes ${show(scatter.inputSizes)}, outputSize ${scatter.outputSize}`);
    }
    if (show(scatter.inputNames) !== show(['input', 'indices', 'updates']) || !scatter.hasStatus) {
      throw new Error(`inputNames ${show(scatter.inputNames)}, hasStatus ${scatter.hasStatus}`);
    }
  });
  await check('api: a scatter in place (input bound to the output)', async () => {
    const data = context.createBuffer(new Int32Array([1, 2, 3, 4, 5, 6]));
    if (!(data instanceof DeviceBuffer) || data.size !== 24) throw new Error(`size ${data.size}`);
    const indices = context.createBuffer(new Uint32Array([5, 0]));
    const updates = context.createBuffer(new Int32Array([-7, 9]));
    scatter.dispatch([data, indices, updates], data);
    sameBits(await data.read('int32'), new Int32Array([9, 2, 3, 4, 5, -7]), 'in place');
    // Dispatched on GPUBuffers and a { buffer, offset } binding too.
    const output = context.createBuffer(512);
    scatter.dispatch([data.gpuBuffer, indices.gpuBuffer, { buffer: updates }], { buffer: output, offset: 256 });
    const all = await output.read('int32');
    sameBits(all.subarray(64, 70).slice(), new Int32Array([9, 2, 3, 4, 5, -7]), 'at an offset');
  });
  await check('api: writes and reads through the queue, in order', async () => {
    const buffer = context.createBuffer(16);
    buffer.write(new Float32Array([1.5, -2]), 8);
    context.queue.writeBuffer(buffer.gpuBuffer, 0, new Float32Array([3]));
    sameBits(await buffer.read('float32'), new Float32Array([3, 0, 1.5, -2]), 'read');
    sameBits(await buffer.read(), new Uint8Array(new Float32Array([3, 0, 1.5, -2]).buffer), 'raw read');
  });
  await check('api: misuse is a DmlError, never a trap', async () => {
    const buffer = context.createBuffer(8);
    throws(() => buffer.write(new Uint8Array(4), 2), { kind: 'InvalidArgument', field: 'byteOffset' }, 'write at 2');
    throws(() => buffer.write(new Uint8Array(3)), { kind: 'InvalidArgument', field: 'data' }, 'write 3 bytes');
    throws(() => buffer.write(new Uint8Array(12)), { kind: 'InvalidArgument', field: 'data' }, 'write past the end');
    await rejects(buffer.read('float8'), { kind: 'InvalidArgument', field: 'dataType' }, 'read a made-up type');
    const small = context.createBuffer(8);
    const input = context.createBuffer(24);
    throws(() => scatter.dispatch([input, small, small], small), { kind: 'BindingTooSmall', tensor: 'output' }, 'small output');
    throws(() => scatter.dispatch([input, small], input), { kind: 'InputCount', expected: 3, actual: 2 }, 'two inputs');
    const foreign = context.device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    throws(() => scatter.dispatch([input, small, small], foreign), { kind: 'InvalidArgument', field: 'output' }, 'a GPUBuffer made elsewhere');
    input.destroy();
    throws(() => scatter.dispatch([input, small, small], context.createBuffer(24)),
      { kind: 'InvalidArgument', field: 'inputs[0] (input)' }, 'a destroyed buffer');
    await rejects(context.run(desc, [new Int32Array(6), new Uint32Array(2)]), { kind: 'InputCount', expected: 3, actual: 2 }, 'run with two inputs');
    await rejects(context.run({ ...desc, axis: 1.5 }, []), { kind: 'InvalidArgument', field: 'desc.axis' }, 'a fractional axis');
    await rejects(context.run(null, []), { kind: 'InvalidArgument', field: 'desc.type' }, 'no desc');
    await rejects(context.run({ ...desc, input: { dataType: 'int32', sizes: [6], strides: 'x' } }, []),
      { kind: 'InvalidArgument', field: 'desc.input.strides' }, 'strides not an array');
  });
}

async function main() {
  try {
    const context = await Context.create();
    results.adapter = show(context.adapterInfo);
    if (!(context.device instanceof GPUDevice) || !(context.queue instanceof GPUQueue)) {
      throw new Error('context.device and context.queue are not a GPUDevice and a GPUQueue');
    }
    if (cases.length === 0) throw new Error('operators.js has no cases');
    for (const c of cases) {
      await check(`run: ${c.name}`, async () => {
        if (c.error) await rejects(context.run(c.desc, c.inputs), c.error, 'run');
        else sameBits(await context.run(c.desc, c.inputs), c.expected, 'output');
      });
      const inputsOnly = c.error && String(c.error.field ?? '').startsWith('inputs');
      if (!inputsOnly) {
        await check(`dispatch: ${c.name}`, () => (c.error ? dispatchErrorCase(context, c) : dispatchCase(context, c)));
      }
    }
    await readmeSnippets();
    await apiChecks(context);
  } catch (error) {
    results.failed.push(`the test page: ${error && error.stack ? error.stack : error}`);
  }
  log.textContent = [`adapter: ${results.adapter}`, ...results.failed.map((f) => `FAILED ${f}`),
    `${results.passed.length} passed, ${results.failed.length} failed`].join('\n');
  results.state = 'done';
}

main();
