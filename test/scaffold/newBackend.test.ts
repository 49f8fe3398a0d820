/**
 * `uma-ts new-backend`: name conversion, refusal to overwrite, and that a generated skeleton
 * type-checks, its C kernel compiles, and its own jest test passes when run by jest.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BackendRegistry, compileModel, GraphFunctionBuilder, interpret, moduleOf, tensorType, UmaBackend } from '../../src';
import { main } from '../../src/cli/main';
import { memoryIO } from '../../src/cli/io';
import { ConfigError, UmaError } from '../../src/errors';
import { backendNames, toSnakeCase } from '../../src/scaffold/names';
import { relativeApiImport, umaPackageRoot, writeBackendSkeleton } from '../../src/scaffold/writer';

const ROOT = path.resolve(__dirname, '..', '..');
// The module object itself (spied on below); the `import * as` namespace cannot be redefined.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsModule = require('fs') as typeof import('fs');

function run(cmd: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(cmd, [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}\n${err.message}`);
  }
}

describe('backend names', () => {
  it.each([
    ['my-accel', 'my_accel', 'MyAccel', 'MyAccelBackend'],
    ['my_accel', 'my_accel', 'MyAccel', 'MyAccelBackend'],
    ['MyAccel', 'my_accel', 'MyAccel', 'MyAccelBackend'],
    ['myAccel2', 'my_accel2', 'MyAccel2', 'MyAccel2Backend'],
    ['HTTPAccel', 'http_accel', 'HttpAccel', 'HttpAccelBackend'],
    ['npu', 'npu', 'Npu', 'NpuBackend'],
  ])('%s → target %s, class %s', (name, snake, camel, className) => {
    expect(backendNames(name)).toMatchObject({ snake, camel, className, lowerCamel: camel[0].toLowerCase() + camel.slice(1) });
  });

  it('snake-cases the way uma_cli does (inflection underscore)', () => {
    expect(toSnakeCase('MyAiHw')).toBe('my_ai_hw');
    expect(toSnakeCase('my-ai-hw')).toBe('my_ai_hw');
  });

  it.each(['tvmgen', 'tvmgen-default', 'uma_ref'])('rejects %j, whose kernel files would clash with generated ones', (name) => {
    expect(() => backendNames(name)).toThrow(/would clash with a file uma-ts generates/);
  });

  it.each(['', '1accel', 'my accel', 'my.accel', 'my--accel', '-accel', 'accel_', 'c', 'ünï'])('rejects %j', (name) => {
    expect(() => backendNames(name)).toThrow(ConfigError);
    expect(() => backendNames(name)).toThrow(/invalid backend name/);
  });
});

describe('uma-ts new-backend writes a working skeleton', () => {
  const rel = `backends/__scaffold_test_${process.pid}`;
  const dir = path.join(ROOT, rel);
  const stdout: string[] = [];

  beforeAll(async () => {
    expect(fs.existsSync(dir)).toBe(false);
    const io = memoryIO();
    // The command resolves --dir against the working directory, which jest sets to the repo.
    expect(path.resolve(process.cwd())).toBe(ROOT);
    const code = await main(['node', 'uma-ts', 'new-backend', 'scaffold-probe', '--dir', rel], io);
    stdout.push(...io.stdout, ...io.stderr);
    expect(code).toBe(0);
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates the backend files with names derived from the backend name', () => {
    expect(stdout.join('\n')).toContain("created backend 'scaffold_probe' (class ScaffoldProbeBackend)");
    for (const f of [
      'backend.ts',
      'patterns.ts',
      'strategies.ts',
      'passes.ts',
      'codegen.ts',
      'simulation.ts',
      'kernels.ts',
      'index.ts',
      'runtime/scaffold_probe_kernels.h',
      'runtime/scaffold_probe_kernels.c',
      'scaffold_probe.test.ts',
    ]) {
      expect(fs.existsSync(path.join(dir, f))).toBe(true);
    }
    const backend = fs.readFileSync(path.join(dir, 'backend.ts'), 'utf8');
    expect(backend).toContain('export class ScaffoldProbeBackend extends UmaBackend');
    expect(backend).toContain("export const SCAFFOLD_PROBE_TARGET = 'scaffold_probe';");
    // Only the public API, by a relative path that resolves to src/index.ts from here.
    expect(backend).toContain("from '../../src';");
    expect(fs.existsSync(path.join(path.resolve(dir, '../../src'), 'index.ts'))).toBe(true);
    const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
    for (const f of sources) {
      const imports = [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const spec of imports) expect(['../../src', 'fs', 'path', '.'].includes(spec) || /^\.\/[a-z]+$/.test(spec)).toBe(true);
    }
    // The flag the comment tells the author about is the CLI's (it said `--dimension=32`
    // "in a target string", which no command takes).
    expect(backend).toContain('`--target-attr dimension=32` (uma-ts compile/run)');
    const leftovers = sources.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    expect(leftovers).not.toMatch(/__(snake|Camel|camel|SNAKE|API)__/);
  });

  it('type-checks under the project compiler options', () => {
    const tsconfig = path.join(dir, 'tsconfig.check.json');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `./${f}`);
    fs.writeFileSync(tsconfig, JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '../..' }, files, include: [] }));
    try {
      run('npx', ['tsc', '-p', tsconfig], ROOT);
    } finally {
      fs.rmSync(tsconfig);
    }
  });

  it('ships a C kernel that compiles warning-free', () => {
    const out = path.join(os.tmpdir(), `scaffold_probe_${process.pid}.o`);
    try {
      run('gcc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-c', path.join(dir, 'runtime', 'scaffold_probe_kernels.c'), '-o', out], ROOT);
    } finally {
      fs.rmSync(out, { force: true });
    }
  });

  it('passes its own generated jest test', () => {
    const r = spawnSync('npx', ['jest', '--ci', rel], { cwd: ROOT, encoding: 'utf8' });
    const report = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0) throw new Error(`generated test failed:\n${report}`);
    expect(report).toContain('scaffold_probe.test.ts');
    expect(report).toMatch(/Tests:\s+5 passed, 5 total/);
  });

  it('compiles end to end (pinning, USMP, C with its kernel) and runs bit-exact with gcc', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const generated = require(path.join(dir, 'index.ts')) as { ScaffoldProbeBackend: new () => UmaBackend };
    const registry = new BackendRegistry();
    registry.register(generated.ScaffoldProbeBackend);
    const b = new GraphFunctionBuilder();
    const x = b.param('x', tensorType([2, 3, 4], 'int8'));
    const y = b.call('y', 'reshape', [x], tensorType([24], 'int8'));
    const module = moduleOf([b.build([y])]);
    const result = compileModel(module, { backend: 'scaffold_probe', registry });
    expect(result.artifacts.runtimeFiles.map((f) => f.path)).toEqual(
      expect.arrayContaining(['include/scaffold_probe_kernels.h', 'src/scaffold_probe_kernels.c']),
    );
    const input = Int8Array.from({ length: 24 }, (_, i) => i * 11 - 128);
    const cdir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-scaffold-c-'));
    try {
      for (const f of [...result.artifacts.files, ...result.artifacts.runtimeFiles]) {
        fs.mkdirSync(path.dirname(path.join(cdir, f.path)), { recursive: true });
        fs.writeFileSync(path.join(cdir, f.path), f.content);
      }
      fs.writeFileSync(
        path.join(cdir, 'main.c'),
        `#include <stdio.h>
#include "tvmgen_default.h"
static int8_t in[24] = {${Array.from(input).join(', ')}};
static int8_t out[24];
int main(void) {
  struct tvmgen_default_inputs i = { .${result.artifacts.metadata.inputs[0].cName} = in };
  struct tvmgen_default_outputs o = { .${result.artifacts.metadata.outputs[0].cName} = out };
  if (tvmgen_default_run(&i, &o) != 0) return 3;
  for (int k = 0; k < 24; ++k) printf("%d\\n", out[k]);
  return 0;
}
`,
      );
      const sources = fs.readdirSync(path.join(cdir, 'src')).map((f) => path.join('src', f));
      run('gcc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-Iinclude', ...sources, 'main.c', '-o', 'prog', '-lm'], cdir);
      const got = run(path.join(cdir, 'prog'), [], cdir).trim().split(/\s+/).map(Number);
      const want = Array.from(new Int8Array(interpret(module, [new Uint8Array(input.buffer)])[0].buffer));
      expect(got).toEqual(want);
    } finally {
      fs.rmSync(cdir, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite an existing directory', async () => {
    const before = fs.readFileSync(path.join(dir, 'backend.ts'), 'utf8');
    let caught: unknown;
    try {
      writeBackendSkeleton({ name: 'other-name', dir: rel, cwd: ROOT });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(UmaError);
    expect((caught as Error).message).toBe(`directory ${rel} already exists; choose another name or remove it`);
    const io = memoryIO();
    expect(await main(['node', 'uma-ts', 'new-backend', 'scaffold-probe', '--dir', rel], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe(`error: directory ${rel} already exists; choose another name or remove it`);
    expect(fs.readFileSync(path.join(dir, 'backend.ts'), 'utf8')).toBe(before);
  });
});

describe('new-backend defaults and errors', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-scaffold-'));
  });
  afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it.each(['uma', 'Uma'])('refuses %s, whose class UmaBackend would extend the UmaBackend it imports, and writes nothing', (name) => {
    expect(() => writeBackendSkeleton({ name, cwd, apiImport: 'uma-ts' })).toThrow(
      `backend name '${name}' gives UmaBackend, a name backend.ts already imports (the class would extend itself); choose another name`,
    );
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('writes to backends/<snake_name> under the working directory by default', () => {
    const r = writeBackendSkeleton({ name: 'MyAccel', cwd, apiImport: 'uma-ts' });
    expect(r.dir).toBe(path.join(cwd, 'backends', 'my_accel'));
    expect(fs.readFileSync(path.join(r.dir, 'backend.ts'), 'utf8')).toContain("from 'uma-ts';");
    expect(() => writeBackendSkeleton({ name: 'my-accel', cwd, apiImport: 'uma-ts' })).toThrow(
      'directory backends/my_accel already exists; choose another name or remove it',
    );
  });

  it('computes the API import relative to the output directory', () => {
    const root = umaPackageRoot();
    expect(root).toBe(ROOT);
    expect(relativeApiImport(path.join(ROOT, 'backends', 'x'))).toBe('../../src');
    expect(relativeApiImport(path.join(ROOT, 'a', 'b', 'c'))).toBe('../../../src');
  });

  /** Fails the skeleton's third file write with EIO, after `before` ran (if given). */
  function failThirdWrite(before?: () => void): jest.SpyInstance {
    const real = fsModule.writeFileSync;
    let calls = 0;
    return jest.spyOn(fsModule, 'writeFileSync').mockImplementation((...args: Parameters<typeof fs.writeFileSync>) => {
      calls += 1;
      if (calls === 3) {
        before?.();
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', syscall: 'write' });
      }
      return real(...args);
    });
  }

  it('a failed write removes what it wrote, and the directory it created', () => {
    const spy = failThirdWrite();
    try {
      expect(() => writeBackendSkeleton({ name: 'my-accel', cwd, apiImport: 'uma-ts' })).toThrow(UmaError);
    } finally {
      spy.mockRestore();
    }
    expect(fs.existsSync(path.join(cwd, 'backends', 'my_accel'))).toBe(false);
  });

  it("a failed write leaves a file someone else put into the new directory, with its folder", () => {
    const dir = path.join(cwd, 'backends', 'my_accel');
    const theirs = path.join(dir, 'notes', 'mine.txt');
    const spy = failThirdWrite(() => {
      fs.mkdirSync(path.dirname(theirs));
      fs.appendFileSync(theirs, 'keep me');
    });
    try {
      expect(() => writeBackendSkeleton({ name: 'my-accel', cwd, apiImport: 'uma-ts' })).toThrow(UmaError);
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(theirs, 'utf8')).toBe('keep me');
    // Ours are gone: only their file and its folder are left.
    expect(fs.readdirSync(dir)).toEqual(['notes']);
  });

  it("rejects a bundled backend's name on the command line: it could not be registered beside it", async () => {
    const io = memoryIO();
    expect(await main(['node', 'uma-ts', 'new-backend', 'accel', '--dir', path.join(cwd, 'y')], io)).toBe(1);
    expect(io.stderr.join('\n')).toBe("error: backend name 'accel' is taken by a bundled backend (accel, dma_local, vanilla); the new one could not be registered next to it");
    expect(fs.existsSync(path.join(cwd, 'y'))).toBe(false);
  });

  it('rejects an invalid name on the command line without writing anything', async () => {
    const io = memoryIO();
    expect(await main(['node', 'uma-ts', 'new-backend', '9lives', '--dir', path.join(cwd, 'x')], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/^error: invalid backend name '9lives'/);
    expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
  });
});
