/**
 * The pass shapes a backend registers: graph passes around partitioning (UMA's relay passes)
 * and TIR passes by phase (UMA's `_register_tir_pass`).
 */
import { IRModule } from '../ir/graph/types';
import { PrimFunc, TirModule } from '../ir/tir/nodes';
import type { TargetAttrValue } from './targetAttrs';

export const GRAPH_PASS_PHASES = ['pre_partitioning', 'post_partitioning_0', 'post_partitioning_1'] as const;
export type GraphPassPhase = (typeof GRAPH_PASS_PHASES)[number];

export const TIR_PASS_PHASES = [0, 1, 2, 3] as const;
export type TirPassPhase = (typeof TIR_PASS_PHASES)[number];

/** What every pass is told about where it runs. */
export interface PassContext {
  /** The target whose pipeline runs the pass. */
  readonly target: string;
  /** Target attributes in effect (defaults unless a target string overrode them). */
  readonly attrs: Readonly<Record<string, TargetAttrValue>>;
}

export interface GraphPass {
  readonly name: string;
  readonly phase: GraphPassPhase;
  run(module: IRModule, ctx: PassContext): IRModule;
}

export interface TirPass {
  readonly name: string;
  readonly phase: TirPassPhase;
  run(module: TirModule, ctx: PassContext): TirModule;
}

export function isGraphPassPhase(x: unknown): x is GraphPassPhase {
  return (GRAPH_PASS_PHASES as readonly unknown[]).includes(x);
}

export function isTirPassPhase(x: unknown): x is TirPassPhase {
  return (TIR_PASS_PHASES as readonly unknown[]).includes(x);
}

/** Applies `rewrite` to the PrimFuncs whose `attrs.target` is `target`; others are untouched. */
export function forEachTargetFunction(
  module: TirModule,
  target: string,
  rewrite: (func: PrimFunc, name: string) => PrimFunc,
): TirModule {
  let changed = false;
  const functions = new Map<string, PrimFunc>();
  for (const [name, func] of module.functions) {
    const out = func.attrs.target === target ? rewrite(func, name) : func;
    if (out !== func) changed = true;
    functions.set(name, out);
  }
  return changed ? { ...module, functions } : module;
}

/**
 * Wraps a backend's TIR pass so it sees only that backend's PrimFuncs: it gets a module
 * holding just those, and its result replaces them (functions it adds are kept, functions
 * it drops are removed). Host functions and `__tvm_main__` cannot be touched by accident.
 */
export function scopeTirPassToTarget(pass: TirPass, target: string): TirPass {
  return {
    name: pass.name,
    phase: pass.phase,
    run(module: TirModule, ctx: PassContext): TirModule {
      const own = new Map([...module.functions].filter(([, f]) => f.attrs.target === target));
      if (own.size === 0) return module;
      const result = pass.run({ ...module, functions: own }, ctx);
      const functions = new Map<string, PrimFunc>();
      for (const [name, func] of module.functions) {
        if (!own.has(name)) functions.set(name, func);
        else if (result.functions.has(name)) functions.set(name, result.functions.get(name) as PrimFunc);
      }
      for (const [name, func] of result.functions) if (!functions.has(name)) functions.set(name, func);
      return { ...module, functions };
    },
  };
}
