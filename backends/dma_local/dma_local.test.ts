/**
 * The dma_local example backend: registration, the DMA-wrapping pass, kws_ref_model compiled
 * to TIR with DMA kernel calls, numerics against the interpreter, and pool pinning that keeps
 * compute operands in local_mem and the DMA's far side in sram (checked by running the
 * planned module with pool-checking DMA simulations).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { constraintsFromMemoryDecl, mergeTargetAccess, runPoolPinning } from '../../passes/poolPinning';
import {
  BackendRegistry,
  GraphFunctionBuilder,
  IRModule,
  LOWERING_EXTERN_SIMULATIONS,
  MAIN_FUNCTION,
  PoolInfo,
  compileToTir,
  interpret,
  isOpCall,
  loadTfliteFile,
  moduleOf,
  parsePoolsJson,
  readOperatorRecords,
  runUsmp,
  tensorType,
  tir,
} from '../../src/index';
import { printModule } from '../../src/ir/tir/printer';
import { registerExampleBackends } from '../index';
import { randomBytes, randomMainInput } from '../testData';
import { DmaLocalBackend } from './backend';
import { DMA_LOCAL_MEMORY } from './memory';
import { COMPUTE_OPS, DMA_IN_COMPOSITE, DMA_IN_KIND, DMA_OUT_COMPOSITE, DMA_OUT_KIND, DMA_TARGET } from './names';
import { SimulatedPool, dmaKernelSimulations } from './simulation';
import { wrapWithDma } from './wrapWithDma';

function registry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(DmaLocalBackend);
  return r;
}

const externs = (options: Parameters<typeof dmaKernelSimulations>[0] = {}): Map<string, tir.ExternFn> =>
  new Map([...LOWERING_EXTERN_SIMULATIONS, ...dmaKernelSimulations(options)]);

const q = (scale: number, zp: number) => ({ scale: [scale], zeroPoint: [zp], axis: 0 });

/** x → conv2d → depthwise → reshape → dense: three offloadable calls around one host reshape. */
function smallNetwork(): IRModule {
  const b = new GraphFunctionBuilder();
  const x = b.param('x', tensorType([1, 6, 6, 2], 'int8', q(0.05, 1)));
  b.constant('cw', tensorType([4, 3, 3, 2], 'int8', { scale: [0.01, 0.02, 0.004, 0.007], zeroPoint: [0, 0, 0, 0], axis: 0 }), randomBytes(72, 1));
  const c = b.call('c', 'conv2d', [x, 'cw'], tensorType([1, 6, 6, 4], 'int8', q(0.06, -3)), { strides: [1, 1], dilation: [1, 1], padding: [1, 1, 1, 1], activation: 'RELU' });
  b.constant('dw', tensorType([1, 3, 3, 4], 'int8', q(0.02, 0)), randomBytes(36, 2));
  const d = b.call('d', 'depthwise_conv2d', [c, 'dw'], tensorType([1, 2, 2, 4], 'int8', q(0.04, 2)), {
    strides: [2, 2],
    dilation: [1, 1],
    padding: [0, 0, 0, 0],
    activation: 'NONE',
    depth_multiplier: 1,
  });
  const r = b.call('r', 'reshape', [d], tensorType([1, 16], 'int8', q(0.04, 2)), {});
  b.constant('fw', tensorType([3, 16], 'int8', q(0.01, 0)), randomBytes(48, 3));
  b.constant('fb', tensorType([3], 'int32', q(0.0004, 0)), new Uint8Array(Int32Array.from([50, -70, 900]).buffer));
  const y = b.call('y', 'dense', [r, 'fw', 'fb'], tensorType([1, 3], 'int8', q(0.1, -1)), { activation: 'NONE', keep_num_dims: false });
  return moduleOf([b.build([y])]);
}

describe('registration', () => {
  it('registers the DMA pass, patterns, strategies, codegen and memory', () => {
    const m = registry().get(DMA_TARGET).manifest();
    expect(m.patterns).toEqual(['dma_in', 'dma_out', ...COMPUTE_OPS]);
    expect(m.graphPasses).toEqual([{ name: 'dma_local.WrapWithDma', phase: 'pre_partitioning' }]);
    expect(m.operatorStrategies).toEqual(['copy', ...COMPUTE_OPS]);
    expect(m.codegen).toBe(true);
    expect(m.operandConstraints.find((c) => c.op === 'dma_local.conv2d')).toEqual({
      op: 'dma_local.conv2d',
      inputs: { 0: ['local_mem'], 1: ['flash'], 2: ['flash'] },
      optionalInputs: [2],
      outputs: { 0: ['local_mem'] },
      scratch: ['local_mem'],
    });
    const sources = registry().codegenFor(DMA_TARGET)?.runtimeSources?.() ?? [];
    expect(sources.map((s) => s.name)).toEqual(['dma_local_runtime.h', 'dma_local_runtime.c']);
  });

  it('is one of the example backends', () => {
    const r = new BackendRegistry();
    expect(registerExampleBackends(r)).toContain(DMA_TARGET);
    expect(r.get(DMA_TARGET)).toBeInstanceOf(DmaLocalBackend);
  });
});

