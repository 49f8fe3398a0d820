/**
 * The README's quick start, run as written. Its first command is
 * `npm ci && npx uma-ts compile ...`. `npm ci` itself is not run: it deletes and reinstalls
 * node_modules (network, minutes, and it would pull the dependencies out from under tests
 * running in parallel). What it contributes besides the install is the package's `prepare`
 * script, `npm run build`; the test runs that build, then runs the part after `&&` verbatim
 * in a shell from the repository root, so `npx uma-ts` resolves to this package's own bin
 * (`bin/uma-ts.js` → `dist/`) exactly as on a fresh checkout.
 */
import Ajv from 'ajv';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import reportSchema from '../schemas/report.schema.json';
import { interpret, loadTfliteFile, randomInvocations, readModelLibraryFormat, runCompiled } from '../src';
import { ioSpecs } from '../src/driver/compile';

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The fenced code blocks of the section under `heading`, with their language tag. */
function codeBlocks(markdown: string, heading: string): { lang: string; body: string }[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no '${heading}' section`);
  const rest = markdown.slice(start + heading.length + 2);
  const next = rest.search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }));
}

const quickStart = codeBlocks(README, '## Quick start');
const shellLines = quickStart.filter((b) => b.lang === 'sh').map((b) => b.body.trim());
const firstCommand = shellLines[0];
const [install, compileCommand] = firstCommand.split(/\s*&&\s*/);

/** `--out DIR` of the quick-start command. */
function outDirOf(command: string): string {
  const m = /--out\s+(\S+)/.exec(command);
  if (!m) throw new Error(`quick-start command has no --out: ${command}`);
  return path.join(ROOT, m[1]);
}

describe('README quick start', () => {
  it('is two commands: npm ci && npx uma-ts compile ..., then npm test', () => {
    expect(shellLines).toEqual([firstCommand, 'npm test']);
    expect(install).toBe('npm ci');
    expect(compileCommand).toMatch(/^npx uma-ts compile models\/\S+\.tflite --backend \w+ /);
    // npx finds the package's own bin; the build is what npm ci's prepare step runs.
    expect(PACKAGE.bin['uma-ts']).toBe('bin/uma-ts.js');
    expect(PACKAGE.scripts.prepare).toBe('npm run build');
    expect(PACKAGE.scripts.build).toBe('tsc -p tsconfig.build.json && node scripts/compileSchemas.js');
    expect(PACKAGE.scripts.test).toMatch(/\bjest\b/);
  });

  describe('running the compile command verbatim', () => {
    let run: { status: number | null; stdout: string; stderr: string };
    const outDir = outDirOf(compileCommand);

    beforeAll(() => {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'compileSchemas.js')], { cwd: ROOT, stdio: 'pipe' });
      fs.rmSync(outDir, { recursive: true, force: true });
      const r = spawnSync('sh', ['-c', compileCommand], {
        cwd: ROOT,
        encoding: 'utf8',
        // Offline: a missing local bin must fail here, not be fetched from the registry.
        env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
      });
      run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
    }, 300000);

    it('exits 0 and prints the memory plan shown in the README', () => {
      expect(run.stderr).not.toMatch(/^error:/m);
      expect(run.status).toBe(0);
      const sample = quickStart.find((b) => b.lang === 'text')!.body;
      // The README's sample: every pool row as printed (the plan is deterministic, so a
      // planner change that moves a size must update the README).
      const poolRows = sample.split('\n').filter((l) => /^\w+\s+(workspace|constant)\s/.test(l));
      expect(poolRows.length).toBeGreaterThan(0);
      for (const row of poolRows) expect(run.stdout.split('\n')).toContain(row);
      for (const line of sample.split('\n').filter((l) => /^(Backend|Memory plan|pool\s)/.test(l))) {
        expect(run.stdout.split('\n')).toContain(line);
      }
      const wrote = sample.split('\n').find((l) => l.startsWith('Wrote '))!;
      // `Wrote out/person_detect: metadata.json` (the file count depends on the backend's runtime).
      expect(run.stdout).toContain(wrote.split(',')[0]);
      expect(run.stderr).toContain('[uma-ts] done in');
    });

    it('writes the C sources, report.json (schema-valid) and report.svg', () => {
      const src = path.join(outDir, 'codegen', 'host', 'src');
      const cFiles = fs.readdirSync(src).filter((f) => f.endsWith('.c'));
      // Entry, host functions, and one file for the accelerator target at least.
      expect(cFiles).toEqual(expect.arrayContaining(['default_lib0.c', 'default_lib1.c', 'default_lib2.c']));
      expect(fs.existsSync(path.join(outDir, 'codegen', 'host', 'include', 'tvmgen_default.h'))).toBe(true);
      const report = JSON.parse(fs.readFileSync(path.join(outDir, 'report.json'), 'utf8'));
      const validate = new Ajv({ strict: false }).compile(reportSchema);
      expect(validate(report)).toBe(true);
      expect(report.buffers.some((b: { target: string | null }) => b.target !== null && b.target !== 'c')).toBe(true);
      expect(fs.readFileSync(path.join(outDir, 'report.svg'), 'utf8')).toMatch(/^<svg /);
      // The printed totals are those of report.json.
      expect(run.stdout).toContain(`Total: ${report.totalBytes} bytes (lower bound ${report.totalLowerBoundBytes})`);
    });

    it('runs as shipped: the written directory, built with its harness, matches the interpreter', () => {
      // Internal pools the accelerator uses are registered with its simulator by the generated run.
      const artifacts = readModelLibraryFormat(outDir);
      const model = /compile\s+(\S+\.tflite)/.exec(compileCommand)![1];
      const inputs = randomInvocations(ioSpecs(loadTfliteFile(path.join(ROOT, model))).inputs, 21, 1);
      const r = runCompiled(artifacts, { invocations: inputs });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.outputs[0].map((o) => Array.from(o))).toEqual(interpret(loadTfliteFile(path.join(ROOT, model)), inputs[0]).map((o) => Array.from(o)));
    });
  });
});

describe('the built CLI with a backend written in TypeScript', () => {
  // Runs after the quick-start block above, which built dist/ (tests in a file run in order).
  it('loads --backend-module file.ts and the backend extends the running compiler\'s UmaBackend', () => {
    const out = fs.mkdtempSync(path.join(require('os').tmpdir(), 'uma-ts-backend-'));
    fs.rmSync(out, { recursive: true, force: true });
    try {
      const run = spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'bin', 'uma-ts.js'),
          'compile',
          'models/hello_world_float.tflite',
          '--backend',
          'tutorial',
          '--backend-module',
          'docs/examples/tutorialBackend.ts',
          '--pools',
          'docs/examples/pools.json',
          '--out',
          out,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(run.stderr).not.toContain('error:');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('Backend tutorial, pools from docs/examples/pools.json');
      const sources = fs.readdirSync(path.join(out, 'runtime', 'src'));
      expect(sources).toContain('tutorial_kernels.c');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
