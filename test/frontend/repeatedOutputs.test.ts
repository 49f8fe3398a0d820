/**
 * A subgraph listing one tensor twice among its outputs (a Keras model returning a tensor
 * twice: the converter drops the Identity ops), computed or an input: TFLite and TFLite Micro
 * run it with both outputs holding the tensor. Regression: lowering refused it ("main output
 * 'y' is listed twice"); now the repeat is an output of its own (a copy). (LiteRT's WASM
 * CompiledModel hands back unrelated bytes for repeated outputs, so it is no oracle here.)
 * With I/O in the workspace each repeat is served from its tensor's bytes, as TFLite Micro's
 * arena holds the tensor once (usmp/ioAliases.ts).
 */
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { MAIN_FUNCTION } from '../../src/ir/graph/types';
import { expectRunsByteExact } from '../e2e/harness';
import { parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { parsePins } from '../../passes/poolPinning/pinsFile';
import * as fs from 'fs';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(AccelBackend);

/** conv(x) = y; outputs [y, y, x, x, y]. */
function model(): Uint8Array {
  const w = new TfliteWriter();
  const q = (s: number, z: number) => ({ scale: [s], zeroPoint: [z] });
  const x = w.addInput({ name: 'x', shape: [1, 4, 4, 2], dtype: 'int8', quant: q(0.05, 1) });
  const wt = w.addConstant({ name: 'w', shape: [3, 3, 3, 2], dtype: 'int8', quant: { scale: [0.01, 0.02, 0.03], zeroPoint: [0, 0, 0], axis: 0 }, data: new Int8Array(54).map((_, i) => ((i * 13) % 200) - 100) });
  const bias = w.addConstant({ name: 'b', shape: [3], dtype: 'int32', quant: { scale: [0.0005, 0.001, 0.0015], zeroPoint: [0, 0, 0] }, data: [10, -20, 30] });
  const y = w.addTensor({ name: 'y', shape: [1, 4, 4, 3], dtype: 'int8', quant: q(0.04, -2) });
  w.addOperator({ op: 'CONV_2D', inputs: [x, wt, bias], outputs: [y], options: tfliteOptions.conv2d({ padding: 'SAME', activation: 'RELU' }) });
  for (const o of [y, y, x, x, y]) w.markOutput(o);
  return w.finish();
}

describe('a tensor listed twice among the outputs', () => {
  const bytes = model();
  const input = new Uint8Array(32).map((_, i) => (i * 37) % 256);
  const graph = importTflite(bytes, 'repeated.tflite');
  const fn = graph.functions.get(MAIN_FUNCTION)!;
  const expected = interpret(graph, [input]);

  it('imports one distinct computed output per listing, TFLite names kept', () => {
    expect(fn.outputs).toEqual(['y', 'y_output', 'x_output', 'x_output2', 'y_output2']);
    expect(fn.attrs.tflite_output_names).toEqual(['y', 'y', 'x', 'x', 'y']);
    expect(Array.from(expected[1])).toEqual(Array.from(expected[0]));
    expect(Array.from(expected[4])).toEqual(Array.from(expected[0]));
    expect(Array.from(expected[2])).toEqual(Array.from(input));
    expect(Array.from(expected[3])).toEqual(Array.from(input));
  });

  it.each([
    ['host_only', false],
    ['host_only', true],
    ['accel', true],
  ] as const)('compiles for %s (I/O in the workspace: %s) and runs byte-exact under gcc', (backend, io) => {
    const pools = backend === 'accel' ? parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools').map((p) => ({ ...p, internal: false })) : undefined;
    const result = compileModel(graph, { backend, registry, pools, ioInWorkspace: io, timeBudgetMs: 100 });
    expect(result.access.violations).toEqual([]);
    expectRunsByteExact(result, [input], expected, ['-O0']);
  });

  it('with I/O in the workspace, holds x and y once each: the repeats read their bytes', () => {
    const result = compileModel(graph, { backend: 'host_only', registry, ioInWorkspace: true, timeBudgetMs: 100 });
    expect(result.usmp.buffers.filter((b) => b.kind === 'workspace').map((b) => b.name).sort()).toEqual(['x', 'y']);
    const slot = (p: { pool: string; offset: number }) => `${p.pool}+${p.offset}`;
    const x = slot(result.usmp.inputs.find((p) => p.name === 'x')!);
    const outputs = new Map(result.usmp.outputs.map((p) => [p.name, slot(p)]));
    expect(outputs.get('x_output')).toBe(x);
    expect(outputs.get('x_output2')).toBe(x);
    expect(outputs.get('y_output')).toBe(outputs.get('y'));
    expect(outputs.get('y_output2')).toBe(outputs.get('y'));
    expect(outputs.get('y')).not.toBe(x);
    // 32 + 48 bytes at 16-byte alignment: the arena TFLite Micro plans for x and y.
    expect(result.report.workspace.sizeBytes).toBe(80);
    expect(result.report.workspace.tensorLowerBoundBytes).toBe(80);
    const header = result.artifacts.files.find((f) => f.path.endsWith('default_lib0.c'))!.content;
    expect(header).not.toMatch(/fused_reshape/);
  });

  it('keeps the copy of a repeat pinned apart from its tensor, and serves only the others', () => {
    const pools: PoolInfo[] = ['sram', 'shared'].map((name) => ({ name, kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 16, internal: true }));
    const pins = parsePins(JSON.stringify({ pins: [{ tensor: 'x', pools: ['shared'] }, { tensor: 'x_output', pools: ['sram'] }] }), 'pins.json');
    const result = compileModel(graph, { backend: 'host_only', registry, pools, pins, ioInWorkspace: true, timeBudgetMs: 100 });
    expect(result.usmp.buffers.filter((b) => b.kind === 'workspace').map((b) => b.name).sort()).toEqual(['x', 'x_output', 'y']);
    const where = new Map([...result.usmp.inputs, ...result.usmp.outputs].map((p) => [p.name, p]));
    expect(where.get('x_output')!.pool).toBe('sram');
    expect(where.get('x_output2')).toEqual({ ...where.get('x')!, name: 'x_output2' });
    expectRunsByteExact(result, [input], expected, ['-O0']);
  });
});
