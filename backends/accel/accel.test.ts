/**
 * The accel example backend end to end: registration, the fetcher-insertion pass, the TIR
 * it compiles the seed network to, numerics against the reference interpreter (through the
 * TIR evaluator and the simulated kernels), and the seed's pool placement.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { constraintsFromMemoryDecl, runPoolPinning } from '../../passes/poolPinning';
import {
  BackendRegistry,
  GraphFunctionBuilder,
  IRModule,
  MAIN_FUNCTION,
  RegistrationError,
  interpret,
  isOpCall,
  moduleOf,
  parsePoolsJson,
  readOperatorRecords,
  tensorType,
  tir,
} from '../../src/index';
import { printModule } from '../../src/ir/tir/printer';
import { registerExampleBackends } from '../index';
import { randomBytes, randomMainInput } from '../testData';
import { AccelBackend } from './backend';
import { insertInputFetchers } from './insertFetchers';
import { ACCEL_MEMORY } from './memory';
import { ACCEL_TARGET, CONV_COMPOSITE, FETCHER_COMPOSITE, FETCHER_KIND } from './names';
import { buildSeedNetwork } from './seedNetwork';
import { accelKernelSimulations } from './simulation';
import { USER_POOLS, accelRegistry, compileForAccel, mergeTargetAccess, planAndRun, poolInfo } from './test/support';

/** Every Allocate/AllocateConst of a module as `<func>/<var>` → candidate pools (or null). */
function allocations(m: tir.TirModule): Map<string, { kind: string; pools: unknown }> {
  const out = new Map<string, { kind: string; pools: unknown }>();
  for (const [name, f] of m.functions) {
    tir.postOrderVisit(f.body, (n) => {
      if (n.kind === 'Allocate' || n.kind === 'AllocateConst') {
        out.set(`${name === tir.MAIN_PRIM_FUNC ? 'main' : name}/${n.bufferVar.name}`, { kind: n.kind, pools: n.annotations[tir.ANN_CANDIDATE_POOLS] ?? null });
      }
    });
  }
  return out;
}

describe('registration', () => {
  it('registers the target with its passes, patterns, strategies, codegen and memory', () => {
    const registry = accelRegistry();
    const m = registry.get(ACCEL_TARGET).manifest();
    expect(m.patterns).toEqual(['accel_input_fetcher', 'accel_conv2d']);
    expect(m.graphPasses).toEqual([{ name: 'accel.InsertInputFetchers', phase: 'pre_partitioning' }]);
    expect(m.operatorStrategies).toEqual([FETCHER_COMPOSITE, CONV_COMPOSITE]);
    expect(m.codegen).toBe(true);
    expect(m.pools).toEqual([
      { pool: 'act_mem', access: 'rw' },
      { pool: 'l2_mem', access: 'ro' },
      { pool: 'wei_mem', access: 'ro' },
    ]);
    expect(registry.codegenFor(ACCEL_TARGET)?.includes()).toContain('#include "accel_runtime.h"');
    const sources = registry.codegenFor(ACCEL_TARGET)?.runtimeSources?.() ?? [];
    expect(sources.map((s) => s.name)).toEqual(['accel_runtime.h', 'accel_runtime.c']);
    expect(sources[1].content).toContain('int32_t accel_conv2d(');
  });

  it('registerExampleBackends adds accel once; registering it again is an error', () => {
    const registry = new BackendRegistry();
    expect(registerExampleBackends(registry)).toContain(ACCEL_TARGET);
    expect(registerExampleBackends(registry)).toEqual([]);
    expect(() => registry.register(AccelBackend)).toThrow(RegistrationError);
  });
});

describe('input fetcher insertion', () => {
  it('puts <conv>_fetch (copy, kind accel_input_fetcher) in front of an offloadable conv, once', () => {
    const main = buildSeedNetwork().functions.get(MAIN_FUNCTION)!;
    const once = insertInputFetchers(main);
    const names = once.nodes.map((n) => n.name);
    expect(names.indexOf('conv_fetch')).toBe(names.indexOf('conv') - 1);
    const fetch = once.nodes.find((n) => n.name === 'conv_fetch')!;
    expect(isOpCall(fetch, 'copy') && fetch.attrs.kind).toBe(FETCHER_KIND);
    expect(isOpCall(fetch) && fetch.args).toEqual(['transposed']);
    expect(fetch.type).toEqual(main.nodes.find((n) => n.name === 'transposed')!.type);
    const conv = once.nodes.find((n) => n.name === 'conv')!;
    expect(isOpCall(conv) && conv.args[0]).toBe('conv_fetch');
    expect(insertInputFetchers(once)).toBe(once);
  });

  it('leaves convs the accelerator cannot run (float, non-constant weights) alone', () => {
    const b = new GraphFunctionBuilder();
    const x = b.param('x', tensorType([1, 4, 4, 2], 'float32'));
    const w = b.param('w', tensorType([2, 1, 1, 2], 'float32'));
    b.call('y', 'conv2d', [x, w], tensorType([1, 4, 4, 2], 'float32'), { strides: [1, 1], padding: [0, 0, 0, 0] });
    const fn = b.build(['y']);
    expect(insertInputFetchers(fn)).toBe(fn);
  });
});