describe('DMA wrapping', () => {
  it('wraps each offloadable call in dma_in/dma_out copies; the dma_out keeps the tensor name', () => {
    const main = smallNetwork().functions.get(MAIN_FUNCTION)!;
    const wrapped = wrapWithDma(main);
    const calls = wrapped.nodes.flatMap((n) => (isOpCall(n) && n.callee.kind === 'op' ? [`${n.name}:${n.callee.op}${n.attrs.kind ? `(${n.attrs.kind})` : ''}<-${n.args[0]}`] : []));
    expect(calls).toEqual([
      'c_dma_in:copy(dma_in)<-x',
      'c_local:conv2d<-c_dma_in',
      'c:copy(dma_out)<-c_local',
      'd_dma_in:copy(dma_in)<-c',
      'd_local:depthwise_conv2d<-d_dma_in',
      'd:copy(dma_out)<-d_local',
      'r:reshape<-d',
      'y_dma_in:copy(dma_in)<-r',
      'y_local:dense<-y_dma_in',
      'y:copy(dma_out)<-y_local',
    ]);
    expect(wrapped.outputs).toEqual(['y']);
    expect(wrapWithDma(wrapped)).toBe(wrapped);
  });
});

describe('small network', () => {
  it('computes what the interpreter computes, byte for byte', () => {
    const module = smallNetwork();
    const { tir: lowered } = compileToTir(module, registry(), DMA_TARGET);
    for (const seed of [1, 2]) {
      const input = randomMainInput(module, seed);
      const [expected] = interpret(module, [input]);
      const [got] = tir.runMain(lowered, [input], { externs: externs() });
      expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

describe('kws_ref_model', () => {
  const model = loadTfliteFile(join(__dirname, '../../models/kws_ref_model.tflite'));
  const { tir: lowered } = compileToTir(model, registry(), DMA_TARGET);
  const text = printModule(lowered);
  const dmaFuncs = [...lowered.functions].filter(([, f]) => f.attrs.target === DMA_TARGET);
  const offloadable = model.functions.get(MAIN_FUNCTION)!.nodes.filter((n) => isOpCall(n) && n.callee.kind === 'op' && (COMPUTE_OPS as readonly string[]).includes(n.callee.op));

  it('calls the DMA kernels around every offloaded operator, with their buffers allocated inside the offloaded functions', () => {
    expect(offloadable.length).toBeGreaterThanOrEqual(10);
    expect(text.match(/T\.call_extern\("int32", "dma_local_copy_in", /g)).toHaveLength(offloadable.length);
    expect(text.match(/T\.call_extern\("int32", "dma_local_copy_out", /g)).toHaveLength(offloadable.length);
    expect(dmaFuncs.length).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/T\.call_extern\("int32", "dma_local_copy_in", input_1, \w+_dma_in, 490\)/);
    expect(text).toMatch(/_dma_in = T\.allocate\(\[\d+\], "int8", "global"/);
    // The local compute reads its local input with border handling in the loop nest: no padded copy.
    expect(text).not.toMatch(/_pad = T\.allocate/);
    expect(text).toMatch(/sid_1 = T\.allocate\(\[\d+\], "int8", "global"/);
    const records = dmaFuncs.flatMap(([, f]) => readOperatorRecords(f));
    expect(records.filter((r) => r.composite === DMA_IN_COMPOSITE)).toHaveLength(offloadable.length);
    expect(records.filter((r) => r.composite === DMA_OUT_COMPOSITE)).toHaveLength(offloadable.length);
  });

  it('computes what the interpreter computes on the un-partitioned model, byte for byte', () => {
    const input = randomMainInput(model, 7);
    const [expected] = interpret(model, [input]);
    const [got] = tir.runMain(lowered, [input], { externs: externs() });
    expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
  });

  const userPools: PoolInfo[] = [
    { name: 'sram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 16, internal: true },
    { name: 'local_mem', kind: 'workspace', targetAccess: {}, alignment: 16, internal: true },
    { name: 'flash', kind: 'constant', targetAccess: { c: 'ro' }, alignment: 16, internal: true },
  ];
  const pools = mergeTargetAccess(userPools, DMA_TARGET, DMA_LOCAL_MEMORY);

  it('the bundled pools.json gives the same access as the memory declaration merged into CPU-only pools', () => {
    const file = join(__dirname, 'pools.json');
    const bundled = parsePoolsJson(readFileSync(file, 'utf8'), file);
    expect(bundled.map((p) => [p.name, p.kind, p.targetAccess])).toEqual(pools.map((p) => [p.name, p.kind, p.targetAccess]));
  });
  const pinned = runPoolPinning(lowered, pools, constraintsFromMemoryDecl(DMA_TARGET, DMA_LOCAL_MEMORY)).module;

  it('pins compute operands and scratch to local_mem, the DMA far side to sram', () => {
    const candidates = new Map<string, unknown>();
    for (const [, f] of pinned.functions) {
      tir.postOrderVisit(f.body, (n) => {
        if (n.kind === 'Allocate' && n.storageScope === 'global') candidates.set(n.bufferVar.name, n.annotations[tir.ANN_CANDIDATE_POOLS]);
      });
    }
    let checked = 0;
    for (const [, f] of dmaFuncs) {
      // The operators of a composite lowered operator by operator are bound through its own record.
      for (const r of readOperatorRecords(f).filter((x) => x.partOf === undefined)) {
        const expectPools = (names: readonly string[], pools: string[]): void => {
          for (const n of names) {
            if (!candidates.has(n)) continue; // function params: pinned where the caller allocates them
            expect([r.composite, n, candidates.get(n)]).toEqual([r.composite, n, pools]);
            checked++;
          }
        };
        if (r.composite === DMA_IN_COMPOSITE) expectPools(r.outputs, ['local_mem']);
        else if (r.composite === DMA_OUT_COMPOSITE) expectPools(r.outputs, ['sram']);
        else {
          expectPools([r.inputs[0], ...r.outputs, ...r.scratch], ['local_mem']);
        }
      }
    }
    expect(checked).toBeGreaterThan(3 * offloadable.length);
    expect(candidates.get('sid_1')).toEqual(['sram']);
  });

  /** Plans with I/O in sram, runs with pool-checking DMA kernels, returns the output. */
  function planAndRun(module: tir.TirModule, input: Uint8Array, planPools: readonly PoolInfo[]): Uint8Array {
    // Lowering does not state main's input count; tell the I/O planner (one model input).
    const main = module.functions.get(tir.MAIN_PRIM_FUNC)!;
    const functions = new Map(module.functions).set(tir.MAIN_PRIM_FUNC, { ...main, attrs: { ...main.attrs, num_inputs: 1 } });
    const planned = runUsmp({ ...module, functions }, { pools: planPools, ioInWorkspace: true });
    const memories = new Map<string, Uint8Array>();
    const simulated = new Map<string, SimulatedPool>();
    for (const p of planned.pools) {
      const mem = p.data ? new Uint8Array(p.data) : new Uint8Array(p.sizeBytes);
      memories.set(p.pool.name, mem);
      simulated.set(p.pool.name, { mem, access: p.pool.targetAccess[DMA_TARGET] ?? 'none' });
    }
    const [inPlace] = planned.inputs;
    const [outPlace] = planned.outputs;
    memories.get(inPlace.pool)!.set(input, inPlace.offset);
    tir.runMain(planned.module, [], { pools: memories, externs: externs({ pools: simulated }) });
    return memories.get(outPlace.pool)!.slice(outPlace.offset, outPlace.offset + outPlace.sizeBytes);
  }

  it('planned with the pins, passes every DMA pool check and computes what the interpreter does', () => {
    const input = randomMainInput(model, 8);
    const [expected] = interpret(model, [input]);
    expect(Buffer.from(planAndRun(pinned, input, pools)).equals(Buffer.from(expected))).toBe(true);
  });

  it('planned without the operand constraints, the DMA finds its destination outside local_mem and traps', () => {
    const input = randomMainInput(model, 8);
    expect(() => planAndRun(lowered, input, pools)).toThrow(/dma_local trap: dma_local_copy_in argument 'dst' lies in pool 'sram', its operand constraint allows \{local_mem\}/);
  });
});

it('rejects copies of other kinds on the dma_local target', () => {
  const strategy = registry().get(DMA_TARGET).operatorStrategy('copy')!;
  const call = { kind: 'call' as const, name: 'y', callee: { kind: 'op' as const, op: 'copy' }, args: ['x'], attrs: { kind: 'layout_transform' }, type: tensorType([4], 'int8') };
  const buf = tir.makeBuffer('x', 'int8', [4]);
  expect(() => strategy({ call, argTypes: [call.type], args: [buf], constants: new Map(), out: tir.makeBuffer('y', 'int8', [4]), target: DMA_TARGET })).toThrow(
    new RegExp(`only copies of kind ${DMA_IN_KIND} or ${DMA_OUT_KIND}`),
  );
});
