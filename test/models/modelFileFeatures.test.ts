/**
 * A model file as the converter writes a multi-signature Keras model: two subgraphs each with
 * a SignatureDef (subgraph 0 is the one TFLite Micro runs), `metadata` entries with their own
 * buffers (min_runtime_version, CONVERSION_METADATA) also listed in `metadata_buffer`, and
 * deduplicated buffers: one buffer read by two constants of other shapes and quantizations
 * (conv weights [8,1,1,4] and FULLY_CONNECTED weights [4,8]) and zero biases sharing one.
 * float32 and int8: LiteRT agrees, and the generated C (host and accel) gives the interpreter's bytes.
 */
import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { ConstantNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { parsePoolsJson } from '../../src/usmp/pools';
import { seededRandom } from '../../src/util/random';
import { expectRunsByteExact } from '../e2e/harness';
import { elementsOf, firstMismatch, runLiteRtBatch } from '../oracle/litert';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(AccelBackend);

type Mode = 'float32' | 'int8';

function values(n: number, seed: number, a: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => Math.round((r() * 2 - 1) * 127) * (a / 127));
}

/** The model, and its input (int8: 0.02 x the float values). */
function multiSignatureModel(mode: Mode): { model: Uint8Array; input: Uint8Array } {
  const w = new TfliteWriter('multi-signature model');
  const q8 = mode === 'int8';
  const act = (scale: number, zp = 0): WriterQuantization | undefined => (q8 ? { scale: [scale], zeroPoint: [zp] } : undefined);
  const dtype = q8 ? 'int8' : 'float32';
  const weights = (vals: number[], scale: number) => (q8 ? new Int8Array(vals.map((v) => Math.round(v / scale))) : new Float32Array(vals));
  const bias = (n: number, scale: number) => ({ dtype: q8 ? ('int32' as const) : ('float32' as const), quant: q8 ? { scale: [scale], zeroPoint: [0] } : undefined, data: q8 ? new Int32Array(n) : new Float32Array(n) });

  const x = w.addInput({ name: 'serving_default_input_1:0', shape: [1, 4, 4, 4], dtype, quant: act(0.02) });
  // Weights whose bytes the FULLY_CONNECTED below reuses (another shape, another scale).
  const sharedVals = values(32, 1, 0.5);
  const w1 = w.addConstant({ name: 'model/conv/Conv2D', shape: [8, 1, 1, 4], dtype, quant: q8 ? { scale: [0.5 / 127], zeroPoint: [0] } : undefined, data: weights(sharedVals, 0.5 / 127) });
  const zeros8 = w.addConstant({ name: 'model/conv/BiasAdd/ReadVariableOp', shape: [8], ...bias(8, 0.02 * (0.5 / 127)) });
  const y1 = w.addTensor({ name: 'model/conv/Relu', shape: [1, 4, 4, 8], dtype, quant: act(0.01, -128) });
  w.addOperator({ op: 'CONV_2D', inputs: [x, w1, zeros8], outputs: [y1], options: tfliteOptions.conv2d({ padding: 'SAME', activation: 'RELU' }) });

  const w2 = w.addConstant({ name: 'model/conv_1/Conv2D', shape: [8, 1, 1, 8], dtype, quant: q8 ? { scale: [0.4 / 127], zeroPoint: [0] } : undefined, data: weights(values(64, 2, 0.4), 0.4 / 127) });
  // The converter keeps one buffer for identical zero biases (here: the same bytes as conv's, at another scale).
  const zeros8b = w.addTensor({ name: 'model/conv_1/BiasAdd/ReadVariableOp', shape: [8], dtype: bias(8, 0).dtype, quant: q8 ? { scale: [0.01 * (0.4 / 127)], zeroPoint: [0] } : undefined, bufferOf: zeros8 });
  const y2 = w.addTensor({ name: 'StatefulPartitionedCall:1', shape: [1, 4, 4, 8], dtype, quant: act(0.02, 3) });
  w.addOperator({ op: 'CONV_2D', inputs: [y1, w2, zeros8b], outputs: [y2], options: tfliteOptions.conv2d({ padding: 'SAME' }) });

  const axes = w.addConstant({ name: 'model/gap/Mean/reduction_indices', shape: [2], dtype: 'int32', data: [1, 2] });
  const gap = w.addTensor({ name: 'model/gap/Mean', shape: [1, 8], dtype, quant: act(0.01, -128) });
  w.addOperator({ op: 'MEAN', inputs: [y1, axes], outputs: [gap], options: tfliteOptions.reducer(false) });
  const wfc = w.addTensor({ name: 'model/dense/MatMul', shape: [4, 8], dtype, quant: q8 ? { scale: [0.3 / 127], zeroPoint: [0] } : undefined, bufferOf: w1 });
  const out = w.addTensor({ name: 'StatefulPartitionedCall:0', shape: [1, 4], dtype, quant: act(0.005, 2) });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [gap, wfc, -1], outputs: [out], options: tfliteOptions.fullyConnected() });
  w.markOutput(out);
  w.markOutput(y2);

  // A second signature ("encode"): its own subgraph, which TFLite Micro does not run.
  const enc = w.addSubgraph('encode');
  const ex = enc.addInput({ name: 'encode_x:0', shape: [1, 8], dtype: 'float32' });
  const ew = enc.addConstant({ name: 'encode/dense/MatMul', shape: [3, 8], dtype: 'float32', data: new Float32Array(values(24, 3, 1)) });
  const ey = enc.addTensor({ name: 'encode/Identity:0', shape: [1, 3], dtype: 'float32' });
  enc.addOperator({ op: 'FULLY_CONNECTED', inputs: [ex, ew, -1], outputs: [ey], options: tfliteOptions.fullyConnected({ activation: 'RELU' }) });
  const ez = enc.addTensor({ name: 'encode/Identity_1:0', shape: [1, 3], dtype: 'float32' });
  enc.addOperator({ op: 'LOGISTIC', inputs: [ey], outputs: [ez] });
  enc.markOutput(ez);

  w.addSignatureDef({ key: 'serving_default', subgraphIndex: 0, inputs: { input_1: x }, outputs: { output_0: out, output_1: y2 } });
  w.addSignatureDef({ key: 'encode', subgraphIndex: 1, inputs: { x: ex }, outputs: { y: ez } });
  const runtimeVersion = new Uint8Array(16);
  runtimeVersion.set(Buffer.from('1.14.0'));
  w.addMetadata('min_runtime_version', runtimeVersion);
  w.addMetadata('CONVERSION_METADATA', Uint8Array.from([0x10, 0, 0, 0, 0x0c, 0, 0x18, 0, 0x08, 0, 0x04, 0]));

  const xs = values(64, 4, 2);
  const input = q8 ? new Uint8Array(Int8Array.from(xs, (v) => Math.max(-128, Math.min(127, Math.round(v / 0.02)))).buffer) : new Uint8Array(new Float32Array(xs).buffer);
  return { model: w.finish(), input };
}

