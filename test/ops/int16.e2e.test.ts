/**
 * Generated C under gcc against the interpreter, byte for byte, for every 16x8/int16 path in
 * one build (gcc is slow on shared cores): a chain conv2d (int64 bias) -> depthwise (int64
 * bias) -> max_pool2d -> avg_pool2d -> dense (int32 bias) -> int16 softmax -> quantize to
 * int8 -> dequantize, and a branch conv2d (int32 bias) -> dense (no bias) -> quantize
 * int16 -> int8 -> int16, compiled host-only and with each bundled backend as the target.
 */
import * as fs from 'fs';
import { registerExampleBackends } from '../../backends';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { interpret } from '../../src/interpreter';
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { IRModule, TensorType } from '../../src/ir/graph/types';
import { parsePoolsJson } from '../../src/usmp/pools';
import { expectRunsByteExact } from '../e2e/harness';
import { runStreaming } from '../e2e/streamingHarness';
import { i8, q, randomTensor, rng } from '../lower/helpers';
import { bias32, bias64, i16, int16Input } from './int16Helpers';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

const perChannel = (n: number, base: number): number[] => Array.from({ length: n }, (_, c) => base + 0.0011 * c);
const win = (strides: number[], padding: number[], activation = 'NONE') => ({ strides, dilation: [1, 1], padding, activation });

function int16Model(): IRModule {
  const r = rng(77);
  const b = new FunctionBuilder();
  const weight = (name: string, type: TensorType): string => b.constant(name, type, randomTensor(r, type));
  const constant = (name: string, c: { type: TensorType; data: Uint8Array }): string => b.constant(name, c.type, c.data);
  const x = b.param('x', i16([1, 8, 8, 3], 0.0005));
  const conv = b.call('conv', 'conv2d', [x, weight('w_conv', i8([4, 3, 3, 3], perChannel(4, 0.004))), constant('b_conv', bias64(r, 4))], i16([1, 8, 8, 4], 0.002), win([1, 1], [1, 1, 1, 1], 'RELU'));
  const dw = b.call('dw', 'depthwise_conv2d', [conv, weight('w_dw', i8([1, 3, 3, 8], perChannel(8, 0.003), 0, 3)), constant('b_dw', bias64(r, 8))], i16([1, 4, 4, 8], 0.003), { ...win([2, 2], [1, 1, 1, 1]), depth_multiplier: 2 });
  const maxp = b.call('maxp', 'max_pool2d', [dw], i16([1, 4, 4, 8], 0.003), { pool_size: [3, 3], ...win([1, 1], [1, 1, 1, 1]) });
  const avgp = b.call('avgp', 'avg_pool2d', [maxp], i16([1, 2, 2, 8], 0.003), { pool_size: [2, 2], ...win([2, 2], [0, 0, 0, 0]) });
  const fc = b.call('fc', 'dense', [avgp, weight('w_fc', i8([10, 32], 0.00002)), constant('b_fc', bias32(r, 10, 20000))], i16([1, 10], 0.0002), { activation: 'NONE' });
  const sm = b.call('sm', 'softmax', [fc], i16([1, 10], 1 / 32768), { beta: 1 });
  const q8 = b.call('q8', 'quantize', [sm], tensorType([1, 10], 'int8', q(1 / 256, -128)), {});
  const deq = b.call('probs', 'dequantize', [q8], tensorType([1, 10], 'float32'), {});
  const conv2 = b.call('conv2', 'conv2d', [x, weight('w_conv2', i8([2, 1, 1, 3], 0.01)), constant('b_conv2', bias32(r, 2))], i16([1, 8, 8, 2], 0.001), win([1, 1], [0, 0, 0, 0]));
  const fc2 = b.call('fc2', 'dense', [conv2, weight('w_fc2', i8([5, 128], perChannel(5, 0.002)))], i16([1, 5], 0.01), { activation: 'RELU6' });
  const down = b.call('down', 'quantize', [fc2], tensorType([1, 5], 'int8', q(0.05, 3)), {});
  const up = b.call('up', 'quantize', [down], i16([1, 5], 0.004), {});
  return moduleOf([b.build([deq, up])]);
}

describe('int16 / 16x8 operators in generated C', () => {
  it('run byte-exact with the interpreter (host only)', () => {
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const graph = int16Model();
    const inputs = [int16Input(rng(5), 8 * 8 * 3)];
    const expected = interpret(graph, inputs);
    const probs = new Float32Array(expected[0].slice().buffer);
    expect(new Set(probs).size).toBeGreaterThan(3);
    expect(new Set(new Int16Array(expected[1].slice().buffer)).size).toBeGreaterThan(2);
    const result = compileModel(graph, { backend: 'nothing', registry });
    expectRunsByteExact(result, inputs, expected);
  });

  // The bundled accelerators offload int8 operators only: every 16x8 operator must stay on the
  // host (an int8 kernel fed int16 data would be silently wrong), with their own pools.
  it.each(['vanilla', 'accel', 'dma_local'])('with target %s: nothing offloaded, byte-exact', (backend) => {
    const registry = new BackendRegistry();
    registerExampleBackends(registry);
    const graph = int16Model();
    const inputs = [int16Input(rng(6), 8 * 8 * 3)];
    const expected = interpret(graph, inputs);
    const poolsFile = `backends/${backend}/pools.json`;
    const pools = fs.existsSync(poolsFile) ? parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile) : undefined;
    const result = compileModel(graph, { backend, registry, ...(pools ? { pools } : {}) });
    expect([...result.tir.functions.values()].some((f) => f.attrs.target === backend)).toBe(false);
    const [outs] = runStreaming(result, [inputs]);
    outs.forEach((o, i) => expect(Array.from(o)).toEqual(Array.from(expected[i])));
  });
});
