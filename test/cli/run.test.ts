/**
 * `uma-ts run`: compile, build, run and compare in one command, in-process. The README's
 * model passes with no extra flags; inputs come from .npy/.bin files or a seed; every
 * failure (mismatch, build error, bad flag or file) is one `error:` line and exit status 1.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const HELLO_INPUT = 'serving_default_dense_input:0';

async function run(args: readonly string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', 'run', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n') };
}

/** A .npy v1.0 file of one int8 array. */
function npyInt8(shape: readonly number[], data: Int8Array): Buffer {
  let header = `{'descr': '|i1', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]);
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
    [['--input', `${HELLO_INPUT}=/nonexistent/x.bin`], /^error: cannot read input file \/nonexistent\/x\.bin: ENOENT$/],
    [['--runs', '0'], /^error: --runs 0: expected an integer >= 1$/],
    [['--target', 'riscv'], /^error: --target riscv: expected host or cortex-m55$/],
    [['--cc', 'gcc -include /nonexistent/missing.h'], /^error: C build failed: .*\/nonexistent\/missing\.h.*$/],
    [['--cc', 'no-such-compiler-xyz'], /^error: C build: cannot run no-such-compiler-xyz \(not installed or not on PATH\)$/],
  ])('%j is one error line and exit 1', async (flags, message) => {
    const r = await run([HELLO, '--backend', 'vanilla', ...flags]);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }, 60000);

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
});
