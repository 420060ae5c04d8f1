// What a call from JavaScript adds over the same operator from Rust, on one device in one
// page (scripts/npm_bench.py builds the package with the `bench` feature, whose Rust loops
// are `Operator.benchDispatchFromRust` and `Context.benchRunFromRust`):
//   dispatch: `operator.dispatch` on package buffers, COUNT times (the CPU's time until the
//             last call returns: "submit"), then the queue drained ("done"), against the
//             same record + submit loop in Rust;
//   run:      `await context.run(desc, typedArrays)` RUNS times in a row, against
//             `dml_wgsl::Context::run` in Rust on the same bytes.
// Each pair alternates (JS, Rust) over ROUNDS rounds; the median round is reported.
import { Context } from 'dml-wgsl';

const COUNT = 500;
const RUNS = 100;
const ROUNDS = 5;
const state = { state: 'running', adapter: '', userAgent: navigator.userAgent, rows: [] };
window.benchResults = state;

function random(length, bound) {
  const values = new Int32Array(length);
  let seed = 12345;
  for (let i = 0; i < length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    values[i] = seed % bound;
  }
  return values;
}

const tensor = (dataType, sizes) => ({ dataType, sizes });
const floats = (length) => Float32Array.from(random(length, 1000), (v) => v / 8);

// Small enough that the call, not the GPU's work, is what is timed; one larger for scale.
const WORKLOADS = [
  {
    name: 'gather_rows_16k (Gather of 256 rows of 16 float32 from 1024)',
    desc: { type: 'gather', input: tensor('float32', [1024, 16]), indices: tensor('int32', [1, 256]),
      output: tensor('float32', [256, 16]), axis: 0, indexDimensions: 1 },
    inputs: () => [floats(1024 * 16), random(256, 1024)],
  },
  {
    name: 'scatter_elements_4k (1024 float32 updates into 4096, Int32 indices)',
    desc: { type: 'scatterElements', input: tensor('float32', [4096]), indices: tensor('int32', [1024]),
      updates: tensor('float32', [1024]), output: tensor('float32', [4096]), axis: 0 },
    inputs: () => [floats(4096), random(1024, 4096), floats(1024)],
  },
  {
    name: 'gather_rows_1m (Gather of 2048 rows of 64 float32 from 4096: 512 KiB out)',
    desc: { type: 'gather', input: tensor('float32', [4096, 64]), indices: tensor('int32', [1, 2048]),
      output: tensor('float32', [2048, 64]), axis: 0, indexDimensions: 1 },
    inputs: () => [floats(4096 * 64), random(2048, 4096)],
  },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(context, workload) {
  const inputs = workload.inputs();
  const operator = await context.compile(workload.desc);
  const buffers = inputs.map((data) => context.createBuffer(data));
  const output = context.createBuffer(operator.outputSize);
  const times = { jsSubmit: [], rustSubmit: [], jsDispatch: [], rustDispatch: [], jsRun: [], rustRun: [] };
  // Warm: pipelines, bind groups, the first map.
  operator.dispatch(buffers, output);
  await operator.benchDispatchFromRust(buffers, output, 1);
  await context.run(workload.desc, inputs);
  await context.benchRunFromRust(workload.desc, inputs, 1);
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    for (let i = 0; i < COUNT; i++) operator.dispatch(buffers, output);
    times.jsSubmit.push(((performance.now() - start) * 1000) / COUNT);
    await context.queue.onSubmittedWorkDone();
    times.jsDispatch.push(((performance.now() - start) * 1000) / COUNT);
    const [submitted, done] = await operator.benchDispatchFromRust(buffers, output, COUNT);
    times.rustSubmit.push((submitted * 1000) / COUNT);
    times.rustDispatch.push((done * 1000) / COUNT);
    start = performance.now();
    for (let i = 0; i < RUNS; i++) await context.run(workload.desc, inputs);
    times.jsRun.push((performance.now() - start) / RUNS);
    times.rustRun.push((await context.benchRunFromRust(workload.desc, inputs, RUNS)) / RUNS);
  }
  for (const buffer of [...buffers, output]) buffer.destroy();
  operator.free();
  return {
    workload: workload.name,
    jsSubmitUs: median(times.jsSubmit),
    rustSubmitUs: median(times.rustSubmit),
    jsDispatchUs: median(times.jsDispatch),
    rustDispatchUs: median(times.rustDispatch),
    jsRunMs: median(times.jsRun),
    rustRunMs: median(times.rustRun),
  };
}

async function main() {
  try {
    const context = await Context.create();
    state.adapter = JSON.stringify(context.adapterInfo);
    for (const workload of WORKLOADS) state.rows.push(await measure(context, workload));
    state.state = 'done';
  } catch (error) {
    state.error = String(error && error.stack ? error.stack : error);
    state.state = 'failed';
  }
  document.getElementById('log').textContent = JSON.stringify(state, null, 2);
}

main();
