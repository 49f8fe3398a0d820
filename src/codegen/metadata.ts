/**
 * `metadata.json` of the MLF directory: what was generated, for which targets, and how much
 * memory each pool and function needs.
 */
import { EmittedFunc } from './c/emitPrimFunc';
import { EntryDesc, IoField } from './c/entryDesc';
import { FunctionMetadata, MemoryLayout, MlfMetadata, TensorMetadata } from './types';

export interface MetadataGroup {
  readonly file: string;
  readonly target: string;
  readonly funcs: readonly EmittedFunc[];
}

function tensorMetadata(f: IoField): TensorMetadata {
  const base = {
    name: f.spec.name,
    cName: f.cName,
    dtype: f.spec.dtype,
    shape: [...f.spec.shape],
    sizeBytes: f.sizeBytes,
  };
  return f.placement === undefined ? base : { ...base, pool: f.placement.pool, offset: f.placement.offset };
}

export function buildMetadata(args: {
  moduleName: string;
  entry: EntryDesc;
  groups: readonly MetadataGroup[];
  memory?: MemoryLayout;
}): MlfMetadata {
  const functions: FunctionMetadata[] = args.groups.flatMap((g) =>
    g.funcs.map((f) => ({
      name: f.name,
      symbol: f.symbol,
      target: g.target,
      file: g.file,
      workspaceSizeBytes: f.stats.staticBytes,
      stackSizeBytes: f.stats.stackBytes,
      constantSizeBytes: f.stats.constantBytes,
    })),
  );
  const targets = [...new Set(args.groups.filter((g) => g.funcs.length > 0).map((g) => g.target))];
  const meta: MlfMetadata = {
    schemaVersion: 1,
    modelName: args.moduleName,
    targets,
    pools: args.entry.pools.map((p) => ({
      name: p.planned.pool.name,
      kind: p.planned.pool.kind,
      internal: p.planned.pool.internal,
      sizeBytes: p.planned.sizeBytes,
      alignment: p.planned.pool.alignment,
      targets: { ...p.planned.pool.targetAccess },
    })),
    functions,
    inputs: args.entry.inputs.map(tensorMetadata),
    outputs: args.entry.outputs.map(tensorMetadata),
  };
  const algorithm = args.memory?.algorithm;
  return algorithm === undefined ? meta : { ...meta, memoryPlanningAlgorithm: algorithm };
}
