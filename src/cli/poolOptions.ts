/**
 * Memory pools from the command line, as tvmc spells them:
 *
 *   --workspace-pools sram,dtcm
 *   --workspace-pools-targets sram:c,accel=ro   (one per pool; `target=ro|rw`, default rw)
 *   --workspace-pools-size-hint-bytes sram:65536
 *   --workspace-pools-alignment sram:32
 *   --constant-pools flash  --constant-pools-targets flash:c,accel  ...
 *
 * The pools are built with `makePool` and checked like a pools JSON file; every error names
 * the flag it comes from. `resolvePools` picks between `--pools FILE`, these flags and the
 * backend's bundled pools file.
 */
import { Command } from 'commander';
import { collect } from './optionValues';
import { ConfigError } from '../errors';
import { byteCountProblem } from '../config/numbers';
import { CONFIG_FILE_LIMIT_BYTES, readInputText } from '../util/files';
import { makePool, parsePoolsJson, validatePools } from '../usmp/pools';
import { PoolAccess, PoolInfo, PoolKind } from '../usmp/types';

/** The parsed values of the pool flags (commander's camel-cased option names). */
export interface PoolFlags {
  readonly workspacePools?: string;
  readonly workspacePoolsTargets?: readonly string[];
  readonly workspacePoolsSizeHintBytes?: readonly string[];
  readonly workspacePoolsAlignment?: readonly string[];
  readonly constantPools?: string;
  readonly constantPoolsTargets?: readonly string[];
  readonly constantPoolsSizeHintBytes?: readonly string[];
  readonly constantPoolsAlignment?: readonly string[];
}

/** Adds the tvmc-style pool flags to a command. */
export function addPoolOptions(command: Command): Command {
  for (const kind of ['workspace', 'constant'] as const) {
    command
      .option(`--${kind}-pools <names>`, `${kind} pools, comma-separated, in preference order`)
      .option(
        `--${kind}-pools-targets <pool:targets>`,
        `targets reaching a ${kind} pool, e.g. sram:c,accel=ro (repeat per pool)`,
        collect,
      )
      .option(`--${kind}-pools-size-hint-bytes <pool:bytes>`, `size limit of a ${kind} pool (repeat per pool)`, collect)
      .option(`--${kind}-pools-alignment <pool:bytes>`, `alignment of a ${kind} pool (repeat per pool)`, collect);
  }
  return command;
}

const POOL_FLAG_KEYS: readonly (keyof PoolFlags)[] = [
  'workspacePools',
  'workspacePoolsTargets',
  'workspacePoolsSizeHintBytes',
  'workspacePoolsAlignment',
  'constantPools',
  'constantPoolsTargets',
  'constantPoolsSizeHintBytes',
  'constantPoolsAlignment',
];

/** True when any pool flag is given (`flags` may hold a command's other options too). */
export function hasPoolFlags(flags: PoolFlags): boolean {
  return POOL_FLAG_KEYS.some((k) => flags[k] !== undefined);
}

interface KindFlags {
  readonly names?: string;
  readonly targets?: readonly string[];
  readonly sizeHint?: readonly string[];
  readonly alignment?: readonly string[];
}

function flagsOf(flags: PoolFlags, kind: PoolKind): KindFlags {
  return kind === 'workspace'
    ? {
        names: flags.workspacePools,
        targets: flags.workspacePoolsTargets,
        sizeHint: flags.workspacePoolsSizeHintBytes,
        alignment: flags.workspacePoolsAlignment,
      }
    : {
        names: flags.constantPools,
        targets: flags.constantPoolsTargets,
        sizeHint: flags.constantPoolsSizeHintBytes,
        alignment: flags.constantPoolsAlignment,
      };
}

function fail(flag: string, message: string, extra: Record<string, unknown> = {}): never {
  throw new ConfigError(`${flag}: ${message}`, { option: flag, ...extra });
}

/** `pool:value` entries of one repeatable flag, keyed by pool; each pool must be declared once. */
function perPool(flag: string, entries: readonly string[] | undefined, declared: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries ?? []) {
    const colon = entry.indexOf(':');
    if (colon <= 0 || colon === entry.length - 1) fail(flag, `expected <pool>:<value>, got '${entry}'`);
    const pool = entry.slice(0, colon);
    const value = entry.slice(colon + 1);
    if (!declared.includes(pool)) {
      fail(flag, `pool '${pool}' is not declared (declared: ${declared.join(', ') || 'none'})`, { pool });
    }
    if (out.has(pool)) fail(flag, `pool '${pool}' is given twice`, { pool });
    out.set(pool, value);
  }
  return out;
}

