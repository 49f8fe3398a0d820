/**
 * Several models in one application, run one after the other (the USMP RFC's U2): each model
 * compiled with its own module name, entry point and header; workspace pools shared, sized
 * for the model that needs the most; constant pools per model; the runtime once.
 *
 * Internal workspace pools become ONE array each, owned by the application source
 * `uma_app.c` and declared `extern` by every model's entry; external ones get one
 * `UMA_APP_<POOL>_WORKSPACE_POOL_SIZE` in `uma_app.h`, so the application allocates one buffer
 * and passes it to every model's run.
 */
import { appOffsetMacro, moduleMacroName } from '../codegen/c/entryDesc';
import { validateModuleName } from '../codegen/c/generate';
import { GeneratedFile, MlfMetadata } from '../codegen/types';
import { CodegenError, ConfigError, MemoryPlanningError } from '../errors';
import { CompileOptions, CompileResult, compileModel } from './compile';
import { poolBaseAlignment } from '../codegen/c/poolBase';
import { alignUp } from '../util/align';
import { unmatchedPinError } from '../../passes/poolPinning';

export const APP_HEADER = 'uma_app.h';
export const APP_SOURCE = 'uma_app.c';

/** C name of the application's array for an internal workspace pool. */
export function sharedPoolSymbol(pool: string): string {
  return `uma_app_${pool.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function macroOf(pool: string): string {
  return `UMA_APP_${pool.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase()}_WORKSPACE_POOL_SIZE`;
}

export interface ApplicationModel {
  /** A .tflite path (or anything compileModel takes). */
  readonly model: Parameters<typeof compileModel>[0];
  readonly moduleName: string;
}

/** A workspace pool of the application: one memory, sized for its largest user. */
export interface SharedPool {
  readonly name: string;
  readonly internal: boolean;
  readonly sizeBytes: number;
  readonly alignment: number;
  /** Array name (internal pools) in uma_app.c. */
  readonly cName?: string;
  /** `#define` of uma_app.h holding the size. */
  readonly sizeMacro: string;
  /** Each model's need in this pool (module name → bytes). */
  readonly perModel: Readonly<Record<string, number>>;
  /** Where each model's part starts (uma_app.h `UMA_APP_<MOD>_<POOL>_OFFSET`): all 0 unless concurrent. */
  readonly offsets: Readonly<Record<string, number>>;
}

export interface ApplicationResult {
  readonly models: readonly CompileResult[];
  readonly concurrent: boolean;
  readonly sharedPools: readonly SharedPool[];
  /** Application files (uma_app.h, uma_app.c), paths relative to codegen/host/. */
  readonly appFiles: readonly GeneratedFile[];
  /** The runtime, once: identical in every model's compile. */
  readonly runtimeFiles: readonly GeneratedFile[];
}

function checkModuleNames(models: readonly ApplicationModel[]): void {
  if (models.length === 0) throw new ConfigError('an application needs at least one model');
  // Compared by their macro names: 'A' and 'a' would define one macro twice, and their files
  // would clash on case-insensitive file systems.
  const seen = new Map<string, string>();
  for (const m of models) {
    // Checked here, not only by codegen: an empty name would otherwise fall back to the default
    // module name in the model but stay empty in the application files that include it.
    validateModuleName(m.moduleName);
    const key = moduleMacroName(m.moduleName);
    const first = seen.get(key);
    if (first === m.moduleName) throw new ConfigError(`module name '${m.moduleName}' is given to two models; each model of an application needs its own`);
    if (first !== undefined) throw new ConfigError(`module names '${first}' and '${m.moduleName}' differ only in case; each model of an application needs its own (its macros are UMA_APP_${key}_*)`);
    seen.set(key, m.moduleName);
  }
}

/**
 * One after the other: every model from offset 0, the pool as big as the largest need.
 * Concurrently: the parts side by side (each at its base alignment), so no buffer of one
 * model overlaps a buffer of another.
 */
function layOut(perModel: Record<string, number>, alignment: number, concurrent: boolean): { sizeBytes: number; offsets: Record<string, number> } {
  const offsets: Record<string, number> = {};
  if (!concurrent) {
    for (const m of Object.keys(perModel)) offsets[m] = 0;
    return { sizeBytes: Math.max(0, ...Object.values(perModel)), offsets };
  }
  let end = 0;
  for (const [m, size] of Object.entries(perModel)) {
    offsets[m] = partStart(end, alignment);
    end = offsets[m] + size;
  }
  return { sizeBytes: end, offsets };
}