describe('compiling the seed network', () => {
  const module = buildSeedNetwork();
  const { partitioned, tir: lowered } = compileForAccel(module);
  const text = printModule(lowered);
  const accelFuncs = [...lowered.functions].filter(([, f]) => f.attrs.target === ACCEL_TARGET);

  it('offloads fetcher and conv together into one accel function; layout transforms stay on the CPU', () => {
    const external = [...partitioned.functions.values()].filter((f) => f.attrs.Compiler === ACCEL_TARGET);
    expect(external).toHaveLength(1);
    expect(accelFuncs).toHaveLength(1);
    const hostOps = partitioned.functions.get(MAIN_FUNCTION)!.nodes.flatMap((n) => (isOpCall(n) && n.callee.kind === 'op' ? [n.callee.op] : []));
    expect(hostOps).toEqual(['copy', 'copy', 'reshape']);
  });

  it('prints call_extern kernels with every conv parameter, and the allocates of main and the accel function', () => {
    const [accelName] = accelFuncs[0];
    expect(text).toMatch(/T\.call_extern\("int32", "accel_input_fetcher", transposed, conv_fetch, conv_fetch_line, 256, 32\)/);
    // input, weights, bias, output, multipliers, shifts, then N,H,W,C, OH,OW,OC, KH,KW,
    // strides, dilation, pad top/left, input offset (-zp 3), output zp -5, RELU range [-5, 127]
    expect(text).toMatch(
      /T\.call_extern\("int32", "accel_conv2d", conv_fetch, conv_weight, conv_bias, conv, conv_multiplier, conv_shift, 1, 8, 8, 4, 8, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, -3, -5, -5, 127\)/,
    );
    expect(text).toMatch(new RegExp(`T\\.call_extern\\("int32", "${accelName}", sid_1, constant_0, constant_1, sid_2\\)`));
    const allocs = allocations(lowered);
    for (const key of ['main/sid_1', 'main/sid_2', 'main/sid_3', `${accelName}/conv_fetch`, `${accelName}/conv_fetch_line`]) {
      expect(allocs.get(key)?.kind).toBe('Allocate');
    }
    for (const key of ['main/constant_0', 'main/constant_1', `${accelName}/conv_multiplier`, `${accelName}/conv_shift`]) {
      expect(allocs.get(key)?.kind).toBe('AllocateConst');
    }
    expect(text).toContain('conv_fetch_line = T.allocate([32], "int8", "global")');
  });

  it('records each operator under its composite, the fetcher line buffer as its scratch', () => {
    const records = readOperatorRecords(accelFuncs[0][1]);
    expect(records.map((r) => [r.op, r.inputs, r.outputs, r.scratch])).toEqual([
      [FETCHER_COMPOSITE, ['transposed'], ['conv_fetch'], ['conv_fetch_line']],
      [CONV_COMPOSITE, ['conv_fetch', 'conv_weight', 'conv_bias'], ['conv'], []],
    ]);
  });

  it('computes the same bytes as the interpreter on the un-partitioned graph', () => {
    for (const seed of [1, 2, 3]) {
      const input = randomMainInput(module, seed);
      const [expected] = interpret(module, [input]);
      const [got] = tir.runMain(lowered, [input], { externs: accelKernelSimulations() });
      expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

describe('numerics beyond the seed shapes', () => {
  /** stride 2, asymmetric padding, RELU6, no bias, per-tensor weight scale, two convs in a row. */
  function twoConvs(): IRModule {
    const q = (scale: number, zp: number) => ({ scale: [scale], zeroPoint: [zp], axis: 0 });
    const b = new GraphFunctionBuilder();
    const x = b.param('x', tensorType([1, 9, 7, 3], 'int8', q(0.04, -7)));
    const w1 = tensorType([5, 3, 2, 3], 'int8', q(0.006, 0));
    b.constant('w1', w1, randomBytes(5 * 3 * 2 * 3, 11));
    const y1 = b.call('y1', 'conv2d', [x, 'w1'], tensorType([1, 5, 4, 5], 'int8', q(0.03, 4)), {
      strides: [2, 2],
      dilation: [1, 1],
      padding: [1, 0, 1, 1],
      activation: 'RELU6',
    });
    const w2 = tensorType([4, 1, 1, 5], 'int8', { scale: [0.01, 0.02, 0.005, 0.03], zeroPoint: [0, 0, 0, 0], axis: 0 });
    b.constant('w2', w2, randomBytes(20, 12));
    b.constant('b2', tensorType([4], 'int32', { scale: [0.0003, 0.0006, 0.00015, 0.0009], zeroPoint: [0, 0, 0, 0], axis: 0 }), new Uint8Array(Int32Array.from([100, -250, 7, 4000]).buffer));
    const y2 = b.call('y2', 'conv2d', [y1, 'w2', 'b2'], tensorType([1, 5, 4, 4], 'int8', q(0.05, -20)), { strides: [1, 1], dilation: [1, 1], padding: [0, 0, 0, 0], activation: 'NONE' });
    return moduleOf([b.build([y2])]);
  }

  it('matches the interpreter byte for byte', () => {
    const module = twoConvs();
    const { tir: lowered } = compileForAccel(module);
    expect(printModule(lowered).match(/"accel_conv2d"/g)).toHaveLength(2);
    expect(printModule(lowered)).toContain('y1_zero_bias');
    for (const seed of [5, 6]) {
      const input = randomMainInput(module, seed);
      const [expected] = interpret(module, [input]);
      const [got] = tir.runMain(lowered, [input], { externs: accelKernelSimulations() });
      expect(Buffer.from(got).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

describe("the seed's pool placement", () => {
  const { tir: lowered } = compileForAccel(buildSeedNetwork());
  const pools = mergeTargetAccess(USER_POOLS, ACCEL_TARGET, ACCEL_MEMORY);
  const accelName = [...lowered.functions].find(([, f]) => f.attrs.target === ACCEL_TARGET)![0];

  it('gives the accelerator the access its memory declaration states, as the bundled pools.json does', () => {
    const expected = [
      ['l2_mem', { c: 'rw', accel: 'ro' }],
      ['act_mem', { c: 'rw', accel: 'rw' }],
      ['wei_mem', { c: 'ro', accel: 'ro' }],
    ];
    expect(pools.map((p) => [p.name, p.targetAccess])).toEqual(expected);
    const file = join(__dirname, 'pools.json');
    expect(parsePoolsJson(readFileSync(file, 'utf8'), file).map((p) => [p.name, p.targetAccess])).toEqual(expected);
  });

  it('pins fetcher input to l2_mem; fetcher output, fetcher scratch and conv output to act_mem', () => {
    const { module } = runPoolPinning(lowered, pools, constraintsFromMemoryDecl(ACCEL_TARGET, ACCEL_MEMORY));
    const allocs = allocations(module);
    expect(allocs.get('main/sid_1')?.pools).toEqual(['l2_mem']); // fetcher input (written by the CPU layout transform)
    expect(allocs.get(`${accelName}/conv_fetch`)?.pools).toEqual(['act_mem']); // fetcher output = conv input
    expect(allocs.get(`${accelName}/conv_fetch_line`)?.pools).toEqual(['act_mem']); // fetcher scratch
    expect(allocs.get('main/sid_2')?.pools).toEqual(['act_mem']); // conv output, read by the CPU afterwards
    expect(allocs.get('main/sid_3')?.pools).toEqual(['l2_mem', 'act_mem']); // CPU only: user order
    expect(allocs.get('main/constant_0')?.pools).toEqual(['wei_mem']);
  });

  it('planned and run with pool-checking kernels, computes what the interpreter does', () => {
    const module = buildSeedNetwork();
    const input = randomMainInput(module, 9);
    const [expected] = interpret(module, [input]);
    const { outputs } = planAndRun(lowered, pools, [input]);
    expect(Buffer.from(outputs[0]).equals(Buffer.from(expected))).toBe(true);
  });

  it('without the operand constraints, a plan that puts the fetcher output in l2_mem traps the conv kernel', () => {
    // The accelerator may write l2_mem here, so target access alone allows it; the user lists l2_mem first.
    const loose = [poolInfo('l2_mem', { c: 'rw', accel: 'rw' }), poolInfo('act_mem', { c: 'rw', accel: 'rw' }), poolInfo('wei_mem', { c: 'ro', accel: 'ro' }, 'constant')];
    const input = randomMainInput(buildSeedNetwork(), 9);
    expect(() => planAndRun(lowered, loose, [input], false)).toThrow(tir.TirEvalError);
    expect(() => planAndRun(lowered, loose, [input], false)).toThrow(/accel trap: accel_input_fetcher argument 'output' lies in pool 'l2_mem', its operand constraint allows \{act_mem\}/);
    expect(() => planAndRun(lowered, loose, [input], true)).not.toThrow();
  });
});
