/**
 * The custom planner of docs/memory-planner.md (docs/examples/customPlanner.ts): importing it
 * registers it; it then plans the documented buffer sets and a real compiled model, and every
 * plan passes the independent plan verifier.
 */
import * as fs from 'fs';
import { BackendRegistry, compileModel, getPlanningAlgorithm, listPlanningAlgorithms, parsePoolsJson, poolSizesOfPlan, verifyPlan } from '../../src';
import { parseBufferSet } from '../../src/usmp/bufferSet';
import { FIRST_FIT_BY_START, firstFitByStart } from '../../docs/examples/customPlanner';
import { TutorialBackend } from '../../docs/examples/tutorialBackend';
import { BufferInfo, PoolInfo, compileToTir, loadTfliteFile, runUsmp } from '../../src';

const pool = (name: string, sizeHintBytes?: number, alignment = 1): PoolInfo => ({
  name,
  kind: 'workspace',
  targetAccess: {},
  alignment,
  internal: true,
  ...(sizeHintBytes !== undefined ? { sizeHintBytes } : {}),
});

const buffer = (name: string, sizeBytes: number, pools: PoolInfo[], conflicts: string[], liveRange: [number, number]): BufferInfo => ({
  name,
  sizeBytes,
  alignment: 1,
  poolCandidates: pools,
  conflicts,
  kind: 'workspace',
  liveRange,
});

describe('custom planner example', () => {
  it('registers under its name when imported', () => {
    expect(listPlanningAlgorithms()).toContain(FIRST_FIT_BY_START);
    expect(getPlanningAlgorithm(FIRST_FIT_BY_START)).toBe(firstFitByStart);
  });

  it.each(['docs/examples/buffers.txt', 'docs/examples/buffer-set.json'])('plans %s validly', (file) => {
    const set = parseBufferSet(fs.readFileSync(file, 'utf8'), file);
    const plan = firstFitByStart(set.buffers, set.memoryPressure);
    verifyPlan(set.buffers, plan, set.pools);
    const total = [...poolSizesOfPlan(set.buffers, plan).values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(set.memoryPressure);
  });

  it('reuses memory of dead buffers and honours conflicts in both directions, by hand', () => {
    const p = pool('p');
    // a [0,1] and c [2,3] never overlap in time: c reuses a's bytes; b conflicts with both.
    // b lists no conflicts itself: only a and c name it (directional, as TVM extracts them).
    const buffers = [buffer('a', 100, [p], ['b'], [0, 1]), buffer('b', 50, [p], [], [1, 2]), buffer('c', 100, [p], ['b'], [2, 3])];
    const plan = firstFitByStart(buffers, 150);
    expect(Object.fromEntries([...plan].map(([k, v]) => [k, v.offset]))).toEqual({ a: 0, b: 100, c: 0 });
    verifyPlan(buffers, plan);
  });

  it('falls back to the next candidate pool when the first is full, and fails when none fits', () => {
    const small = pool('small', 120);
    const big = pool('big', undefined, 16);
    const buffers = [buffer('a', 100, [small, big], ['b'], [0, 1]), buffer('b', 40, [small, big], ['a'], [1, 2])];
    const plan = firstFitByStart(buffers, 140);
    expect(plan.get('b')).toEqual({ pool: 'big', offset: 0 });
    expect(() => firstFitByStart([buffer('x', 200, [small], [], [0, 0])], 200)).toThrow(/'x' \(200 bytes\) fits in none of its pools/);
  });

  it('plans a real model end to end when selected by name', () => {
    const registry = new BackendRegistry();
    registry.register(TutorialBackend);
    const pools = parsePoolsJson(fs.readFileSync('docs/examples/pools.json', 'utf8'), 'pools.json');
    const result = compileModel('models/hello_world_float.tflite', {
      backend: 'tutorial',
      registry,
      pools,
      algorithm: FIRST_FIT_BY_START,
      mergeRegions: false,
    });
    expect(result.usmp.algorithm).toBe(FIRST_FIT_BY_START);
    expect(result.usmp.plan.size).toBe(result.usmp.buffers.length);
    expect(result.access.violations).toEqual([]);
  });
});

describe('I/O in the workspace (memory-planner.md)', () => {
  it('runUsmp places the model input and output in a workspace pool and reports where', () => {
    const registry = new BackendRegistry();
    registry.register(TutorialBackend);
    const pools = parsePoolsJson(fs.readFileSync('docs/examples/pools.json', 'utf8'), 'pools.json');
    const { tir } = compileToTir(loadTfliteFile('models/hello_world_float.tflite'), registry, 'tutorial');
    const result = runUsmp(tir, { pools, ioInWorkspace: true });
    // Both I/O tensors (4-byte float32 each) are planned; which list each lands in is the
    // direction inference of createIoAllocates (here without `num_inputs` on main).
    const io = [...result.inputs, ...result.outputs];
    expect(io.map((p) => [p.name, p.sizeBytes]).sort()).toEqual([
      ['StatefulPartitionedCall_0', 4],
      ['serving_default_dense_input_0', 4],
    ]);
    for (const p of io) expect(['host_sram', 'tut_sram']).toContain(p.pool);
  });
});
