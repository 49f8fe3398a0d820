/**
 * `uma-ts run a.tflite b.tflite --module-name a,b`: person_detect and kws_ref_model compiled as
 * one application, built once, run in turn on one shared workspace, each compared with the
 * interpreter (host-only and accel, sequential and --concurrent); a broken kernel fails the run.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { writeBrokenVanillaBackend } from '../helpers/brokenBackend';

const ROOT = path.join(__dirname, '..', '..');
const PD = path.join(ROOT, 'models', 'person_detect.tflite');
const KWS = path.join(ROOT, 'models', 'kws_ref_model.tflite');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const UMA_BACKEND = path.join(ROOT, 'src', 'backend', 'umaBackend');

async function run(args: readonly string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', 'run', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n') };
}

describe('uma-ts run with several models', () => {
  let dir: string;
  let hostOnly: string[];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-run-app-cli-'));
    const file = path.join(dir, 'hostonly.js');
    fs.writeFileSync(
      file,
      `const { UmaBackend } = require(${JSON.stringify(UMA_BACKEND)});
class HostOnlyBackend extends UmaBackend { constructor() { super(); this.targetName = 'hostonly'; } }
module.exports = { HostOnlyBackend };
`,
    );
    hostOnly = ['--backend', 'hostonly', '--backend-module', file];
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('host only: a table per model and run, one shared workspace, exit 0', async () => {
    const r = await run([PD, KWS, '--module-name', 'pd,kws', ...hostOnly, '--runs', '2']);
    expect(r.err).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Backend hostonly, pools from .*, target host, random inputs \(seed 1\), 2 run\(s\)$/m);
    expect(r.out).toMatch(/^Models pd, kws \(run one after the other\) on one shared workspace of \d+ bytes$/m);
    for (const k of [0, 1]) {
      expect(r.out).toMatch(new RegExp(`^pd\\s+${k}\\s+MobilenetV1/Predictions/Reshape_1\\s+\\[1, 2\\]\\s+int8\\s+equal$`, 'm'));
      expect(r.out).toMatch(new RegExp(`^kws\\s+${k}\\s+Identity\\s+\\[1, 12\\]\\s+int8\\s+equal$`, 'm'));
    }
    expect(r.out).toMatch(/^inference time: pd \d+\.\d+ (ms|us), kws \d+\.\d+ (ms|us) \(mean of 2 runs\)$/m);
    expect(r.out).toMatch(/^ok: every output of every model matches the reference interpreter/m);
  }, 300000);

  it.each([[false], [true]])('accel (concurrent %s): every model matches, JSON per model', async (concurrent) => {
    const r = await run([PD, KWS, '--module-name', 'pd,kws', '--backend', 'accel', '--json', ...(concurrent ? ['--concurrent'] : [])]);
    expect(r.err).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({ ok: true, backend: 'accel', target: 'host', runs: 1, concurrent });
    expect(json.sharedWorkspaceBytes).toBeGreaterThan(0);
    expect(json.models.map((m: { moduleName: string }) => m.moduleName)).toEqual(['pd', 'kws']);
    for (const m of json.models) {
      expect(m.outputs.length).toBe(1);
      expect(m.outputs[0].equal).toBe(true);
      expect(m.failure).toBeUndefined();
    }
  }, 300000);

  it('cortex-m55 (accel): one build under QEMU, each model matches, pools in their own sections', async () => {
    const r = await run([PD, KWS, '--module-name', 'pd,kws', '--backend', 'accel', '--target', 'cortex-m55']);
    expect(r.err).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pd\s+0\s+MobilenetV1\/Predictions\/Reshape_1\s+\[1, 2\]\s+int8\s+equal$/m);
    expect(r.out).toMatch(/^kws\s+0\s+Identity\s+\[1, 12\]\s+int8\s+equal$/m);
    expect(r.out).toMatch(/^inference time: not measured \(QEMU does not model time\)$/m);
    // The shared workspace pools and the constant pool each in their own section.
    for (const pool of ['l2_mem', 'act_mem', 'wei_mem']) expect(r.out).toMatch(new RegExp(`^\\s+\\.uma_pool_${pool}\\s+${pool}\\s+0x[0-9a-f]{8}\\s+[1-9]\\d*$`, 'm'));
    expect(r.out).toMatch(/^ok: every output of every model matches/m);
  }, 600000);

  it.each([['host'], ['cortex-m55']])('external pools: one application buffer per workspace pool, constants per model (%s)', async (target) => {
    const pools = path.join(dir, 'external.json');
    fs.writeFileSync(
      pools,
      JSON.stringify({
        workspacePools: [{ name: 'sram', targets: { c: 'rw' }, internal: false }],
        constantPools: [{ name: 'flash', targets: { c: 'ro' }, internal: false }],
      }),
    );
    const r = await run([PD, KWS, '--module-name', 'pd,kws', ...hostOnly, '--pools', pools, '--target', target, '--json']);
    expect(r.err).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.ok).toBe(true);
    expect(json.models.map((m: { outputs: { equal: boolean }[] }) => m.outputs.map((o) => o.equal))).toEqual([[true], [true]]);
    if (target === 'cortex-m55') {
      const pooled = json.sections.sections.filter((x: { pool?: string }) => x.pool !== undefined).map((x: { pool: string }) => x.pool);
      expect(pooled.sort()).toEqual(['flash', 'sram']);
    }
  }, 600000);

  it('a broken kernel: DIFFERENT rows, no ok line, error naming the model, exit 1', async () => {
    const file = path.join(dir, 'brokenBackend.ts');
    writeBrokenVanillaBackend(file, 'output_offset + 40', "vanilla's conv2d with every output shifted by 40.");
    const r = await run([PD, HELLO, '--module-name', 'pd,hello', '--backend', 'broken', '--backend-module', file]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^pd\s+0\s+MobilenetV1\/Predictions\/Reshape_1\s+\[1, 2\]\s+int8\s+DIFFERENT: /m);
    expect(r.out).not.toMatch(/^ok:/m);
    expect(r.err.trim()).toMatch(/^error: \d+ of 2 output\(s\) differ from the reference interpreter \(model pd(, hello)?; run it alone with --compare-intermediates to name the operator\)$/);
  }, 300000);

  it('a model that stops in run 1 of 2: no table, a note per model on its finished runs, the error naming the model', async () => {
    const wrapper = path.join(dir, 'fail_b.c');
    // Extra pointer arguments are harmless in the calling convention of the hosts we test on.
    fs.writeFileSync(
      wrapper,
      'int __real_tvmgen_b_run(void*, void*, void*, void*);\nstatic int calls;\n' +
        'int __wrap_tvmgen_b_run(void* a, void* b, void* c, void* d) { return ++calls >= 2 ? 7 : __real_tvmgen_b_run(a, b, c, d); }\n',
    );
    const cc = path.join(dir, 'fail_b.sh');
    fs.writeFileSync(cc, `#!/bin/sh\nexec gcc "$@" ${wrapper} -Wl,--wrap=tvmgen_b_run\n`, { mode: 0o755 });
    const r = await run([HELLO, HELLO, '--module-name', 'a,b', '--backend', 'vanilla', '--runs', '2', '--cc', cc]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toEqual([
      'note: model a: 2 of 2 run(s) completed before the program stopped; their outputs match the reference interpreter',
      'note: model b: 1 of 2 run(s) completed before the program stopped; their outputs match the reference interpreter',
      'error: model b: run 1 returned 7 (a kernel reported failure)',
    ]);
  }, 120000);

  it('takes --input MODULE:NAME=FILE for one model of the application, the others random', async () => {
    const bin = path.join(dir, 'x.bin');
    fs.writeFileSync(bin, Buffer.from([156]));
    const ok = await run([HELLO, HELLO, '--module-name', 'a,b', '--backend', 'vanilla', '--input', `b:serving_default_dense_input:0=${bin}`]);
    expect(ok.err).not.toMatch(/error:/);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/inputs from 1 file\(s\) \(others random, seed 1\)/);
    const short = path.join(dir, 'short.bin');
    fs.writeFileSync(short, Buffer.alloc(0));
    const bad = await run([HELLO, HELLO, '--module-name', 'a,b', '--backend', 'vanilla', '--input', `b:serving_default_dense_input:0=${short}`]);
    expect(bad.code).toBe(1);
    expect(bad.err.trim()).toMatch(/^error: .*short\.bin: 0 bytes, but input 'serving_default_dense_input:0' \(int8 \[1, 1\]\) takes 1$/);
  }, 120000);

  it('refuses what it cannot do with one clear line', async () => {
    const cases: [string[], RegExp][] = [
      [[PD, KWS, '--backend', 'vanilla', '--target', 'riscv'], /^error: --target riscv: expected host or cortex-m55$/],
      [[PD, KWS, '--backend', 'vanilla', '--compare-intermediates'], /^error: --compare-intermediates checks one model; /],
      [[PD, KWS, '--backend', 'vanilla', '--module-name', 'a'], /^error: --module-name gives 1 name\(s\) for 2 models/],
      [[PD, KWS, '--backend', 'vanilla', '--module-name', 'pd,kws', '--input', 'x=y.bin'], /^error: --input x=y\.bin: with several models, name the model first: MODULE:NAME=FILE \(modules: pd, kws\)$/],
      [[HELLO, '--backend', 'vanilla', '--concurrent'], /^error: --concurrent is for several models/],
      // An empty name compiled the model as 'default' but left the application header including tvmgen_.h: a C build error.
      [[PD, KWS, '--backend', 'vanilla', '--module-name', ',kws'], /^error: module name "" is not a C identifier \(letters, digits, _; starting with a letter\)$/],
      [[PD, KWS, '--backend', 'vanilla', '--module-name', 'pd,2kws'], /^error: module name "2kws" is not a C identifier/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.err.trim()).toMatch(message);
    }
  });
});
