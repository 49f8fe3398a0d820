/** A hand-sized streaming model shared by the interpreter-session and generated-C tests. */
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { GraphNode, IRModule } from '../../src/ir/graph/types';

/** float32 bytes of `v`. */
export const f32 = (...v: number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);

/**
 * One float SVDF (1 filter, memory 2, rank 1, no bias, weights_time [3, 5]); `variable` marks
 * its state as a variable tensor that persists between invocations.
 */
export function tinySvdf(variable: boolean): IRModule {
  const b = new FunctionBuilder();
  b.param('x', tensorType([1, 2], 'float32'));
  b.constant('wf', tensorType([1, 2], 'float32'), f32(1, 2));
  b.constant('wt', tensorType([1, 2], 'float32'), f32(3, 5));
  b.constant('state', tensorType([1, 2], 'float32'));
  b.call('y', 'svdf', ['x', 'wf', 'wt', 'state'], tensorType([1, 1], 'float32'), { rank: 1, activation: 'NONE' });
  const fn = b.build(['y']);
  const nodes = fn.nodes.map((n): GraphNode => (n.kind === 'constant' && n.name === 'state' ? { ...n, variable } : n));
  return moduleOf([{ ...fn, nodes }]);
}

/** The model with every SVDF's output as an extra model output (more state-driven bytes to compare). */
export function withSvdfOutputs(module: IRModule): IRModule {
  const main = module.functions.get('main')!;
  const svdfs = main.nodes.filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'svdf').map((n) => n.name);
  return moduleOf([{ ...main, outputs: [...main.outputs, ...svdfs] }], module.source);
}
