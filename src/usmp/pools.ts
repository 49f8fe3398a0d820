/**
 * Memory pools: building them (`makePool`), the defaults used when the user names none
 * (`defaultPools`, as TVM's `global_workspace` / `global_const_workspace`), reading them
 * from JSON (`parsePoolsJson`, validated against `schemas/pools.schema.json`), and the
 * target → pools lookup AssignPoolInfo needs.
 */
import { alignmentProblem, byteCountProblem } from '../config/numbers';
import { parseJsonDocument } from '../config/validateJson';
import { ConfigError } from '../errors';
import { DEFAULT_ALIGNMENT, PoolAccess, PoolInfo, PoolKind } from './types';

export const DEFAULT_WORKSPACE_POOL = 'global_workspace';
export const DEFAULT_CONSTANT_POOL = 'global_const_workspace';

/** What a user states about a pool; everything but name and targets has a default. */
export interface PoolSpec {
  readonly name: string;
  /** Default `workspace`. */
  readonly kind?: PoolKind;
  /** A map target → access, or a list of targets (workspace pools `rw`, constant pools `ro`). */
  readonly targets: readonly string[] | Readonly<Record<string, PoolAccess>>;
  readonly sizeHintBytes?: number;
  /** Default 16 (suits SIMD loads; TVM defaults to 1); a power of two up to 2^20 (config/numbers). */
  readonly alignment?: number;
  /** Default false: a pool the user names is supplied by the application. */
  readonly internal?: boolean;
  readonly clockFrequencyHz?: number;
  readonly readBandwidthBytesPerCycle?: number;
  readonly writeBandwidthBytesPerCycle?: number;
  readonly readLatencyCycles?: number;
  readonly writeLatencyCycles?: number;
  readonly targetBurstBytes?: Readonly<Record<string, number>>;
  /** Base address of the pool's memory on an embedded target (see `PoolInfo.address`). */
  readonly address?: number;
}

/** Where a pool was declared, so errors can point at it. */
export interface PoolSource {
  readonly file?: string;
  readonly jsonPath?: string;
}

const PERFORMANCE_FIELDS = [
  'clockFrequencyHz',
  'readBandwidthBytesPerCycle',
  'writeBandwidthBytesPerCycle',
  'readLatencyCycles',
  'writeLatencyCycles',
] as const;

function where(source: PoolSource | undefined, field: string): string {
  const path = source?.jsonPath !== undefined ? `${source.jsonPath}/${field}` : field;
  return source?.file !== undefined ? `${source.file}: ${path}` : path;
}

export function makePool(spec: PoolSpec, source?: PoolSource): PoolInfo {
  const kind = spec.kind ?? 'workspace';
  const ctx = { file: source?.file, jsonPath: source?.jsonPath, pool: spec.name };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.name)) {
    throw new ConfigError(
      `${where(source, 'name')}: pool name '${spec.name}' must be a C identifier (it names the pool's C variable)`,
      ctx,
    );
  }
  const defaultAccess: PoolAccess = kind === 'constant' ? 'ro' : 'rw';
  const targetAccess: Record<string, PoolAccess> = Array.isArray(spec.targets)
    ? Object.fromEntries((spec.targets as readonly string[]).map((t) => [t, defaultAccess]))
    : { ...(spec.targets as Readonly<Record<string, PoolAccess>>) };
  if (Object.keys(targetAccess).length === 0) {
    throw new ConfigError(`${where(source, 'targets')}: pool '${spec.name}' is reachable by no target`, ctx);
  }
  const alignment = spec.alignment ?? DEFAULT_ALIGNMENT;
  const alignmentIssue = alignmentProblem(alignment);
  if (alignmentIssue !== undefined) {
    throw new ConfigError(`${where(source, 'alignment')}: pool '${spec.name}' ${alignmentIssue}`, ctx);
  }
  const sizeIssue = spec.sizeHintBytes === undefined ? undefined : byteCountProblem(spec.sizeHintBytes, 'size hint');
  if (sizeIssue !== undefined) {
    throw new ConfigError(`${where(source, 'sizeHintBytes')}: pool '${spec.name}' ${sizeIssue}`, ctx);
  }
  const pool: Record<string, unknown> = {
    name: spec.name,
    kind,
    targetAccess,
    alignment,
    internal: spec.internal ?? false,
  };
  if (spec.sizeHintBytes !== undefined) pool.sizeHintBytes = spec.sizeHintBytes;
  for (const field of PERFORMANCE_FIELDS) {
    if (spec[field] !== undefined) pool[field] = spec[field];
  }
  if (spec.targetBurstBytes !== undefined) pool.targetBurstBytes = { ...spec.targetBurstBytes };
  if (spec.address !== undefined) pool.address = spec.address;
  return pool as unknown as PoolInfo;
}

