/**
 * Several models in one application (the USMP RFC's U2): person_detect and kws_ref_model run
 * one after the other in one program from one shared workspace, compiled in one command
 * (`compileApplication`, as `uma-ts compile a.tflite b.tflite --module-name pd,kws`) and as
 * two separate compiles linked together (one copy of the runtime), host-only and with the
 * accel backend; both outputs must match the interpreter byte for byte.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { buildLayout } from '../../src/codegen/layout';
import { writeModelLibraryFormat } from '../../src/codegen/mlf';
import { appOffsetMacro } from '../../src/codegen/c/entryDesc';
import { MlfMetadata } from '../../src/codegen/types';
import { compileApplication } from '../../src/driver/application';
import { compileModel } from '../../src/driver/compile';
import { writeApplicationOutput } from '../../src/driver/writeOutput';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { PoolInfo } from '../../src/usmp/types';
import { parsePoolsJson } from '../../src/usmp/pools';
import { modelInputs, STRICT_C } from './harness';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

const MODELS = [
  { file: 'models/person_detect.tflite', mod: 'pd' },
  { file: 'models/kws_ref_model.tflite', mod: 'kws' },
];
const ACCEL_POOLS_FILE = 'backends/accel/pools.json';
const accelPools = (): PoolInfo[] => parsePoolsJson(fs.readFileSync(ACCEL_POOLS_FILE, 'utf8'), ACCEL_POOLS_FILE);

function registry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(NothingBackend);
  r.register(AccelBackend);
  return r;
}

function bytes(data: Uint8Array): string {
  return Array.from(data).join(',') || '0';
}

function cPool(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * main.c running every model once, in order, with `inputs[k]`; external workspace pools are
 * one buffer each (`shared_<pool>`, `sizeExpr(pool)` bytes) passed to every model, external
 * constant pools per model from its header's data macro. Prints `<k> <output> <bytes...>`.
 */
function applicationMain(metas: readonly MlfMetadata[], inputs: readonly Uint8Array[][], includes: readonly string[], sizeExpr: (pool: string) => string): string {
  const lines = ['#include <stdio.h>', '#include <string.h>', ...includes.map((h) => `#include "${h}"`), ''];
  const shared = new Set<string>();
  metas.forEach((m, k) => {
    const prefix = `tvmgen_${m.modelName}`;
    m.inputs.forEach((_, i) => lines.push(`static uint8_t in_${k}_${i}[] __attribute__((aligned(16))) = {${bytes(inputs[k][i])}};`));
    m.outputs.forEach((t, i) => lines.push(`static uint8_t out_${k}_${i}[${t.sizeBytes}] __attribute__((aligned(16)));`));
    for (const p of m.pools.filter((q) => !q.internal)) {
      if (p.kind === 'workspace') shared.add(p.name);
      else lines.push(`static const uint8_t const_${k}_${p.cName}[] __attribute__((aligned(16))) = ${prefix.toUpperCase()}_${p.cName!.toUpperCase()}_CONSTANT_POOL_DATA;`);
    }
  });
  for (const p of shared) lines.push(`static uint8_t shared_${cPool(p)}[${sizeExpr(p)}] __attribute__((aligned(16)));`);
  lines.push('', 'int main(void) {');
  metas.forEach((m, k) => {
    const prefix = `tvmgen_${m.modelName}`;
    const ws = m.pools.filter((p) => !p.internal && p.kind === 'workspace');
    const cp = m.pools.filter((p) => !p.internal && p.kind === 'constant');
    lines.push('  {', `    struct ${prefix}_inputs in;`, `    struct ${prefix}_outputs out;`, '    memset(&in, 0, sizeof(in));', '    memset(&out, 0, sizeof(out));');
    m.inputs.forEach((t, i) => lines.push(`    in.${t.cName} = (void*)in_${k}_${i};`));
    m.outputs.forEach((t, i) => lines.push(`    out.${t.cName} = (void*)out_${k}_${i};`));
    const args = ['&in', '&out'];
    if (ws.length > 0) {
      lines.push(`    struct ${prefix}_workspace_pools ws;`, ...ws.map((p) => `    ws.${p.cName} = shared_${cPool(p.name)};`));
      args.push('&ws');
    }
    if (cp.length > 0) {
      lines.push(`    struct ${prefix}_constant_pools cp;`, ...cp.map((p) => `    cp.${p.cName} = (uint8_t*)const_${k}_${p.cName};`));
      args.push('&cp');
    }
    lines.push(`    if (${prefix}_run(${args.join(', ')}) != 0) return 2;`);
    m.outputs.forEach((t, i) => {
      lines.push(`    printf("${k} ${i}");`, `    for (size_t b = 0; b < ${t.sizeBytes}; b++) printf(" %u", (unsigned)out_${k}_${i}[b]);`, '    printf("\\n");');
    });
    lines.push('  }');
  });
  lines.push('  return 0;', '}', '');
  return lines.join('\n');
}

