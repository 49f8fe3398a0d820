/**
 * The end-to-end matrix: models × bundled backends × planners. Each case compiles with the
 * backend's pools made external (the application owns them; the generated run registers
 * their address ranges with the backend's simulator, whose kernels trap on any pointer
 * outside the pools the backend may use), builds the program with the public verify harness
 * under strict gcc, runs it and compares every output byte with the interpreter.
 *
 * Small models run the full cross product; person_detect (the slowest to compile and build)
 * runs each backend once and each planner once.
 */
import * as fs from 'fs';
import { AccelBackend, buildSeedNetwork } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel, CompileResult } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { DTYPE_BYTES, IRModule } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';
import { defaultPools, parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import {
  ACCEL_POOL_REGISTRATION,
  buildApplication,
  expectRunsByteExact,
  fixedInput,
  runApplication,
} from './harness';

type Backend = 'vanilla' | 'accel' | 'dma_local';
const BACKENDS: readonly Backend[] = ['vanilla', 'accel', 'dma_local'];
const PLANNERS = ['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'] as const;

const registry = new BackendRegistry();
registry.register(VanillaBackend);
registry.register(AccelBackend);
registry.register(DmaLocalBackend);

const external = (pools: readonly PoolInfo[]): PoolInfo[] => pools.map((p) => ({ ...p, internal: false }));

/**
 * accel and dma_local ship a pools.json; vanilla shares the CPU's default pools (its
 * memory declaration names them), so those, made external, are its pools.
 */
function poolsFor(backend: Backend): PoolInfo[] {
  if (backend === 'vanilla') return external(defaultPools(['c', 'vanilla']));
  const file = `backends/${backend}/pools.json`;
  return external(parsePoolsJson(fs.readFileSync(file, 'utf8'), file));
}


/**
 * The accel and dma_local simulators trap on a pointer outside their pools, and a model's
 * first or last operator may be offloaded (kws starts with a conv2d): its I/O must then
 * live in a pool the accelerator reaches, so those backends plan I/O in the workspace
 * (the generated run copies the application's buffers in and out). vanilla runs with
 * application-owned I/O, the default.
 */
const IO_IN_WORKSPACE: Record<Backend, boolean> = { vanilla: false, accel: true, dma_local: true };

interface Model {
  readonly name: string;
  readonly load: () => IRModule;
  /**
   * Backends that must offload part of this model. accel offloads int8 conv2d only and
   * hello_world is three dense layers, so accel leaves it entirely on the host; vanilla
   * (conv2d, dense) and dma_local (conv2d, depthwise, dense) take its dense layers.
   */
  readonly offloadedBy: readonly Backend[];
}

const tflite = (name: string) => () => loadTfliteFile(`models/${name}.tflite`);
const HELLO: Model = { name: 'hello_world_int8', load: tflite('hello_world_int8'), offloadedBy: ['vanilla', 'dma_local'] };
const KWS: Model = { name: 'kws_ref_model', load: tflite('kws_ref_model'), offloadedBy: BACKENDS };
const SEED: Model = { name: 'accel seed network', load: () => buildSeedNetwork(), offloadedBy: BACKENDS };
const PERSON: Model = { name: 'person_detect', load: tflite('person_detect'), offloadedBy: BACKENDS };

type Case = [string, Backend, string];
const SMALL: readonly Model[] = [HELLO, KWS, SEED];
const CASES: Case[] = [
  ...SMALL.flatMap((m) => BACKENDS.flatMap((b) => PLANNERS.map((p): Case => [m.name, b, p]))),
  // Every backend once and every planner once.
  [PERSON.name, 'vanilla', 'auto'],
  [PERSON.name, 'accel', 'greedy_by_size'],
  [PERSON.name, 'dma_local', 'greedy_by_conflicts'],
  [PERSON.name, 'accel', 'hill_climb'],
];
const MODELS = new Map([...SMALL, PERSON].map((m) => [m.name, m]));

interface Reference {
  readonly graph: IRModule;
  readonly inputs: Uint8Array[];
  readonly expected: Uint8Array[];
}

const references = new Map<string, Reference>();
/** Model, inputs and the interpreter's outputs, computed once per model. */
function reference(model: Model): Reference {
  const known = references.get(model.name);
  if (known) return known;
  const graph = model.load();
  const main = graph.functions.get('main')!;
  const inputs = main.params.map((p, i) => {
    const t = main.nodes.find((n) => n.name === p)!.type;
    return fixedInput(t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype], 31 + i);
  });
  const ref = { graph, inputs, expected: interpret(graph, inputs) };
  references.set(model.name, ref);
  return ref;
}

function offloadedTargets(result: CompileResult): string[] {
  return [...new Set([...result.partitioned.functions.values()].map((f) => f.attrs.Compiler).filter((c): c is string => !!c))];
}

describe('end-to-end matrix: model × backend × planner, byte-exact with the interpreter', () => {
  it.each(CASES)('%s on %s planned with %s', (modelName, backend, algorithm) => {
    const model = MODELS.get(modelName)!;
    const { graph, inputs, expected } = reference(model);
    const ioInWorkspace = IO_IN_WORKSPACE[backend];
    // auto stops at its lower bound or its work budget; the wall-clock cap only keeps CI time bounded.
    const result = compileModel(graph, { backend, registry, pools: poolsFor(backend), algorithm, ioInWorkspace, timeBudgetMs: 300 });

    const offloads = model.offloadedBy.includes(backend);
    expect(offloadedTargets(result)).toEqual(offloads ? [backend] : []);
    expect(result.artifacts.metadata.targets.includes(backend)).toBe(offloads);
    expect(result.usmp.algorithm).toBeDefined();
    expect(result.access.violations).toEqual([]);
    expect(result.usmp.pools.every((p) => !p.pool.internal)).toBe(true);

    if (ioInWorkspace) expect(result.usmp.inputs).toHaveLength(inputs.length);

    // Without an offloaded function the backend's runtime is not shipped: nothing to register.
    expectRunsByteExact(result, inputs, expected);
  });
});

describe('the same matrix without pool pinning (TVM behaviour)', () => {
  // accel on kws: pools come from each function's target only, so accelerator operands may
  // land in a pool their target cannot write or their operand constraint forbids (which one
  // depends on the plan); the static check lists the breaches and the simulator must stop the
  // run at one of them rather than let it compute.
  it('kws_ref_model on accel traps in the simulator', () => {
    const { inputs, expected } = reference(KWS);
    const result = compileModel(reference(KWS).graph, {
      backend: 'accel',
      registry,
      pools: poolsFor('accel'),
      ioInWorkspace: true,
      poolPinning: false,
      timeBudgetMs: 300,
    });
    const breached = [...result.access.violations, ...(result.access.operandViolations ?? [])].map((v) => v.pool);
    expect(breached.length).toBeGreaterThan(0);
    const dir = buildApplication(result, inputs, ACCEL_POOL_REGISTRATION);
    try {
      const run = runApplication(dir, expected.map((e) => e.length));
      expect(run.status).toBe(3);
      const trap = /^accel trap: accel_\w+ argument '\w+' at 0x[0-9a-f]+ lies in pool '(\w+)'/.exec(run.stderr);
      expect(trap).not.toBeNull();
      expect(breached).toContain(trap![1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