function parseTargets(flag: string, pool: string, value: string, kind: PoolKind): Record<string, PoolAccess> {
  const access: Record<string, PoolAccess> = {};
  for (const item of value.split(',')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(rw|ro))?$/.exec(item.trim());
    if (!m) fail(flag, `pool '${pool}': '${item}' is not a target or target=rw|ro`, { pool });
    if (access[m[1]] !== undefined) fail(flag, `pool '${pool}': target '${m[1]}' is given twice`, { pool });
    access[m[1]] = (m[2] as PoolAccess | undefined) ?? (kind === 'constant' ? 'ro' : 'rw');
  }
  return access;
}

function parseBytes(flag: string, pool: string, value: string): number {
  if (!/^\d+$/.test(value)) fail(flag, `pool '${pool}': '${value.slice(0, 40)}' is not a non-negative integer`, { pool });
  const n = Number(value);
  const problem = byteCountProblem(n, 'value');
  if (problem !== undefined) fail(flag, `pool '${pool}': ${problem}`, { pool });
  return n;
}

function poolsOfKind(flags: PoolFlags, kind: PoolKind, knownTargets: readonly string[]): PoolInfo[] {
  const f = flagsOf(flags, kind);
  const namesFlag = `--${kind}-pools`;
  const targetsFlag = `--${kind}-pools-targets`;
  const sizeFlag = `--${kind}-pools-size-hint-bytes`;
  const alignFlag = `--${kind}-pools-alignment`;
  const names = f.names === undefined ? [] : f.names.split(',').map((n) => n.trim());
  if (f.names !== undefined && names.some((n) => n === '')) fail(namesFlag, `empty pool name in '${f.names}'`);
  const targets = perPool(targetsFlag, f.targets, names);
  const sizes = perPool(sizeFlag, f.sizeHint, names);
  const alignments = perPool(alignFlag, f.alignment, names);
  return names.map((name) => {
    const targetText = targets.get(name);
    if (targetText === undefined) fail(targetsFlag, `pool '${name}' needs its targets, e.g. ${name}:c`, { pool: name });
    const targetAccess = parseTargets(targetsFlag, name, targetText, kind);
    for (const t of Object.keys(targetAccess)) {
      if (!knownTargets.includes(t)) {
        fail(targetsFlag, `pool '${name}' names unknown target '${t}' (known: ${knownTargets.join(', ')})`, { pool: name, target: t });
      }
    }
    const size = sizes.get(name);
    const alignment = alignments.get(name);
    return makePool(
      {
        name,
        kind,
        targets: targetAccess,
        ...(size !== undefined ? { sizeHintBytes: parseBytes(sizeFlag, name, size) } : {}),
        ...(alignment !== undefined ? { alignment: parseBytes(alignFlag, name, alignment) } : {}),
      },
      { file: namesFlag },
    );
  });
}

/** Pools declared by the tvmc-style flags: workspace pools first, then constant pools. */
export function poolsFromFlags(flags: PoolFlags, knownTargets: readonly string[]): PoolInfo[] {
  const pools = [...poolsOfKind(flags, 'workspace', knownTargets), ...poolsOfKind(flags, 'constant', knownTargets)];
  validatePools(pools, knownTargets, pools.map((p) => ({ file: `--${p.kind}-pools` })));
  return pools;
}

export function readPoolsFile(file: string, knownTargets: readonly string[]): PoolInfo[] {
  const text = readInputText(file, { what: 'pools file', limitBytes: CONFIG_FILE_LIMIT_BYTES });
  return parsePoolsJson(text, file, { knownTargets });
}

export interface PoolChoice {
  /** undefined: the pipeline's default pools. */
  readonly pools?: PoolInfo[];
  /** Where the pools came from, for the report header. */
  readonly origin: string;
  /** The pools JSON they were read from, if any. */
  readonly file?: string;
}

/**
 * The pools of one compilation: `--pools FILE`, or the pool flags, or the backend's bundled
 * pools file, or (none of these) the pipeline's default shared pools.
 */
export function resolvePools(options: {
  readonly poolsFile?: string;
  readonly flags: PoolFlags;
  readonly bundledPoolsFile?: string;
  readonly knownTargets: readonly string[];
}): PoolChoice {
  const fromFlags = hasPoolFlags(options.flags);
  if (options.poolsFile !== undefined && fromFlags) {
    throw new ConfigError('give pools either as --pools FILE or as --workspace-pools/--constant-pools flags, not both');
  }
  if (options.poolsFile !== undefined) {
    return { pools: readPoolsFile(options.poolsFile, options.knownTargets), origin: options.poolsFile, file: options.poolsFile };
  }
  if (fromFlags) return { pools: poolsFromFlags(options.flags, options.knownTargets), origin: 'command-line pool flags' };
  if (options.bundledPoolsFile !== undefined) {
    return { pools: readPoolsFile(options.bundledPoolsFile, options.knownTargets), origin: options.bundledPoolsFile, file: options.bundledPoolsFile };
  }
  return { origin: 'default pools' };
}