/** The pool constants go to when the user names no constant pool (TVM's default). */
export function defaultConstantPool(targets: readonly string[]): PoolInfo {
  return makePool({ name: DEFAULT_CONSTANT_POOL, kind: 'constant', targets: [...new Set(targets)], internal: true });
}

/**
 * The user's pools, plus the default constant pool when none of them is a constant pool,
 * so weights always land in a pool that is initialised with them.
 */
export function withDefaultConstantPool(pools: readonly PoolInfo[], targets: readonly string[]): PoolInfo[] {
  if (pools.some((p) => p.kind === 'constant')) return [...pools];
  const taken = pools.find((p) => p.name === DEFAULT_CONSTANT_POOL);
  if (taken !== undefined) {
    // Otherwise reported as a duplicate the user never wrote ("first declared at pool #1").
    throw new ConfigError(
      `${taken.kind} pool '${taken.name}' has the name of the default constant pool, which is added because no constant pool is declared: ` +
        'rename the pool or declare constantPools',
      { pool: taken.name },
    );
  }
  return [...pools, defaultConstantPool(targets)];
}

/**
 * The pools used when the user gives none: one unlimited internal workspace pool and one
 * unlimited internal constant pool, both reachable by every target (as TVM's
 * `global_workspace` and `global_const_workspace`).
 */
export function defaultPools(targets: readonly string[]): PoolInfo[] {
  const unique = [...new Set(targets)];
  return [
    makePool({ name: DEFAULT_WORKSPACE_POOL, kind: 'workspace', targets: unique, internal: true }),
    defaultConstantPool(unique),
  ];
}

/** `act_mem (c: rw, accel: rw)`, for error messages that must say who may use a pool. */
export function describePool(pool: PoolInfo): string {
  const access = Object.entries(pool.targetAccess)
    .map(([t, a]) => `${t}: ${a}`)
    .join(', ');
  return `${pool.name} (${pool.kind}; ${access})`;
}

/**
 * Pools a target may place a buffer of `kind` in, in the given (preference) order.
 * Workspace buffers are written, so they need `rw`; constants only need to be read.
 */
export function poolsForTarget(pools: readonly PoolInfo[], target: string, kind: PoolKind): PoolInfo[] {
  return pools.filter((p) => {
    if (p.kind !== kind) return false;
    const access = p.targetAccess[target];
    if (access === undefined) return false;
    return kind === 'constant' || access === 'rw';
  });
}

/** Duplicate names and (when the known targets are given) unknown targets are errors. */
export function validatePools(
  pools: readonly PoolInfo[],
  knownTargets?: readonly string[],
  sources?: readonly (PoolSource | undefined)[],
): void {
  const seen = new Map<string, number>();
  pools.forEach((pool, i) => {
    const source = sources?.[i];
    const first = seen.get(pool.name);
    if (first !== undefined) {
      const firstWhere = sources?.[first]?.jsonPath ?? `pool #${first + 1}`;
      throw new ConfigError(`${where(source, 'name')}: duplicate pool name '${pool.name}' (first declared at ${firstWhere})`, {
        file: source?.file,
        jsonPath: source?.jsonPath,
        pool: pool.name,
      });
    }
    seen.set(pool.name, i);
    if (knownTargets === undefined) return;
    for (const target of Object.keys(pool.targetAccess)) {
      if (!knownTargets.includes(target)) {
        throw new ConfigError(
          `${where(source, 'targets')}: pool '${pool.name}' names unknown target '${target}' (known: ${knownTargets.join(', ')})`,
          { file: source?.file, jsonPath: source?.jsonPath, pool: pool.name, target },
        );
      }
    }
  });
}

// ---------------------------------------------------------------- JSON

interface PoolsDocument {
  readonly workspacePools?: readonly PoolSpec[];
  readonly constantPools?: readonly PoolSpec[];
}

export interface ParsePoolsOptions {
  /** Targets that exist; a pool naming another target is an error. */
  readonly knownTargets?: readonly string[];
}

/**
 * Reads `{"workspacePools": [...], "constantPools": [...]}`. Errors name the file and the
 * JSON path, e.g. `pools.json: /workspacePools/1/sizeHintBytes: must be integer`.
 */
export function parsePoolsJson(text: string, file: string, options: ParsePoolsOptions = {}): PoolInfo[] {
  const doc = parseJsonDocument<PoolsDocument>(text, 'pools.schema.json', file);
  const pools: PoolInfo[] = [];
  const sources: PoolSource[] = [];
  const groups: ReadonlyArray<readonly [keyof PoolsDocument, PoolKind]> = [
    ['workspacePools', 'workspace'],
    ['constantPools', 'constant'],
  ];
  for (const [key, kind] of groups) {
    (doc[key] ?? []).forEach((spec, i) => {
      const source = { file, jsonPath: `/${key}/${i}` };
      pools.push(makePool({ ...spec, kind }, source));
      sources.push(source);
    });
  }
  validatePools(pools, options.knownTargets, sources);
  return pools;
}
