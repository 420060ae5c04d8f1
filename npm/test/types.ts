// Type-checked (not run) by scripts/npm_test.py with `tsc -p tsconfig.json` against the
// installed package's declarations: what a TypeScript user writes compiles, and what the
// declarations must refuse is marked @ts-expect-error (tsc fails if it compiles).
import {
  Context, DeviceBuffer, DmlError, Operator,
  type DataType, type OperatorDesc, type ScatterElementsDesc, type TensorDesc, type TypedArray,
} from 'dml-wgsl';

const tensor = (dataType: DataType, sizes: number[]): TensorDesc => ({ dataType, sizes });

export async function tour(): Promise<number> {
  const context: Context = await Context.create();
  const device: GPUDevice = context.device;
  const queue: GPUQueue = context.queue;
  const backend: string = context.adapterInfo.backend;

  const scatter: ScatterElementsDesc = {
    type: 'scatterElements',
    input: tensor('float32', [4]),
    indices: tensor('int64', [2]),
    updates: tensor('float32', [2]),
    output: tensor('float32', [4]),
    axis: 0,
    reduction: 'add',
    duplicates: 'inOrder',
    outOfRange: 'clamp',
  };
  const output: TypedArray = await context.run(scatter, [
    new Float32Array(4), new BigInt64Array([0n, -1n]), new Float32Array([1, 2]),
  ]);
  const bytes: Uint8Array = await context.runBytes(scatter, [new ArrayBuffer(16), new Uint8Array(16), new DataView(new ArrayBuffer(8))]);

  const descs: OperatorDesc[] = [
    { type: 'slice', input: tensor('uint8', [8]), output: tensor('uint8', [4]), offsets: [1], sizes: [4], strides: [1] },
    { type: 'slice1', input: tensor('float16', [8]), output: tensor('float16', [4]), inputWindowOffsets: [0], inputWindowSizes: [8], inputWindowStrides: [-2] },
    { type: 'scatterNd', input: tensor('int32', [4]), indices: tensor('uint32', [1, 1]), updates: tensor('int32', [1]), output: tensor('int32', [4]), inputDimensionCount: 1, indicesDimensionCount: 2 },
    { type: 'gather', input: tensor('bfloat16', [4]), indices: tensor('int32', [2]), output: tensor('bfloat16', [2]), axis: 0, indexDimensions: 1 },
    { type: 'gatherElements', input: tensor('float64', [4]), indices: tensor('int32', [2]), output: tensor('float64', [2]), axis: 0 },
    { type: 'gatherNd', input: tensor('uint64', [4]), indices: tensor('int32', [2, 1]), output: tensor('uint64', [2]), inputDimensionCount: 1, indicesDimensionCount: 2, batchDimensionCount: 0 },
    { type: 'tensorScatter', input: tensor('float32', [1, 4, 2]), updates: tensor('float32', [1, 1, 2]), writeIndices: tensor('int64', [1]), output: tensor('float32', [1, 4, 2]), axis: 1, mode: 'circular' },
    { type: 'tensorScatter', input: { dataType: 'int8', sizes: [1, 4], strides: [4, 1], totalTensorSizeInBytes: 8n }, updates: tensor('int8', [1, 1]), output: tensor('int8', [1, 4]), axis: 1 },
  ];
  const operators: Operator[] = await Promise.all(descs.map((desc) => context.compile(desc)));
  const buffer: DeviceBuffer = context.createBuffer(1024);
  const gpuBuffer: GPUBuffer = buffer.gpuBuffer;
  buffer.write(new Uint32Array([1, 2]), 0);
  operators[0].dispatch([buffer], { buffer, offset: 256, size: 4 });
  operators[2].dispatch([gpuBuffer, null, { buffer: gpuBuffer }], buffer);
  await operators[2].checkStatus();
  const sizes: number[] = operators[2].inputSizes;
  const read: TypedArray = await buffer.read('float32');
  const raw: TypedArray = await buffer.read();
  queue.submit([device.createCommandEncoder().finish()]);

  try {
    await context.run(descs[0], [new Uint8Array(8)]);
  } catch (error) {
    if (error instanceof DmlError) {
      const kind: string = error.kind;
      const fields: Readonly<Record<string, unknown>> = error.fields;
      const message: string = error.message;
      console.log(kind, fields, message, error.position);
    }
  }

  // @ts-expect-error: 'float' is not a data type
  tensor('float', [1]);
  // @ts-expect-error: a scatter needs its axis
  const noAxis: ScatterElementsDesc = { type: 'scatterElements', input: tensor('int32', [1]), indices: tensor('int32', [1]), updates: tensor('int32', [1]), output: tensor('int32', [1]) };
  // @ts-expect-error: reductions are 'none', 'add', 'mul', 'min' or 'max'
  const badReduction: ScatterElementsDesc = { ...scatter, reduction: 'sum' };
  // @ts-expect-error: 'sliceND' is no operator type
  const badType: OperatorDesc = { type: 'sliceND', input: tensor('int32', [1]), output: tensor('int32', [1]) };
  // @ts-expect-error: inputs are TensorData, not numbers
  await context.run(scatter, [[1, 2, 3]]);
  // @ts-expect-error: Context is made by Context.create()
  new Context();
  return output.length + bytes.length + sizes.length + read.length + raw.length + backend.length
    + Number(noAxis !== badReduction) + Number(badType !== scatter);
}
