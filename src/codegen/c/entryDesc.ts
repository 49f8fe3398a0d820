/**
 * The shape of the application-facing API: which struct fields exist, which pools are
 * internal arrays or application-supplied, and what main receives for each parameter.
 * Both the interface header and the entry source are written from this one description.
 */
import { CodegenError } from '../../errors';
import { DTYPE_BYTES } from '../../ir/graph/types';
import { PrimFunc } from '../../ir/tir/nodes';
import { IoPlacement, PlannedPool } from '../../usmp/types';
import { MemoryLayout, TensorSpec } from '../types';
import { cType } from './ctypes';
import { NameScope } from './names';
import { poolBaseAlignment } from './poolBase';

export interface IoField {
  readonly spec: TensorSpec;
  /** Field name in the inputs/outputs struct. */
  readonly cName: string;
  /** Element type, e.g. `int8_t`. */
  readonly elemType: string;
  readonly sizeBytes: number;
  /** Where it lives when I/O is planned into a workspace pool. */
  readonly placement?: IoPlacement;
}

export interface PoolField {
  readonly planned: PlannedPool;
  /** Struct field (external pools) or static array name (internal pools). */
  readonly cName: string;
  /** Alignment of the pool base: a power of two, at least 16. */
  readonly baseAlignment: number;
  /**
   * One model of an application: the macro (uma_app.h) of where this model's part of the
   * shared workspace pool starts (0 when the models run one after the other).
   */
  readonly offsetMacro?: string;
}

/**
 * A module name as it appears in macros (TVMGEN_<MOD>_*, UMA_APP_<MOD>_*): upper-cased, so two
 * names that differ only in case share their macros (the application refuses such pairs).
 */
export function moduleMacroName(moduleName: string): string {
  return moduleName.toUpperCase();
}

/** Offset macro of `moduleName`'s part of the shared workspace pool `pool` (uma_app.h). */
export function appOffsetMacro(moduleName: string, pool: string): string {
  return `UMA_APP_${moduleMacroName(moduleName)}_${pool.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase()}_OFFSET`;
}

export type MainArg =
  | { readonly kind: 'input' | 'output'; readonly field: IoField }
  | { readonly kind: 'pool'; readonly pool: PoolField };

export interface EntryDesc {
  /** `tvmgen_<mod>` */
  readonly prefix: string;
  /** `TVMGEN_<MOD>` */
  readonly macroPrefix: string;
  readonly inputs: readonly IoField[];
  readonly outputs: readonly IoField[];
  readonly pools: readonly PoolField[];
  readonly mainSymbol: string;
  readonly mainParamTypes: readonly string[];
  readonly mainArgs: readonly MainArg[];
}

/** The param name the USMP offset rewrite gives a pool (architecture.md). */
export function poolParamName(pool: string): string {
  return `${pool}_var`;
}

function ioFields(
  specs: readonly TensorSpec[],
  placements: readonly IoPlacement[],
  direction: string,
): IoField[] {
  const names = new NameScope();
  return specs.map((spec) => {
    const sizeBytes = spec.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[spec.dtype];
    const placement = placements.find((p) => p.name === spec.name);
    if (placement !== undefined && placement.sizeBytes < sizeBytes) {
      throw new CodegenError(
        `${direction} ${spec.name} needs ${sizeBytes} bytes but its pool slot has ${placement.sizeBytes}`,
        { buffer: spec.name, pool: placement.pool },
      );
    }
    const base = { spec, cName: names.fresh(spec.name), elemType: cType(spec.dtype), sizeBytes };
    return placement === undefined ? base : { ...base, placement };
  });
}

export function describeEntry(args: {
  moduleName: string;
  main: PrimFunc;
  mainSymbol: string;
  mainParamTypes: readonly string[];
  inputs: readonly TensorSpec[];
  outputs: readonly TensorSpec[];
  memory?: MemoryLayout;
  sharedWorkspaceSymbol?: (pool: string) => string;
}): EntryDesc {
  const memory = args.memory ?? { pools: [], inputs: [], outputs: [] };
  const inputs = ioFields(args.inputs, memory.inputs, 'input');
  const outputs = ioFields(args.outputs, memory.outputs, 'output');
  const poolNames = new NameScope();
  const shared = args.sharedWorkspaceSymbol;
  const pools: PoolField[] = memory.pools.map((planned) => ({
    ...(shared !== undefined && planned.pool.kind === 'workspace' ? { offsetMacro: appOffsetMacro(args.moduleName, planned.pool.name) } : {}),
    planned,
    cName:
      shared !== undefined && planned.pool.internal && planned.pool.kind === 'workspace'
        ? shared(planned.pool.name)
        : poolNames.fresh(planned.pool.name),
    baseAlignment: poolBaseAlignment(planned.pool.alignment),
  }));
  for (const io of [...inputs, ...outputs]) {
    const place = io.placement;
    if (place !== undefined && !pools.some((p) => p.planned.pool.name === place.pool)) {
      throw new CodegenError(`tensor ${io.spec.name} is placed in unknown pool ${place.pool}`, {
        buffer: io.spec.name,
        pool: place.pool,
      });
    }
  }

  // Main takes, in order, the I/O that is not in a pool (inputs then outputs) and the pools.
  const ioQueue: MainArg[] = [
    ...inputs.filter((f) => f.placement === undefined).map((field) => ({ kind: 'input' as const, field })),
    ...outputs.filter((f) => f.placement === undefined).map((field) => ({ kind: 'output' as const, field })),
  ];
  let next = 0;
  const mainArgs = args.main.params.map((param): MainArg => {
    const pool = pools.find((p) => poolParamName(p.planned.pool.name) === param.name);
    if (pool !== undefined) return { kind: 'pool', pool };
    const io = ioQueue[next++];
    if (io === undefined) {
      throw new CodegenError(
        `main parameter ${param.name} matches neither a model input/output nor a planned pool`,
        { func: '__tvm_main__', buffer: param.name },
      );
    }
    return io;
  });
  if (next !== ioQueue.length) {
    throw new CodegenError(
      `main takes ${next} model inputs/outputs but the model has ${ioQueue.length} outside the workspace`,
      { func: '__tvm_main__' },
    );
  }
  return {
    prefix: `tvmgen_${args.moduleName}`,
    macroPrefix: `TVMGEN_${moduleMacroName(args.moduleName)}`,
    inputs,
    outputs,
    pools,
    mainSymbol: args.mainSymbol,
    mainParamTypes: args.mainParamTypes,
    mainArgs,
  };
}

export function externalPools(d: EntryDesc, kind: 'workspace' | 'constant'): PoolField[] {
  return d.pools.filter((p) => !p.planned.pool.internal && p.planned.pool.kind === kind);
}
