/**
 * Helpers the accel tests share: pools like the seed's, compiling with the accel backend,
 * pinning + planning, running the evaluator with the pool-checking kernel simulations.
 * Used only by tests (it imports the pool-pinning pass from passes/, not the public API).
 */
import { constraintsFromMemoryDecl, mergeTargetAccess, runPoolPinning } from '../../../passes/poolPinning';
import { BackendRegistry, IRModule, PoolInfo, compileToTir, runUsmp, tir } from '../../../src/index';
import { AccelBackend } from '../backend';
import { ACCEL_MEMORY } from '../memory';
import { ACCEL_TARGET } from '../names';
import { SimulatedPool, accelKernelSimulations } from '../simulation';

export function poolInfo(name: string, targetAccess: Record<string, 'rw' | 'ro'>, kind: 'workspace' | 'constant' = 'workspace'): PoolInfo {
  return { name, kind, targetAccess, alignment: 16, internal: true };
}

/** The application's pools as the seed states them, before the backend adds its access. */
export const USER_POOLS: PoolInfo[] = [
  poolInfo('l2_mem', { c: 'rw' }),
  poolInfo('act_mem', { c: 'rw' }),
  poolInfo('wei_mem', { c: 'ro' }, 'constant'),
];

export function accelRegistry(): BackendRegistry {
  const registry = new BackendRegistry();
  registry.register(AccelBackend);
  return registry;
}

export function compileForAccel(module: IRModule): ReturnType<typeof compileToTir> {
  return compileToTir(module, accelRegistry(), ACCEL_TARGET);
}

export interface PlannedRun {
  readonly outputs: Uint8Array[];
  readonly pools: ReadonlyMap<string, Uint8Array>;
}

/**
 * Plans `module` into `pools` (pinned with the accel's constraints unless `pin` is false),
 * then runs it with the kernel simulations checking every pointer against the pools with
 * the accelerator's access taken from `pools`.
 */
export function planAndRun(module: tir.TirModule, pools: readonly PoolInfo[], inputs: readonly Uint8Array[], pin = true): PlannedRun {
  const pinned = pin ? runPoolPinning(module, pools, constraintsFromMemoryDecl(ACCEL_TARGET, ACCEL_MEMORY)).module : module;
  const planned = runUsmp(pinned, { pools });
  const memories = new Map<string, Uint8Array>();
  const simulated = new Map<string, SimulatedPool>();
  for (const p of planned.pools) {
    const mem = p.data ? new Uint8Array(p.data) : new Uint8Array(p.sizeBytes);
    memories.set(p.pool.name, mem);
    simulated.set(p.pool.name, { mem, access: p.pool.targetAccess[ACCEL_TARGET] ?? 'none' });
  }
  const outputs = tir.runMain(planned.module, inputs, { pools: memories, externs: accelKernelSimulations({ pools: simulated }) });
  return { outputs, pools: memories };
}

export { mergeTargetAccess };