function buildAndRun(dir: string, main: string, includeDirs: readonly string[], sources: readonly string[]): Uint8Array[][] {
  fs.writeFileSync(path.join(dir, 'main.c'), main);
  execFileSync('gcc', [...STRICT_C, '-O2', ...includeDirs.map((d) => `-I${d}`), 'main.c', ...sources, '-o', 'prog', '-lm'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Uint8Array[][] = [];
  for (const line of execFileSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8' }).trim().split('\n')) {
    const [k, i, ...rest] = line.trim().split(/\s+/).map(Number);
    (out[k] ??= [])[i] = Uint8Array.from(rest);
  }
  return out;
}

const graphs = MODELS.map((m) => loadTfliteFile(m.file));
const inputs = graphs.map((g, k) => modelInputs(g, 7 + k));
const expected = graphs.map((g, k) => interpret(g, inputs[k]).map((o) => Array.from(o)));

describe('several models in one application (U2): one shared workspace, one runtime', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-multi-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it.each([
    ['host only', 'nothing', undefined, false],
    ['accel', 'accel', accelPools, false],
    ['host only, --concurrent', 'nothing', undefined, true],
    ['accel, --concurrent', 'accel', accelPools, true],
  ] as const)('compiled in one command (%s): one array per workspace pool, sized for both models', (_, backend, pools, concurrent) => {
    const app = compileApplication(
      MODELS.map((m) => ({ model: m.file, moduleName: m.mod })),
      { backend, registry: registry(), concurrent, ...(pools !== undefined ? { pools: pools() } : {}) },
    );
    const out = path.join(tmp, 'app');
    writeApplicationOutput(out, app);

    // Each internal workspace pool is one array of uma_app.c, the larger need of the two.
    const workspace = app.sharedPools.filter((p) => p.internal);
    expect(workspace.length).toBeGreaterThan(0);
    const appSource = fs.readFileSync(path.join(out, 'codegen/host/src/uma_app.c'), 'utf8');
    const appHeader = fs.readFileSync(path.join(out, 'codegen/host/include/uma_app.h'), 'utf8');
    for (const p of workspace) {
      const needs = app.models.map((m) => m.artifacts.metadata.pools.find((q) => q.name === p.name)?.sizeBytes ?? 0);
      if (!concurrent) {
        // One after the other: both from offset 0, the larger need.
        expect(p.sizeBytes).toBe(Math.max(...needs));
        expect(Object.values(p.offsets).every((o) => o === 0)).toBe(true);
      } else {
        // Concurrently: the parts never overlap and fit in the pool.
        const parts = Object.entries(p.perModel).map(([m, size]) => [p.offsets[m], p.offsets[m] + size] as const).sort((a, b) => a[0] - b[0]);
        for (let i = 1; i < parts.length; i++) expect(parts[i][0]).toBeGreaterThanOrEqual(parts[i - 1][1]);
        expect(p.sizeBytes).toBe(parts[parts.length - 1][1]);
        expect(p.sizeBytes).toBeGreaterThanOrEqual(needs.reduce((a, b) => a + b, 0));
      }
      for (const [m, off] of Object.entries(p.offsets)) expect(appHeader).toContain(`#define ${appOffsetMacro(m, p.name)} ${off}\n`);
      expect(Object.values(p.perModel).sort()).toEqual(needs.filter((_, i) => app.models[i].artifacts.metadata.pools.some((q) => q.name === p.name)).sort());
      expect(appHeader).toContain(`#define ${p.sizeMacro} ${p.sizeBytes}\n`);
      expect(appSource).toContain(`uint8_t ${p.cName}[${p.sizeMacro} > 0 ? ${p.sizeMacro} : 1]`);
    }
    // The model entries only declare it; nothing else defines a workspace array.
    for (const m of MODELS) {
      const entry = fs.readFileSync(path.join(out, `codegen/host/src/${m.mod}_lib0.c`), 'utf8');
      expect(entry).not.toMatch(/static uint8_t \w+\[\d+\]/);
    }
    expect(Math.max(...workspace.map((p) => Object.keys(p.perModel).length))).toBe(2);

    const meta = JSON.parse(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8'));
    expect(meta.application.models).toEqual(['pd', 'kws']);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.models.map((m: { moduleName: string }) => m.moduleName)).toEqual(['pd', 'kws']);
    expect(report.sharedWorkspaceBytes).toBe(app.sharedPools.reduce((a, p) => a + p.sizeBytes, 0));

    const includeDirs = meta.application.includeDirs.map((d: string) => path.join(out, d));
    const sources = [
      ...meta.models.flatMap((m: MlfMetadata) => m.files!.modelSources),
      ...meta.application.appSources,
      ...meta.application.runtimeSources,
    ].map((s: string) => path.join(out, s));
    const got = buildAndRun(tmp, applicationMain(meta.models, inputs, ['uma_app.h'], (p) => app.sharedPools.find((q) => q.name === p)!.sizeMacro), includeDirs, sources);
    expect(got.map((o) => o.map((b) => Array.from(b)))).toEqual(expected);
  });

  it.each([
    ['host only', 'nothing', undefined],
    ['accel', 'accel', accelPools],
  ] as const)('two separate compiles (%s) link together with one runtime and one shared external buffer', (_, backend, pools) => {
    const external = (pools?.() ?? [{ ...parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'sram', targets: { c: 'rw' } }] }), 'pools')[0] }]).map((p) => ({
      ...p,
      internal: false,
    }));
    const results = MODELS.map((m) => compileModel(m.file, { backend, registry: registry(), pools: external, moduleName: m.mod }));
    const dirs = MODELS.map((m, k) => {
      const d = path.join(tmp, m.mod);
      writeModelLibraryFormat(d, results[k].artifacts);
      return d;
    });
    // The runtime folders are byte-identical where they overlap: one copy serves both.
    const layouts = dirs.map(buildLayout);
    const runtimeNames = layouts.map((l) => l.runtimeSources.map((s) => path.basename(s)));
    for (const name of runtimeNames[0].filter((n) => runtimeNames[1].includes(n))) {
      expect(fs.readFileSync(path.join(dirs[0], 'runtime/src', name), 'utf8')).toBe(fs.readFileSync(path.join(dirs[1], 'runtime/src', name), 'utf8'));
    }
    // One copy of each runtime file, whichever output has it.
    const runtimeSources = [...new Map(layouts.flatMap((l) => l.runtimeSources).map((s) => [path.basename(s), s])).values()];
    expect(runtimeSources.length).toBeLessThan(layouts[0].runtimeSources.length + layouts[1].runtimeSources.length);
    const sizes = results.map((r) => r.artifacts.metadata.pools.filter((p) => p.kind === 'workspace' && !p.internal));
    const maxMacro = (pool: string): string => {
      const macros = results
        .map((r, k) => ({ r, p: sizes[k].find((q) => q.name === pool) }))
        .filter((x) => x.p !== undefined)
        .map((x) => `TVMGEN_${x.r.artifacts.moduleName.toUpperCase()}_${x.p!.cName!.toUpperCase()}_WORKSPACE_POOL_SIZE`);
      return macros.reduce((a, b) => `((${a}) > (${b}) ? (${a}) : (${b}))`);
    };
    const includeDirs = layouts.flatMap((l) => l.includeDirs);
    const sources = [...layouts[0].modelSources, ...layouts[1].modelSources, ...runtimeSources];
    const metas = results.map((r) => r.artifacts.metadata);
    const got = buildAndRun(tmp, applicationMain(metas, inputs, ['tvmgen_pd.h', 'tvmgen_kws.h'], maxMacro), includeDirs, sources);
    expect(got.map((o) => o.map((b) => Array.from(b)))).toEqual(expected);
  });
});
