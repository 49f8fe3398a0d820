/**
 * `metadata.json` of the MLF directory: what was generated, for which targets, and how much
 * memory each pool and function needs.
 */
import { EmittedFunc } from './c/emitPrimFunc';
import { EntryDesc, IoField } from './c/entryDesc';
import { FunctionMetadata, IoRequirement, MemoryLayout, MlfMetadata, OutputFilesMetadata, TensorMetadata } from './types';

export interface MetadataGroup {
  readonly file: string;
  readonly target: string;
  readonly funcs: readonly EmittedFunc[];
}

function tensorMetadata(f: IoField, requirements: readonly IoRequirement[]): TensorMetadata {
  const need = f.placement === undefined ? requirements.find((r) => r.name === f.spec.name) : undefined;
  const base = {
    name: f.spec.name,
    cName: f.cName,
    dtype: f.spec.dtype,
    shape: [...f.spec.shape],
    sizeBytes: f.sizeBytes,
    ...(need !== undefined ? { usedBy: [...need.usedBy], requiredPools: [...need.pools] } : {}),
  };
  return f.placement === undefined ? base : { ...base, pool: f.placement.pool, offset: f.placement.offset };
}

export function buildMetadata(args: {
  moduleName: string;
  entry: EntryDesc;
  groups: readonly MetadataGroup[];
  memory?: MemoryLayout;
  /** (pool, target) pairs the generated `run` registers with the target's runtime. */
  registrations?: readonly { pool: string; target: string }[];
  ioRequirements?: readonly IoRequirement[];
  files?: OutputFilesMetadata;
}): MlfMetadata {
  const registrations = args.registrations ?? [];
  const requirements = args.ioRequirements ?? [];
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
      cName: p.cName,
      kind: p.planned.pool.kind,
      internal: p.planned.pool.internal,
      sizeBytes: p.planned.sizeBytes,
      alignment: p.planned.pool.alignment,
      targets: { ...p.planned.pool.targetAccess },
      ...(p.planned.pool.address !== undefined ? { address: p.planned.pool.address } : {}),
      ...registeredWith(registrations, p.planned.pool.name),
    })),
    functions,
    inputs: args.entry.inputs.map((f) => tensorMetadata(f, requirements)),
    outputs: args.entry.outputs.map((f) => tensorMetadata(f, requirements)),
    ...(args.files !== undefined ? { files: args.files } : {}),
  };
  const algorithm = args.memory?.algorithm;
  return algorithm === undefined ? meta : { ...meta, memoryPlanningAlgorithm: algorithm };
}

function registeredWith(registrations: readonly { pool: string; target: string }[], pool: string): { registeredWith?: string[] } {
  const targets = registrations.filter((r) => r.pool === pool).map((r) => r.target);
  return targets.length > 0 ? { registeredWith: targets } : {};
}