describe('a multi-signature model file with metadata and shared buffers', () => {
  const MODES: readonly Mode[] = ['float32', 'int8'];
  const built = MODES.map((m) => multiSignatureModel(m));
  const lite = runLiteRtBatch(built.map((b) => ({ model: b.model, inputs: [b.input] })));

  describe.each(MODES.map((m, i) => [m, i] as const))('%s', (mode, i) => {
    const { model, input } = built[i];
    const graph = importTflite(model, 'multi_signature.tflite');
    const expected = interpret(graph, [input]);
    const fn = graph.functions.get(MAIN_FUNCTION)!;

    it('imports subgraph 0 with each constant of a shared buffer at its own type', () => {
      expect(fn.attrs.tflite_output_names).toEqual(['StatefulPartitionedCall:0', 'StatefulPartitionedCall:1']);
      const constants = new Map(fn.nodes.filter((n): n is ConstantNode => n.kind === 'constant').map((n) => [n.name, n]));
      const conv = constants.get('model/conv/Conv2D')!;
      const dense = constants.get('model/dense/MatMul')!;
      expect(conv.type.shape).toEqual([8, 1, 1, 4]);
      expect(dense.type.shape).toEqual([4, 8]);
      expect(Buffer.from(dense.data).equals(Buffer.from(conv.data))).toBe(true);
      if (mode === 'int8') {
        expect(conv.type.quant?.scale).toEqual([Math.fround(0.5 / 127)]);
        expect(dense.type.quant?.scale).toEqual([Math.fround(0.3 / 127)]);
      }
    });

    it('agrees with LiteRT', () => {
      const r = lite[i];
      if ('error' in r) throw new Error(r.error);
      expect(r.outputs.length).toBe(2);
      expected.forEach((e, k) => {
        expect(firstMismatch(mode, e, r.outputs[k].data, { lsb: 1, rel: 1e-5, abs: 1e-5 })).toBeNull();
        // Not saturated: the comparison checks something.
        expect(new Set(elementsOf(mode, e)).size).toBeGreaterThan(2);
      });
    });

    it.each(['host_only', 'accel'])('compiles for %s and runs byte-exact under gcc', (backend) => {
      const pools = backend === 'accel' ? parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools').map((p) => ({ ...p, internal: false })) : undefined;
      const result = compileModel(graph, { backend, registry, pools, ioInWorkspace: backend === 'accel', timeBudgetMs: 200 });
      expect(result.access.violations).toEqual([]);
      expectRunsByteExact(result, [input], expected, ['-O0']);
    });
  });

  it('a signature subgraph TFLite Micro does not run may hold what uma-ts cannot (a Flex op, WHILE, float64): subgraph 0 imports and runs', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'float32' });
    const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    const train = w.addSubgraph('train');
    const a = train.addInput({ name: 'a', shape: [1, 4], dtype: 'float64' });
    const g = train.addTensor({ name: 'g', shape: [1, 4], dtype: 'float64' });
    train.addOperator({ op: 'CUSTOM', customCode: 'FlexGradientTape', inputs: [a], outputs: [g] });
    const c = train.addTensor({ name: 'c', shape: [1, 4], dtype: 'float64' });
    train.addOperator({ op: 'WHILE', inputs: [g], outputs: [c] });
    train.markOutput(c);
    w.addSignatureDef({ key: 'train', subgraphIndex: 1, inputs: { a }, outputs: { c } });
    w.addSignatureDef({ key: 'serving_default', subgraphIndex: 0, inputs: { x }, outputs: { y } });
    const [out] = interpret(importTflite(w.finish(), 'train_and_serve.tflite'), [new Uint8Array(new Float32Array([1, -2, 3, -4]).buffer)]);
    expect(Array.from(new Float32Array(out.slice().buffer))).toEqual([1, 0, 3, 0]);
  });

  it('the writer refuses a shared buffer of a tensor without one', () => {
    const w = new TfliteWriter();
    const a = w.addTensor({ name: 'a', shape: [2], dtype: 'float32' });
    w.addTensor({ name: 'b', shape: [2], dtype: 'float32', bufferOf: a });
    expect(() => w.finish()).toThrow(/tensor 'b' shares the buffer of tensor 0, which is not an earlier constant/);
  });
});
