/**
 * `uma-ts run`: compile, build, run and compare in one command, in-process. The README's
 * model passes with no extra flags; inputs come from .npy/.bin files or a seed; every
 * failure (mismatch, build error, bad flag or file) is one `error:` line and exit status 1; a
 * program that stopped early prints no table, only a note on the runs it finished.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { writeBrokenVanillaBackend } from '../helpers/brokenBackend';
import { npyInt8 } from '../helpers/npy';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const HELLO_INPUT = 'serving_default_dense_input:0';

async function run(args: readonly string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', 'run', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n') };
}

describe('uma-ts run', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-run-cli-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes person_detect on accel with no extra flags: table, time, exit 0', async () => {
    const r = await run([path.join(ROOT, 'models', 'person_detect.tflite'), '--backend', 'accel']);
    expect(r.err).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Backend accel, pools from .*backends\/accel\/pools\.json, target host, random inputs \(seed 1\), 1 run\(s\)$/m);
    expect(r.out).toMatch(/^0\s+MobilenetV1\/Predictions\/Reshape_1\s+\[1, 2\]\s+int8\s+equal$/m);
    expect(r.out).toMatch(/^inference time: \d+\.\d+ (ms|us)$/m);
    expect(r.out).toMatch(/^ok: every output matches the reference interpreter/m);
  }, 120000);

  it('reads inputs from .npy and raw .bin files and runs K times', async () => {
    const values = Int8Array.of(-100);
    fs.writeFileSync(path.join(dir, 'x.npy'), npyInt8([1, 1], values));
    fs.writeFileSync(path.join(dir, 'x.bin'), Buffer.from(values.buffer));
    for (const file of ['x.npy', 'x.bin']) {
      const r = await run([HELLO, '--backend', 'vanilla', '--input', `${HELLO_INPUT}=${path.join(dir, file)}`, '--runs', '2', '--json']);
      expect(r.code).toBe(0);
      const json = JSON.parse(r.out);
      expect(json).toMatchObject({ ok: true, runs: 2 });
      expect(json.outputs.map((o: { run: number; equal: boolean }) => [o.run, o.equal])).toEqual([
        [0, true],
        [1, true],
      ]);
    }
  }, 120000);

  it.each([
    [['--input', 'nope=x.bin'], /^error: --input nope=x\.bin: the model has no input 'nope'; inputs are: serving_default_dense_input:0$/],
    [['--input', `${HELLO_INPUT}=/nonexistent/x.bin`], /^error: cannot read input file \/nonexistent\/x\.bin: no such file or directory \(ENOENT\)$/],
    // Read bounded: a device or directory is refused before reading (/dev/zero never ends).
    [['--input', `${HELLO_INPUT}=/dev/zero`], /^error: cannot read input file \/dev\/zero: it is a device, not a regular file$/],
    [['--input', `${HELLO_INPUT}=/tmp`], /^error: cannot read input file \/tmp: it is a directory$/],
    [['--runs', '0'], /^error: --runs 0: expected an integer from 1 to 1000$/],
    // Past 2^53-1: rounded, it would have run (near) forever or seeded inexactly.
    [['--runs', '99999999999999999999'], /^error: --runs 99999999999999999999: expected an integer from 1 to 1000$/],
    // Every run is embedded in the harness and replayed by the interpreter: 10^5 runs hung for minutes.
    [['--runs', '100000'], /^error: --runs 100000: expected an integer from 1 to 1000$/],
    [['--runs', '1001'], /^error: --runs 1001: expected an integer from 1 to 1000$/],
    [['--seed', '9007199254740993'], /^error: --seed 9007199254740993: expected an integer from 0 to 2\^53-1$/],
    [['--timeout', '0'], /^error: --timeout 0: expected an integer from 1 to 86400$/],
    [['--timeout', '1.5'], /^error: --timeout 1\.5: expected an integer from 1 to 86400$/],
    // The same input twice: the first file was silently ignored.
    [['--input', `${HELLO_INPUT}=a.bin`, '--input', `${HELLO_INPUT}=b.bin`], /^error: --input serving_default_dense_input:0=b\.bin: input 'serving_default_dense_input:0' is already given \(a\.bin\); give each input once$/],
    [['--target', 'riscv'], /^error: --target riscv: expected host or cortex-m55$/],
    [['--cc', 'gcc -include /nonexistent/missing.h'], /^error: C build failed: .*\/nonexistent\/missing\.h.*$/],
    // A "compiler" that succeeds without writing the program: named at the build, not as a vague run failure.
    [['--cc', 'true'], /^error: C build failed: true exited 0 but wrote no prog$/],
    [['--cc', 'true', '--target', 'cortex-m55'], /^error: C build \(cortex-m55\) failed: true exited 0 but wrote no prog\.elf$/],
    [['--cc', 'no-such-compiler-xyz'], /^error: C build: cannot run no-such-compiler-xyz \(not installed or not on PATH\)$/],
  ])('%j is one error line and exit 1', async (flags, message) => {
    const r = await run([HELLO, '--backend', 'vanilla', ...flags]);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }, 60000);

  it('refuses a cortex-m55 pool address outside writable memory before building: one error line naming the file, pool, address and size', async () => {
    // Fuzzing: a workspace pool at 0x38000000 (QSPI flash, which ignores writes) only said "1 of 1 output(s) differ".
    const file = path.join(dir, 'qspi_pools.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c', 'vanilla'], address: 0x38000000 }], constantPools: [{ name: 'flash', targets: { c: 'ro', vanilla: 'ro' } }] }),
    );
    // A compiler that cannot exist: reaching the build would be a different error.
    const r = await run([HELLO, '--backend', 'vanilla', '--target', 'cortex-m55', '--pools', file, '--cc', 'no-such-compiler-xyz']);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err.trim()).toMatch(/^error: .*qspi_pools\.json: pool sram at 0x38000000 \(size \d+\) lies in QSPI flash, which the program cannot write \(only constant pools may be placed there\)$/);
  }, 60000);

  it('refuses, before compiling, more run inputs than the harness can embed in its C source', async () => {
    // Fuzzing: a model with a 64 MiB input built a 190 MB main.c for minutes.
    const pd = path.join(ROOT, 'models', 'person_detect.tflite');
    const r = await run([pd, '--backend', 'vanilla', '--runs', '1000']);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `error: ${pd}: the inputs of 1000 run(s) take 9216000 bytes (9216 a run); the harness embeds them in its C source, at most 4194304 bytes (use fewer --runs or a smaller model)`,
    );
    const app = await run([pd, HELLO, '--backend', 'vanilla', '--runs', '500']);
    expect(app.code).toBe(1);
    expect(app.err.trim()).toMatch(/^error: .*person_detect\.tflite: the inputs of 500 run\(s\) take 4608000 bytes/);
  });

  it('rejects a .bin of the wrong size and a .npy of the wrong dtype, naming the file', async () => {
    fs.writeFileSync(path.join(dir, 'short.bin'), Buffer.alloc(3));
    let r = await run([HELLO, '--backend', 'vanilla', '--input', `${HELLO_INPUT}=${path.join(dir, 'short.bin')}`]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/short\.bin: 3 bytes, but input 'serving_default_dense_input:0' \(int8 \[1, 1\]\) takes 1/);
    const f32 = npyInt8([1, 1], Int8Array.of(1)).toString('latin1').replace("'|i1'", "'<f4'");
    fs.writeFileSync(path.join(dir, 'f.npy'), Buffer.from(f32, 'latin1'));
    r = await run([HELLO, '--backend', 'vanilla', '--input', `${HELLO_INPUT}=${path.join(dir, 'f.npy')}`]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/f\.npy: dtype float32, but input 'serving_default_dense_input:0' is int8/);
  }, 60000);

  it('--compare-intermediates names the operator of a broken kernel loaded with --backend-module, and exits 1', async () => {
    const file = path.join(dir, 'brokenBackend.ts');
    writeBrokenVanillaBackend(file, 'output_offset + (in_c > 1 ? 1 : 0)', "vanilla's conv2d with the output offset off by one when there is more than one input channel.");
    const kws = path.join(ROOT, 'models', 'kws_ref_model.tflite');
    const r = await run([kws, '--backend', 'broken', '--backend-module', file, '--compare-intermediates']);
    expect(r.code).toBe(1);
    // The final softmax happens to absorb the error for this input: the intermediate check is what catches it.
    expect(r.out).toMatch(/^0\s+Identity\s+\[1, 12\]\s+int8\s+equal$/m);
    expect(r.out).not.toMatch(/^ok:/m);
    expect(r.out).toMatch(
      /^first differing operator: \S*conv2d producing 'functional_1\/activation_2\/Relu;[^']*' in function broken_main_\d+ \(target broken, pool application\), run 0: element \d+ expected -?\d+, got -?\d+ \(\d+ element\(s\) differ\)$/m,
    );
    expect(r.err.trim()).toMatch(
      /^error: intermediate tensor 'functional_1\/activation_2\/Relu;[^']*' \(operator broken\.conv2d in broken_main_\d+\) differs from the reference interpreter, though the model outputs match$/m,
    );
  }, 120000);

  it('reports a simulator trap (accel without pool pinning reaches a pool it may not use there) with its message and exits 1', async () => {
    const r = await run([path.join(ROOT, 'models', 'kws_ref_model.tflite'), '--backend', 'accel', '--no-pool-pinning']);
    expect(r.code).toBe(1);
    // Which access faults first depends on where the plan put the buffers: a write to l2_mem, or
    // an operand outside the pools its constraint allows.
    expect(r.err).toMatch(
      /^error: the program exited with status 3: accel trap: accel_\w+ argument '\w+' at \S+ lies in pool '\w+'(?: which accel cannot write|, its operand constraint allows \{[\w, ]+\})$/m,
    );
    // A program that stopped prints no table: an empty or cut-short one would read like a result.
    expect(r.out).toBe('');
    expect(r.err).not.toMatch(/^note: .*completed/m);
  }, 120000);

  /** A gcc that links `tvmgen_<mod>_run` through a wrapper returning 7 from call `failAt` on. */
  function failingRunCc(mod: string, failAt: number): string {
    const wrapper = path.join(dir, `fail_${mod}_${failAt}.c`);
    fs.writeFileSync(
      wrapper,
      // Extra pointer arguments are harmless in the calling convention of the hosts we test on.
      `int __real_tvmgen_${mod}_run(void*, void*, void*, void*);\nstatic int calls;\n` +
        `int __wrap_tvmgen_${mod}_run(void* a, void* b, void* c, void* d) { return ++calls >= ${failAt} ? 7 : __real_tvmgen_${mod}_run(a, b, c, d); }\n`,
    );
    const cc = path.join(dir, `fail_${mod}_${failAt}.sh`);
    fs.writeFileSync(cc, `#!/bin/sh\nexec gcc "$@" ${wrapper} -Wl,--wrap=tvmgen_${mod}_run\n`, { mode: 0o755 });
    return cc;
  }

  it('--timeout bounds the C build: a compiler slower than it is stopped, named, exit 1', async () => {
    const cc = path.join(dir, 'slow_cc.sh');
    fs.writeFileSync(cc, '#!/bin/sh\nsleep 4\nexec gcc "$@"\n', { mode: 0o755 });
    const r = await run([HELLO, '--backend', 'vanilla', '--cc', cc, '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.trim()).toBe(`error: C build: ${cc} did not finish within 1 s`);
    // The same compiler within a larger --timeout builds and runs.
    const ok = await run([HELLO, '--backend', 'vanilla', '--cc', cc, '--timeout', '30']);
    expect(ok.code).toBe(0);
  }, 120000);

  it('a program that stops in run 1 of 3: no table, a note on the finished run, then the error', async () => {
    const cc = failingRunCc('default', 2);
    const r = await run([HELLO, '--backend', 'vanilla', '--runs', '3', '--cc', cc]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toEqual([
      'note: 1 of 3 run(s) completed before the program stopped; their outputs match the reference interpreter',
      'error: run 1 returned 7 (a kernel reported failure)',
    ]);
    // --json still reports what ran, marked as failed.
    const j = await run([HELLO, '--backend', 'vanilla', '--runs', '3', '--cc', cc, '--json']);
    expect(j.code).toBe(1);
    const json = JSON.parse(j.out);
    expect(json).toMatchObject({ ok: false, runs: 3, failure: 'run 1 returned 7 (a kernel reported failure)' });
    expect(json.outputs.map((o: { run: number; equal: boolean }) => [o.run, o.equal])).toEqual([[0, true]]);
    // Stopped in run 0: nothing finished, so no note.
    const r0 = await run([HELLO, '--backend', 'vanilla', '--cc', failingRunCc('default', 1)]);
    expect(r0.out).toBe('');
    expect(r0.err.trim()).toBe('error: run 0 returned 7 (a kernel reported failure)');
  }, 120000);
});