function sharedPools(models: readonly CompileResult[], concurrent: boolean): SharedPool[] {
  const byName = new Map<string, { internal: boolean; sizeBytes: number; alignment: number; perModel: Record<string, number> }>();
  for (const m of models) {
    for (const p of m.artifacts.metadata.pools) {
      if (p.kind !== 'workspace') continue;
      const prev = byName.get(p.name);
      if (prev === undefined) {
        byName.set(p.name, { internal: p.internal, sizeBytes: p.sizeBytes, alignment: p.alignment, perModel: { [m.artifacts.moduleName]: p.sizeBytes } });
        continue;
      }
      prev.sizeBytes = Math.max(prev.sizeBytes, p.sizeBytes);
      prev.alignment = Math.max(prev.alignment, p.alignment);
      prev.perModel[m.artifacts.moduleName] = p.sizeBytes;
    }
  }
  return [...byName].map(([name, p]) => {
    const layout = layOut(p.perModel, p.alignment, concurrent);
    return {
      name,
      internal: p.internal,
      sizeBytes: layout.sizeBytes,
      alignment: p.alignment,
      ...(p.internal ? { cName: sharedPoolSymbol(name) } : {}),
      sizeMacro: macroOf(name),
      perModel: p.perModel,
      offsets: layout.offsets,
    };
  });
}

/**
 * Each model's plan fits the pool's limit; the parts laid side by side for concurrent models
 * may not, and the shared pool is what the application must provide.
 */
function checkSharedPoolLimits(models: readonly CompileResult[], pools: readonly SharedPool[], concurrent: boolean): void {
  for (const pool of pools) {
    const limits = models.map((m) => m.report.pools.find((p) => p.name === pool.name)?.limitBytes).filter((l): l is number => typeof l === 'number');
    if (limits.length === 0) continue;
    // The pool's own limit: concurrent models after the first planned within what was left of it.
    const limit = Math.max(...limits);
    if (pool.sizeBytes <= limit) continue;
    const parts = Object.entries(pool.perModel).map(([m, bytes]) => `${m} ${bytes} at ${pool.offsets[m]}`).join(', ');
    throw new MemoryPlanningError(
      `shared workspace pool '${pool.name}' needs ${pool.sizeBytes} bytes (${parts}), more than its ${limit}-byte limit; ` +
        `raise the pool's sizeHintBytes${concurrent ? ' or compile the models to run one after the other (without --concurrent)' : ''}`,
      { pool: pool.name },
    );
  }
}

/**
 * Every name uma_app.h and uma_app.c define is distinct. Pool and module names map to C names
 * with case folded and punctuation as '_', so pools 's' and 'S', or module 'a' with pool 'b_c'
 * and module 'a_b' with pool 'c', gave one macro two values (fuzzed: both compiled, and a build
 * without -Werror took the second silently).
 */
function checkDistinctCNames(pools: readonly SharedPool[]): void {
  const seen = new Map<string, string>();
  const add = (cName: string, what: string): void => {
    const first = seen.get(cName);
    if (first !== undefined) {
      throw new ConfigError(`${first} and ${what} both become the C name ${cName} in uma_app.h; rename one of them (C names are upper-cased, other characters than letters, digits and '_' become '_')`);
    }
    seen.set(cName, what);
  };
  for (const p of pools) {
    add(p.sizeMacro, `the size of pool '${p.name}'`);
    if (p.cName !== undefined) add(p.cName, `the array of pool '${p.name}'`);
    for (const m of Object.keys(p.offsets)) add(appOffsetMacro(m, p.name), `the offset of module '${m}' in pool '${p.name}'`);
  }
}

/** Where a concurrent model's part starts after parts ending at `end` (layOut). */
function partStart(end: number, alignment: number): number {
  return alignUp(end, poolBaseAlignment(alignment));
}


function appFiles(pools: readonly SharedPool[], modules: readonly string[], concurrent: boolean): GeneratedFile[] {
  const header = [
    '/* Generated by uma-ts. Do not edit. */',
    '#ifndef UMA_APP_H_',
    '#define UMA_APP_H_',
    '',
    '#include <stdint.h>',
    '',
    concurrent
      ? `/* Workspace pools shared by ${modules.join(', ')} (running concurrently): each model's part apart. */`
      : `/* Workspace pools shared by ${modules.join(', ')} (run one after the other): the largest need of each. */`,
    ...pools.map((p) => `#define ${p.sizeMacro} ${p.sizeBytes}`),
    '',
    '/* Where each model\'s part of a shared pool starts. */',
    ...pools.flatMap((p) => Object.entries(p.offsets).map(([m, off]) => `#define ${appOffsetMacro(m, p.name)} ${off}`)),
    '',
    ...modules.map((m) => `#include "tvmgen_${m}.h"`),
    '',
    '#ifdef __cplusplus',
    'extern "C" {',
    '#endif',
    ...pools.filter((p) => p.internal).map((p) => `extern uint8_t ${p.cName}[${p.sizeMacro} > 0 ? ${p.sizeMacro} : 1];`),
    '#ifdef __cplusplus',
    '}',
    '#endif',
    '',
    '#endif',
    '',
  ];
  const source = [
    '/* Generated by uma-ts. Do not edit. */',
    `#include "${APP_HEADER}"`,
    '',
    ...pools
      .filter((p) => p.internal)
      .map((p) => `uint8_t ${p.cName}[${p.sizeMacro} > 0 ? ${p.sizeMacro} : 1] __attribute__((aligned(${poolBaseAlignment(p.alignment)})));`),
    '',
  ];
  return [
    { path: `include/${APP_HEADER}`, content: header.join('\n') },
    { path: `src/${APP_SOURCE}`, content: source.join('\n') },
  ];
}

