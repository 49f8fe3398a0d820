/**
 * The reason uma-ts exists, end to end: the seed network and person_detect compiled for the
 * `accel` backend run under the accelerator simulator, whose kernels trap on any pointer
 * outside the pools the accelerator may use. With pool pinning the program runs and matches
 * the interpreter byte for byte; without it (TVM's behaviour) the simulator traps.
 */
import * as fs from 'fs';
import { AccelBackend, buildSeedNetwork } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel, CompileResult } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { DTYPE_BYTES, IRModule } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';
import { parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { ACCEL_POOL_REGISTRATION, buildApplication, expectRunsByteExact, fixedInput, runApplication } from './harness';

const POOLS_FILE = 'backends/accel/pools.json';
// External pools: the application owns them, so it can register their address ranges
// with the simulator.
const pools = (): PoolInfo[] =>
  parsePoolsJson(fs.readFileSync(POOLS_FILE, 'utf8'), POOLS_FILE).map((p) => ({ ...p, internal: false }));

const ACCEL_REGISTRATION = ACCEL_POOL_REGISTRATION;

function inputs(graph: IRModule): Uint8Array[] {
  const main = graph.functions.get('main')!;
  return main.params.map((p, i) => {
    const t = main.nodes.find((n) => n.name === p)!.type;
    return fixedInput(t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype], 11 + i);
  });
}

function poolOf(result: CompileResult, tensor: string): string | undefined {
  const decision = result.pinning?.decisions.find((d) => d.buffer.tensor === tensor || d.buffer.name === tensor);
  return decision ? result.access.placement.get(decision.buffer.key) : undefined;
}

/** [name, model, plan model I/O in the workspace] */
const MODELS: [string, () => IRModule, boolean][] = [
  ['seed network', () => buildSeedNetwork(), false],
  ['person_detect', () => loadTfliteFile('models/person_detect.tflite'), false],
  // Its first op is an offloaded conv, whose fetcher must read the input from l2_mem: the
  // input has to be planned in the workspace. Chained convs read each other's output in
  // act_mem, with no fetcher in between.
  ['pretrainedResnet_quant', () => loadTfliteFile('models/pretrainedResnet_quant.tflite'), true],
];

describe.each(MODELS)('accel end to end: %s', (_name, load, ioInWorkspace) => {
  const registry = new BackendRegistry();
  registry.register(AccelBackend);
  const graph = load();
  const x = inputs(graph);
  const expected = interpret(graph, x);

  it('with pool pinning: every accelerator access is legal and the output is byte-exact', () => {
    const result = compileModel(graph, { backend: 'accel', registry, pools: pools(), ioInWorkspace });
    expect(result.access.violations).toEqual([]);
    expect(result.partitioned.functions.size).toBeGreaterThan(1);
    expectRunsByteExact(result, x, expected);
  });

  it('without pool pinning (TVM behaviour): the simulator traps on an accelerator operand in l2_mem', () => {
    // TVM's planner too: it puts every buffer in the first of its candidate pools that has room
    // (l2_mem), where `auto` may happen to choose act_mem for an operand to lower the total.
    const result = compileModel(graph, { backend: 'accel', registry, pools: pools(), poolPinning: false, ioInWorkspace, algorithm: 'greedy_by_size' });
    // The static check sees the same breach the simulator will hit.
    expect(result.access.violations.length).toBeGreaterThan(0);
    expect(result.access.violations.every((v) => v.pool === 'l2_mem' && v.target === 'accel')).toBe(true);
    const dir = buildApplication(result, x, ACCEL_REGISTRATION);
    try {
      const run = runApplication(dir, expected.map((e) => e.length));
      expect(run.status).toBe(3);
      expect(run.stderr).toMatch(/accel trap: accel_\w+ argument '\w+' at 0x[0-9a-f]+ lies in pool 'l2_mem'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('accel placement on the seed network', () => {
  it('puts the fetcher input in l2_mem and every accelerator operand in act_mem', () => {
    const registry = new BackendRegistry();
    registry.register(AccelBackend);
    const result = compileModel(buildSeedNetwork(), { backend: 'accel', registry, pools: pools(), mergeRegions: false });
    const decisions = result.pinning!.decisions;
    const byOperand = (composite: string, role: string) =>
      decisions.filter((d) => result.pinning && d.steps.some((s) => s.operator?.composite?.startsWith(composite) && s.role === role));
    const fetcherIn = byOperand('accel.accel_input_fetcher', 'input');
    const fetcherOut = byOperand('accel.accel_input_fetcher', 'output');
    const fetcherScratch = byOperand('accel.accel_input_fetcher', 'scratch');
    const convOut = byOperand('accel.accel_conv2d', 'output');
    for (const [what, list, pool] of [
      ['fetcher input', fetcherIn, 'l2_mem'],
      ['fetcher output', fetcherOut, 'act_mem'],
      ['fetcher scratch', fetcherScratch, 'act_mem'],
      ['conv output', convOut, 'act_mem'],
    ] as const) {
      expect([what, list.length > 0]).toEqual([what, true]);
      for (const d of list) expect([what, result.access.placement.get(d.buffer.key)]).toEqual([what, pool]);
    }
    void poolOf;
  });
});

describe('accel reading application-owned model I/O', () => {
  it('plans the input in the workspace by itself: the accel runtime accepts only registered pools', () => {
    const registry = new BackendRegistry();
    registry.register(AccelBackend);
    const result = compileModel('models/pretrainedResnet_quant.tflite', { backend: 'accel', registry, pools: pools() });
    expect(result.warnings).toEqual([]);
    expect(result.ioInWorkspace).toBe(true);
    expect(result.ioInWorkspaceReason).toMatch(/^model input 'input_1_int8' is used in place by target accel, whose runtime accepts only registered pools$/);
    expect(result.artifacts.metadata.inputs[0].pool).toBe('l2_mem');
  });

  it('with ioInWorkspace: false, warns and says in metadata.json where the application must place the input', () => {
    const registry = new BackendRegistry();
    registry.register(AccelBackend);
    const result = compileModel('models/pretrainedResnet_quant.tflite', { backend: 'accel', registry, pools: pools(), ioInWorkspace: false });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^model input\/output 'input_1_int8' is used directly by target accel: the application must place it in memory of pool l2_mem \(.*\); or plan model I\/O in the workspace \(--io-in-workspace\)$/,
    );
    expect(result.artifacts.metadata.inputs[0]).toMatchObject({ usedBy: ['accel'], requiredPools: ['l2_mem'] });
  });
});
