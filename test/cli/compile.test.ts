import Ajv from 'ajv';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import reportSchema from '../../schemas/report.schema.json';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const UMA_BACKEND = path.join(ROOT, 'src', 'backend', 'umaBackend');

/** A user backend that offloads nothing: every operator stays on the host (target c). */
const HOST_ONLY_MODULE = `
const { UmaBackend } = require(${JSON.stringify(UMA_BACKEND)});
class HostOnlyBackend extends UmaBackend {
  constructor() {
    super();
    this.targetName = 'hostonly';
    this.registerTargetAttr('dimension', 16);
    this.registerTargetAttr('fast', false);
  }
}
module.exports = { HostOnlyBackend };
`;

const validateReport = new Ajv({ strict: false }).compile(reportSchema);

describe('uma-ts compile', () => {
  let dir: string;
  let backend: string[];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-compile-cli-'));
    const file = path.join(dir, 'hostonly.js');
    fs.writeFileSync(file, HOST_ONLY_MODULE);
    backend = ['--backend', 'hostonly', '--backend-module', file];
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Entries of `parent` other than `keep`: temp or backup directories left behind. */
  function strays(parent: string, keep: readonly string[] = []): string[] {
    return fs.readdirSync(parent).filter((e) => !keep.includes(e) && /\.(tmp|old)-/.test(e));
  }

  it('writes C sources, a schema-valid report.json, report.svg/html and tir.txt, and prints the plan', async () => {
    const out = path.join(dir, 'hello');
    const { code, out: stdout, err } = await runCli(['compile', HELLO, ...backend, '--out', out]);
    expect(err).not.toContain('error:');
    expect(code).toBe(0);
    for (const f of [
      'metadata.json',
      'report.json',
      'report.svg',
      'report.html',
      'tir.txt',
      'codegen/host/src/default_lib0.c',
      'codegen/host/src/default_lib1.c',
      'codegen/host/include/tvmgen_default.h',
    ]) {
      expect(fs.existsSync(path.join(out, f))).toBe(true);
    }
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(validateReport(report)).toBe(true);
    // hello_world_int8: two [1, 16] int8 intermediate activations of 16 bytes each.
    const sids = report.buffers.filter((b: { name: string }) => /^sid_\d+$/.test(b.name));
    expect(sids.map((b: { sizeBytes: number }) => b.sizeBytes)).toEqual([16, 16]);
    // The printed table carries the same pool sizes as report.json.
    for (const p of report.pools) {
      expect(stdout).toMatch(new RegExp(`^${p.name}\\s+${p.kind}\\s+${p.sizeBytes}\\s`, 'm'));
    }
    expect(stdout).toContain('Memory plan for');
    expect(stdout).toContain(`Total: ${report.totalBytes} bytes`);
    expect(fs.readFileSync(path.join(out, 'report.svg'), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<svg');
    const tir = fs.readFileSync(path.join(out, 'tir.txt'), 'utf8');
    expect(tir).toContain('def __tvm_main__(');
    // The printed TIR is the planned one: buffers are views into pool variables.
    expect(tir).toContain('global_workspace_var');
    // Progress went to stderr as plain lines (memoryIO is not a terminal).
    expect(err).toContain('[uma-ts] memory planning ...');
    expect(strays(dir)).toEqual([]);
  });

  it('counts model state apart from unplanned scratch (SVDF state is persistent)', async () => {
    const out = path.join(dir, 'keyword');
    const model = path.join(ROOT, 'models', 'keyword_scrambled_8bit.tflite');
    const { code, out: stdout } = await runCli(['compile', model, ...backend, '--out', out]);
    expect(code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as { unplanned: { reason: string }[] };
    const persistent = report.unplanned.filter((u) => u.reason.startsWith('persistent state')).length;
    expect(persistent).toBeGreaterThan(0);
    expect(stdout).toContain(`${persistent} persistent state buffer(s) (static arrays kept between runs)`);
  });

  it('--json prints exactly report.json', async () => {
    const out = path.join(dir, 'hello_json');
    const { code, out: stdout } = await runCli(['compile', HELLO, ...backend, '--out', out, '--json']);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout);
    expect(printed).toEqual(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')));
    expect(validateReport(printed)).toBe(true);
  });

  it('--buffers adds the per-buffer table', async () => {
    const plain = await runCli(['compile', HELLO, ...backend, '--out', path.join(dir, 'b1')]);
    const withBuffers = await runCli(['compile', HELLO, ...backend, '--out', path.join(dir, 'b2'), '--buffers']);
    expect(plain.out).not.toMatch(/^sid_1\s/m);
    expect(withBuffers.out).toMatch(/^sid_1\s+global_workspace\s/m);
  });

  it('writes to out/<model name> by default', async () => {
    const cwd = process.cwd();
    const work = fs.mkdtempSync(path.join(dir, 'cwd-'));
    try {
      process.chdir(work);
      const { code } = await runCli(['compile', HELLO, ...backend]);
      expect(code).toBe(0);
      expect(fs.existsSync(path.join(work, 'out', 'hello_world_int8', 'report.json'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('builds pools from tvmc-style flags, with their size limits in the report', async () => {
    const out = path.join(dir, 'tvmc');
    const { code, err } = await runCli([
      'compile', HELLO, ...backend, '--out', out, '--json',
      '--workspace-pools', 'sram',
      '--workspace-pools-targets', 'sram:c',
      '--workspace-pools-size-hint-bytes', 'sram:4096',
      '--constant-pools', 'flash',
      '--constant-pools-targets', 'flash:c',
    ]);
    expect(err).not.toContain('error:');
    expect(code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    const sram = report.pools.find((p: { name: string }) => p.name === 'sram');
    expect(sram).toMatchObject({ kind: 'workspace', limitBytes: 4096 });
    expect(report.pools.map((p: { name: string }) => p.name).sort()).toEqual(['flash', 'sram']);
    expect(report.buffers.filter((b: { name: string }) => /^sid_/.test(b.name)).every((b: { pool: string }) => b.pool === 'sram')).toBe(true);
  });

  it('a pool too small: exit 1, an error naming a buffer, and no output directory', async () => {
    const out = path.join(dir, 'too_small');
    const { code, err, out: stdout } = await runCli([
      'compile', HELLO, ...backend, '--out', out,
      '--workspace-pools', 'sram', '--workspace-pools-targets', 'sram:c', '--workspace-pools-size-hint-bytes', 'sram:8',
    ]);
    expect(code).toBe(1);
    const error = err.split('\n').filter((l) => l.startsWith('error:'));
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/sid_\d+/);
    expect(stdout).toBe('');
    expect(fs.existsSync(out)).toBe(false);
    expect(strays(dir)).toEqual([]);
  });

  it('an unsatisfiable pin: exit 1, the buffer named, no output, and a previous output left intact', async () => {
    const out = path.join(dir, 'pinned');
    const first = await runCli(['compile', HELLO, ...backend, '--out', out]);
    expect(first.code).toBe(0);
    const before = fs.readFileSync(path.join(out, 'report.json'), 'utf8');

    // sid_1 pinned to a pool the host may only read: no pool satisfies both.
    const pins = path.join(dir, 'pins.json');
    fs.writeFileSync(pins, JSON.stringify({ pins: [{ tensor: 'sid_1', pools: ['ro_pool'] }] }));
    const { code, err } = await runCli([
      'compile', HELLO, ...backend, '--out', out, '--pins', pins,
      '--workspace-pools', 'rw_pool,ro_pool', '--workspace-pools-targets', 'rw_pool:c', '--workspace-pools-targets', 'ro_pool:c=ro',
    ]);
    expect(code).toBe(1);
    expect(err).toMatch(/^error: no memory pool satisfies every constraint on buffer 'sid_1'/m);
    expect(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).toBe(before);
    expect(strays(dir)).toEqual([]);
  });

  it('a broken pools file: exit 1 and the error names the file and JSON path', async () => {
    const pools = path.join(dir, 'broken_pools.json');
    fs.writeFileSync(pools, JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], alignment: 'sixteen' }] }));
    const out = path.join(dir, 'broken');
    const { code, err } = await runCli(['compile', HELLO, ...backend, '--out', out, '--pools', pools]);
    expect(code).toBe(1);
    expect(err).toContain(`error: ${pools}: /workspacePools/0/alignment`);
    expect(fs.existsSync(out)).toBe(false);

    fs.writeFileSync(pools, '{"workspacePools": [');
    const notJson = await runCli(['compile', HELLO, ...backend, '--out', out, '--pools', pools]);
    expect(notJson.code).toBe(1);
    expect(notJson.err).toContain(`error: ${pools}: not valid JSON`);
  });

  it('type-checks --target-attr against the backend\'s attributes', async () => {
    const out = path.join(dir, 'attrs');
    const ok = await runCli(['compile', HELLO, ...backend, '--out', out, '--target-attr', 'dimension=8', '--target-attr', 'fast=true']);
    expect(ok.code).toBe(0);
    const cases: Array<[string, string]> = [
      ['dimension=eight', "--dimension expects an integer (decimal digits, at most 2^53-1), got 'eight'"],
      ['dimension=1e3', "--dimension expects an integer (decimal digits, at most 2^53-1), got '1e3'"],
      ['fast=maybe', '--fast expects a boolean'],
      ['width=3', "unknown attribute 'width' (known: dimension, fast)"],
      ['dimension', 'expected name=value'],
    ];
    for (const [flag, message] of cases) {
      const r = await runCli(['compile', HELLO, ...backend, '--out', path.join(dir, 'attrs_bad'), '--target-attr', flag]);
      expect(r.code).toBe(1);
      expect(r.err).toContain('error: --target-attr');
      expect(r.err).toContain(message);
    }
    expect(fs.existsSync(path.join(dir, 'attrs_bad'))).toBe(false);
  });

  it('rejects unknown backends, unusable backend modules, unknown algorithms and a missing model', async () => {
    const unknown = await runCli(['compile', HELLO, '--backend', 'npu', '--out', path.join(dir, 'x')]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/error: unknown target 'npu' \(registered: .*accel/);

    const empty = path.join(dir, 'empty_module.js');
    fs.writeFileSync(empty, 'module.exports = { answer: 42 };');
    const bad = await runCli(['compile', HELLO, '--backend', 'x', '--backend-module', empty]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`error: --backend-module ${empty}: exports neither a register(registry) function nor a UmaBackend subclass`);

    const algo = await runCli(['compile', HELLO, ...backend, '--out', path.join(dir, 'x'), '--algorithm', 'best_fit_ever']);
    expect(algo.code).toBe(1);
    expect(algo.err).toContain('best_fit_ever');

    const missing = await runCli(['compile', path.join(dir, 'nope.tflite'), ...backend, '--out', path.join(dir, 'x')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: .*nope\.tflite/m);
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
  });

  it('loads a backend module exporting register(registry)', async () => {
    const file = path.join(dir, 'register_module.js');
    fs.writeFileSync(
      file,
      `const { UmaBackend } = require(${JSON.stringify(UMA_BACKEND)});
class Mine extends UmaBackend { constructor() { super(); this.targetName = 'mine'; } }
exports.register = (registry) => { registry.register(new Mine()); };`,
    );
    const { code, err } = await runCli(['compile', HELLO, '--backend', 'mine', '--backend-module', file, '--out', path.join(dir, 'mine')]);
    expect(err).not.toContain('error:');
    expect(code).toBe(0);
  });

  it('loads a backend module exporting an instance, and refuses a register(registry) that registers nothing', async () => {
    const instance = path.join(dir, 'instance_module.js');
    fs.writeFileSync(
      instance,
      `const { UmaBackend } = require(${JSON.stringify(UMA_BACKEND)});
class Mine extends UmaBackend { constructor() { super(); this.targetName = 'mine_instance'; } }
exports.mine = new Mine();`,
    );
    const ok = await runCli(['compile', HELLO, '--backend', 'mine_instance', '--backend-module', instance, '--out', path.join(dir, 'mine_instance')]);
    expect(ok.err).not.toContain('error:');
    expect(ok.code).toBe(0);

    // An async register that forgot its registry.register (or awaited it away) said only
    // "unknown target", as if the module had not been given at all.
    const nothing = path.join(dir, 'registers_nothing.js');
    fs.writeFileSync(nothing, 'exports.register = async (registry) => { void registry; };');
    const none = await runCli(['compile', HELLO, '--backend', 'mine', '--backend-module', nothing, '--out', path.join(dir, 'nothing')]);
    expect(none.code).toBe(1);
    expect(none.err).toContain(`error: --backend-module ${nothing}: its register(registry) registered no backend (call registry.register(YourBackend) in it)`);
    expect(fs.existsSync(path.join(dir, 'nothing'))).toBe(false);
  });

  it('uses the bundled backend\'s pools file when no pools are given (accel on person_detect)', async () => {
    const out = path.join(dir, 'accel');
    const { code, out: stdout, err } = await runCli(['compile', path.join(ROOT, 'models', 'person_detect.tflite'), '--backend', 'accel', '--out', out]);
    expect(err).not.toContain('error:');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Backend accel, pools from .*backends[/\\]accel[/\\]pools\.json$/m);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(validateReport(report)).toBe(true);
    expect(report.pools.map((p: { name: string }) => p.name)).toEqual(['l2_mem', 'act_mem', 'wei_mem']);
    // The accelerator writes only act_mem and reads constants from wei_mem: its functions'
    // own buffers (fetch lines, requantization tables) can never be in l2_mem.
    const accelOwned: { pool: string }[] = report.buffers.filter(
      (b: { target: string | null; func: string | null }) => b.target === 'accel' && b.func !== '__tvm_main__',
    );
    expect(accelOwned.some((b) => b.pool === 'act_mem')).toBe(true);
    expect(accelOwned.every((b) => b.pool === 'act_mem' || b.pool === 'wei_mem')).toBe(true);
    expect(fs.existsSync(path.join(out, 'codegen', 'host', 'src', 'default_lib2.c'))).toBe(true);
    // Unplanned (local) buffers are counted in the table, listed with --buffers.
    expect(report.unplanned.length).toBeGreaterThan(0);
    expect(stdout).toContain(`${report.unplanned.length} buffer(s) not planned`);
    expect(stdout).not.toContain(report.unplanned[0].reason);
  });

  it('refuses to replace a non-empty directory that is not a previous output', async () => {
    const out = path.join(dir, 'precious');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'thesis.tex'), 'do not delete');
    const { code, err } = await runCli(['compile', HELLO, ...backend, '--out', out]);
    expect(code).toBe(1);
    expect(err).toContain('refusing to replace it');
    expect(fs.readdirSync(out)).toEqual(['thesis.tex']);
  });

  it('several models: one application directory, one report section per model, the shared pool sizes printed', async () => {
    const out = path.join(dir, 'app');
    const add = 'models/simple_add_model.tflite';
    const { code, out: stdout, err } = await runCli(['compile', HELLO, add, '--module-name', 'hello,add', ...backend, '--out', out]);
    expect(err).not.toContain('error:');
    expect(code).toBe(0);
    for (const f of ['codegen/host/include/tvmgen_hello.h', 'codegen/host/include/tvmgen_add.h', 'codegen/host/include/uma_app.h', 'codegen/host/src/uma_app.c', 'report_hello.svg', 'tir_add.txt']) {
      expect([f, fs.existsSync(path.join(out, f))]).toEqual([f, true]);
    }
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.models.map((m: { moduleName: string }) => m.moduleName)).toEqual(['hello', 'add']);
    for (const m of report.models) expect(validateReport(m.report)).toBe(true);
    const shared = report.sharedPools.find((p: { name: string }) => p.name === 'global_workspace');
    expect(shared.sizeBytes).toBe(Math.max(...report.models.map((m: { report: { pools: { name: string; sizeBytes: number }[] } }) => m.report.pools.find((p) => p.name === 'global_workspace')?.sizeBytes ?? 0)));
    expect(stdout).toContain('== hello (');
    expect(stdout).toContain('== add (');
    expect(stdout).toContain(`Shared workspace: ${report.sharedWorkspaceBytes} bytes`);
  });

  it('several models: a --module-name list of the wrong length or with a repeated name is a one-line error, nothing written', async () => {
    const out = path.join(dir, 'app-bad');
    const short = await runCli(['compile', HELLO, HELLO, '--module-name', 'a', ...backend, '--out', out]);
    expect(short.code).toBe(1);
    expect(short.err).toMatch(/^error: --module-name gives 1 name\(s\) for 2 models/m);
    const twice = await runCli(['compile', HELLO, HELLO, '--module-name', 'a,a', ...backend, '--out', out]);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/^error: module name 'a' is given to two models/m);
    expect(fs.existsSync(out)).toBe(false);
    const single = await runCli(['compile', HELLO, '--concurrent', ...backend, '--out', out]);
    expect(single.code).toBe(1);
    expect(single.err).toMatch(/^error: --concurrent is for several models/m);
  });

  it('several models with --concurrent: each model its own part of the shared pool', async () => {
    const out = path.join(dir, 'app-concurrent');
    const { code, out: stdout } = await runCli(['compile', HELLO, HELLO, '--module-name', 'a,b', '--concurrent', ...backend, '--out', out]);
    expect(code).toBe(0);
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8'));
    expect(meta.application.concurrent).toBe(true);
    const pool = meta.application.sharedPools.find((p: { name: string }) => p.name === 'global_workspace');
    expect(pool.perModel.a).toBeGreaterThan(0);
    expect(pool.offsets).toEqual({ a: 0, b: Math.ceil(pool.perModel.a / 16) * 16 });
    expect(pool.sizeBytes).toBe(pool.offsets.b + pool.perModel.b);
    expect(stdout).toContain('models may run concurrently');
  });
});
