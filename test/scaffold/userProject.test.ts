/**
 * A user's own project, outside this repository, as a TVM UMA user would set one up: it
 * installs the packed uma-ts tarball, writes a backend with the installed `uma-ts
 * new-backend`, and runs that backend's generated jest test (which verifies the backend end
 * to end with the public `verifyModel`) with the generated jest config.
 *
 * Offline and in CI alike: the tarball's dependencies and the project's dev tools (jest,
 * ts-jest, typescript) are linked from this repository's node_modules before
 * `npm install --offline <tarball>`, so npm finds every dependency satisfied and installs
 * only the package itself, never touching the registry.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const DEV_TOOLS = ['jest', 'ts-jest', 'typescript', '@types/jest', '@types/node'];

function sh(cmd: string, args: readonly string[], cwd: string): string {
  const r = spawnSync(cmd, [...args], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}\n${r.stderr}`;
}

function linkPackages(project: string, names: readonly string[]): void {
  const modules = fs.realpathSync(path.join(ROOT, 'node_modules'));
  for (const name of names) {
    const link = path.join(project, 'node_modules', ...name.split('/'));
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(path.join(modules, ...name.split('/')), link, 'dir');
  }
}

describe('a user project depending on the packed uma-ts', () => {
  let tmp: string;
  let project: string;
  let tarball: string;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-user-project-'));
    // Packed from a copy of the checkout with its own freshly built dist/ (as `npm ci`'s prepare
    // step builds it), so tests building the repository's dist/ in parallel cannot interfere.
    const stage = path.join(tmp, 'stage');
    const skip = /^(node_modules|dist|out|\.git)(\/|$)|__scaffold_test_/;
    fs.cpSync(ROOT, stage, { recursive: true, filter: (src) => !skip.test(path.relative(ROOT, src).split(path.sep).join('/')) });
    // The build needs the type packages; npm pack never ships node_modules.
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(stage, 'node_modules'), 'dir');
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(stage, 'tsconfig.build.json')], {
      cwd: stage,
      stdio: 'pipe',
    });
    const packed = sh('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], stage);
    tarball = path.join(tmp, fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'))!);
    expect(packed).toContain(path.basename(tarball));
    project = path.join(tmp, 'my-npu-project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'my-npu-project', version: '1.0.0', private: true }, null, 2));
  }, 300000);

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('ships what users need and not the tests, benchmarks or models', () => {
    const list = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of ['package/dist/src/index.js', 'package/dist/src/index.d.ts', 'package/bin/uma-ts.js', 'package/schemas/metadata.schema.json', 'package/src/codegen/c/runtime/uma_runtime.h', 'package/backends/accel/runtime/accel_runtime.c', 'package/backends/accel/pools.json']) {
      expect(list).toContain(f);
    }
    expect(list.filter((f) => /^package\/(test|bench|dist\/bench|dist\/test|models)\//.test(f) || /\.test\.(js|ts|d\.ts)$/.test(f))).toEqual([]);
  });

  it('installs the tarball offline, writes a backend with new-backend, and its generated test passes', () => {
    linkPackages(project, Object.keys(PACKAGE.dependencies));
    sh('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], project);
    expect(fs.existsSync(path.join(project, 'node_modules', 'uma-ts', 'dist', 'src', 'index.js'))).toBe(true);
    expect(fs.lstatSync(path.join(project, 'node_modules', 'uma-ts')).isSymbolicLink()).toBe(false);
    linkPackages(project, DEV_TOOLS);

    const bin = path.join(project, 'node_modules', 'uma-ts', 'bin', 'uma-ts.js');
    const created = sh(process.execPath, [bin, 'new-backend', 'my-npu', '--dir', 'my_npu', '--import-from', 'uma-ts'], project);
    expect(created).toContain("created backend 'my_npu' (class MyNpuBackend)");
    expect(created).toContain(`npx jest -c ${path.join(project, 'my_npu')}/jest.config.js`);
    const test = fs.readFileSync(path.join(project, 'my_npu', 'my_npu.test.ts'), 'utf8');
    expect(test).toContain("from 'uma-ts';");
    expect(test).toContain('verifyModel(');

    const jest = path.join(project, 'node_modules', 'jest', 'bin', 'jest.js');
    const r = spawnSync(process.execPath, [jest, '--ci', '-c', 'my_npu/jest.config.js'], { cwd: project, encoding: 'utf8' });
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0) throw new Error(`the generated test failed in the user project:\n${out}`);
    expect(out).toMatch(/Tests:\s+5 passed, 5 total/);
    expect(out).toContain('runs end to end');
    expect(out).not.toMatch(/deprecated/);
  }, 300000);

  it("loads a backend compiled to .js that requires 'uma-ts' from outside the project, and names a .ts syntax error", () => {
    const bin = path.join(project, 'node_modules', 'uma-ts', 'bin', 'uma-ts.js');
    const model = path.join(ROOT, 'models', 'hello_world_float.tflite');
    // No node_modules around it: 'uma-ts' can only be the installation running it.
    const elsewhere = path.join(tmp, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const js = path.join(elsewhere, 'dense.js');
    fs.writeFileSync(
      js,
      `const { UmaBackend, CPU_STRATEGIES, isOp, isConstant, wildcard } = require('uma-ts');
class Dense extends UmaBackend {
  constructor() {
    super();
    this.targetName = 'dense_js';
    this.registerPattern('dense', isOp('dense')(wildcard(), isConstant(), isConstant()));
    this.registerOperatorStrategy('dense', CPU_STRATEGIES.get('dense'));
  }
}
module.exports = { Dense };
`,
    );
    const ok = spawnSync(process.execPath, [bin, 'compile', model, '--backend', 'dense_js', '--backend-module', js, '--out', path.join(elsewhere, 'out')], { cwd: elsewhere, encoding: 'utf8' });
    expect(ok.stderr).not.toContain('error:');
    expect(ok.status).toBe(0);
    const broken = path.join(elsewhere, 'broken.ts');
    fs.writeFileSync(broken, "import { UmaBackend } from 'uma-ts';\nexport class {{{\n");
    const bad = spawnSync(process.execPath, [bin, 'compile', model, '--backend', 'x', '--backend-module', broken], { cwd: elsewhere, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^error: --backend-module \S*broken\.ts: cannot load: SyntaxError: broken\.ts:2:15: Unexpected token/);
  }, 120000);
});