function mergeRuntimes(models: readonly CompileResult[]): GeneratedFile[] {
  const byPath = new Map<string, GeneratedFile>();
  for (const m of models) {
    for (const f of m.artifacts.runtimeFiles) {
      const prev = byPath.get(f.path);
      if (prev !== undefined && prev.content !== f.content) {
        throw new CodegenError(`runtime file runtime/${f.path} differs between the models of the application`);
      }
      byPath.set(f.path, f);
    }
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface ApplicationOptions extends Omit<CompileOptions, 'moduleName' | 'sharedWorkspaceSymbol'> {
  /** The models may run at the same time: their parts of a shared pool never overlap. */
  readonly concurrent?: boolean;
}

/**
 * Concurrent models, one after the other: each plans within what the models before it left of
 * every size-limited pool (their parts lie side by side, layOut). Planned each against the
 * whole limit, two models that fitted apart were refused together although another layout
 * fitted (fuzzed: a pool of 64 bytes, models of 32 and 64 bytes, and an unlimited pool).
 */
function compileSideBySide(models: readonly ApplicationModel[], options: Omit<ApplicationOptions, 'concurrent'>): CompileResult[] {
  const results: CompileResult[] = [];
  const ends = new Map<string, number>();
  for (const m of models) {
    const first = results[0];
    const pools = first?.pools.map((p) => {
      const end = ends.get(p.name);
      if (p.kind !== 'workspace' || p.sizeHintBytes === undefined || end === undefined) return p;
      return { ...p, sizeHintBytes: Math.max(0, p.sizeHintBytes - partStart(end, p.alignment)) };
    });
    try {
      results.push(compileModel(m.model, { ...options, ...(pools ? { pools } : {}), moduleName: m.moduleName, sharedWorkspaceSymbol: sharedPoolSymbol }));
    } catch (e) {
      if (!(e instanceof MemoryPlanningError) || ends.size === 0) throw e;
      const taken = [...ends].map(([pool, end]) => `${pool} ${end}`).join(', ');
      throw new MemoryPlanningError(`${e.message} (with --concurrent, its limits are what the models before it left: they take ${taken} bytes)`, e.context);
    }
    for (const p of results[results.length - 1].artifacts.metadata.pools) {
      if (p.kind !== 'workspace') continue;
      ends.set(p.name, partStart(ends.get(p.name) ?? 0, p.alignment) + p.sizeBytes);
    }
  }
  return results;
}

/**
 * The pins file applies to every model of the application: a pin must match in one of them (a
 * misspelt pin never passes silently), not in each, since a tensor of one model is in no other
 * (a pin of one model's tensor was refused as matching 'no buffer of the program').
 */
function checkPinsMatchSomeModel(models: readonly CompileResult[]): void {
  const [first = [], ...rest] = models.map((m) => m.pinning?.unmatchedPins ?? []);
  const missed = first.find((pin) => rest.every((other) => other.some((p) => p.subject === pin.subject)));
  if (missed !== undefined) throw unmatchedPinError(missed, 'any model of the application');
}

/** Compiles every model with `options` (one backend, one pool set) into one application. */
export function compileApplication(models: readonly ApplicationModel[], options: ApplicationOptions): ApplicationResult {
  checkModuleNames(models);
  const { concurrent = false, ...given } = options;
  const compileOptions = { ...given, pinsSharedByModels: true };
  const results = concurrent
    ? compileSideBySide(models, compileOptions)
    : models.map((m) => compileModel(m.model, { ...compileOptions, moduleName: m.moduleName, sharedWorkspaceSymbol: sharedPoolSymbol }));
  checkPinsMatchSomeModel(results);
  const pools = sharedPools(results, concurrent);
  checkSharedPoolLimits(results, pools, concurrent);
  checkDistinctCNames(pools);
  return {
    models: results,
    sharedPools: pools,
    appFiles: appFiles(pools, models.map((m) => m.moduleName), concurrent),
    concurrent,
    runtimeFiles: mergeRuntimes(results),
  };
}

/** metadata.json of an application output (schemas/application.schema.json). */
export interface ApplicationMetadata {
  readonly schemaVersion: 1;
  readonly application: {
    readonly models: readonly string[];
    readonly concurrent: boolean;
    readonly sharedPools: readonly SharedPool[];
    readonly includeDirs: readonly string[];
    readonly appSources: readonly string[];
    readonly runtimeSources: readonly string[];
  };
  readonly models: readonly MlfMetadata[];
}
