/**
 * A model-shaped test: a small 16x8 audio conv net with transpose convs (an encoder of two
 * strided CONV_2D and a decoder of two strided TRANSPOSE_CONV back to the input size, plus a
 * MEAN over time and frequency of the bottleneck), built as a .tflite with the writer,
 * imported, checked against LiteRT, and compiled with every bundled backend (and host only):
 * each generated program runs byte-exact with the interpreter under strict gcc.
 */
import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { defaultPools, parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { seededRandom } from '../../src/util/random';
import { expectRunsByteExact } from '../e2e/harness';
import { firstMismatch, runLiteRt } from '../oracle/litert';

function ints(seed: number, n: number, lo: number, hi: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}

const q16 = (scale: number): WriterQuantization => ({ scale: [scale], zeroPoint: [0] });
const perChannel = (n: number, base: number): number[] => Array.from({ length: n }, (_, c) => base + 0.0005 * c);

/** [1, 16, 8, 1] int16 spectrogram -> mask [1, 16, 8, 1] and bottleneck mean [1, 1, 1, 16]. */
function audioNet(): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'spectrogram', shape: [1, 16, 8, 1], dtype: 'int16', quant: q16(0.0005) });
  let seed = 100;
  const weights = (name: string, o: number, k: number, i: number, inScale: number) => {
    const scales = perChannel(o, 0.004);
    const wt = w.addConstant({ name: `${name}_w`, shape: [o, k, k, i], dtype: 'int8', quant: { scale: scales, zeroPoint: scales.map(() => 0) }, data: ints(seed++, o * k * k * i, -127, 127) });
    const bias = w.addConstant({ name: `${name}_b`, shape: [o], dtype: 'int64', quant: { scale: scales.map((s) => s * inScale), zeroPoint: scales.map(() => 0) }, data: ints(seed++, o, -20000, 20000).map(BigInt) });
    return [wt, bias];
  };
  const conv = (name: string, input: number, inScale: number, shape: number[], outScale: number, k: number, inC: number) => {
    const y = w.addTensor({ name, shape, dtype: 'int16', quant: q16(outScale) });
    const [wt, bias] = weights(name, shape[3], k, inC, inScale);
    w.addOperator({ op: 'CONV_2D', inputs: [input, wt, bias], outputs: [y], options: tfliteOptions.conv2d({ padding: 'SAME', strideW: 2, strideH: 2, activation: 'RELU' }) });
    return y;
  };
  const tconv = (name: string, input: number, inScale: number, shape: number[], outScale: number, k: number, inC: number) => {
    const y = w.addTensor({ name, shape, dtype: 'int16', quant: q16(outScale) });
    const outShape = w.addConstant({ name: `${name}_shape`, shape: [4], dtype: 'int32', data: shape });
    const [wt, bias] = weights(name, shape[3], k, inC, inScale);
    w.addOperator({ op: 'TRANSPOSE_CONV', inputs: [outShape, wt, input, bias], outputs: [y], options: tfliteOptions.transposeConv({ padding: 'SAME', strideW: 2, strideH: 2 }) });
    return y;
  };
  const e1 = conv('enc1', x, 0.0005, [1, 8, 4, 8], 0.002, 3, 1);
  const e2 = conv('enc2', e1, 0.002, [1, 4, 2, 16], 0.004, 3, 8);
  const d1 = tconv('dec1', e2, 0.004, [1, 8, 4, 8], 0.006, 3, 16);
  const mask = tconv('mask', d1, 0.006, [1, 16, 8, 1], 0.01, 3, 8);
  const axes = w.addConstant({ name: 'axes', shape: [2], dtype: 'int32', data: [1, 2] });
  const mean = w.addTensor({ name: 'bottleneck_mean', shape: [1, 1, 1, 16], dtype: 'int16', quant: q16(0.002) });
  w.addOperator({ op: 'MEAN', inputs: [e2, axes], outputs: [mean], options: tfliteOptions.reducer(true) });
  w.markOutput(mask);
  w.markOutput(mean);
  return w.finish();
}

class HostOnly extends UmaBackend {
  readonly targetName = 'host_only';
}

type Backend = 'host_only' | 'vanilla' | 'accel' | 'dma_local';
const registry = new BackendRegistry();
registry.register(HostOnly);
registry.register(VanillaBackend);
registry.register(AccelBackend);
registry.register(DmaLocalBackend);

const external = (pools: readonly PoolInfo[]): PoolInfo[] => pools.map((p) => ({ ...p, internal: false }));
function poolsFor(backend: Backend): PoolInfo[] | undefined {
  if (backend === 'host_only') return undefined;
  if (backend === 'vanilla') return external(defaultPools(['c', 'vanilla']));
  const file = `backends/${backend}/pools.json`;
  return external(parsePoolsJson(fs.readFileSync(file, 'utf8'), file));
}
describe('16x8 audio conv net with transpose convs', () => {
  const bytes = audioNet();
  const graph = importTflite(bytes, 'audio_tconv.tflite');
  const inputs = [new Uint8Array(Int16Array.from(ints(7, 128, -20000, 20000)).buffer)];
  const expected = interpret(graph, inputs);

  it('imports as conv2d x2, transpose_conv2d x2 and mean, with outputs that vary', () => {
    const ops = graph.functions.get('main')!.nodes.flatMap((n) => (n.kind === 'call' && n.callee.kind === 'op' ? [n.callee.op] : []));
    expect(ops).toEqual(['conv2d', 'conv2d', 'transpose_conv2d', 'transpose_conv2d', 'mean']);
    expect(new Set(new Int16Array(expected[0].slice().buffer)).size).toBeGreaterThan(10);
    expect(new Set(new Int16Array(expected[1].slice().buffer)).size).toBeGreaterThan(3);
  });

  it('agrees with LiteRT within 1 LSB', () => {
    const outs = runLiteRt(bytes, inputs);
    expect(firstMismatch('int16', expected[0], outs[0].data, { lsb: 1 })).toBeNull();
    expect(firstMismatch('int16', expected[1], outs[1].data, { lsb: 1 })).toBeNull();
  });

  it.each(['host_only', 'vanilla', 'accel', 'dma_local'] as const)('compiles for %s and runs byte-exact under gcc', (backend) => {
    const pools = poolsFor(backend);
    const result = compileModel(graph, { backend, registry, ...(pools ? { pools } : {}), ioInWorkspace: backend === 'accel' || backend === 'dma_local', timeBudgetMs: 100 });
    // The transpose convs' int64 accumulators are operator scratch the planner placed.
    expect(result.report.buffers.filter((b) => b.name.endsWith('_acc'))).toHaveLength(2);
    // No bundled accelerator runs 16x8 convolutions: everything stays on the host.
    const offloaded = result.artifacts.metadata.targets.includes(backend);
    expect(offloaded).toBe(false);
    expectRunsByteExact(result, inputs, expected);
  });
});
