/**
 * Fuzzing the model reader and the whole pipeline with damaged models: truncated and
 * bit-flipped bundled models, and quantization parameters set to arbitrary values.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { assertCleanOutcome, FUZZ_SEED, model, runCli } from './harness';
import { quantSlots } from '../frontend/quantSlots';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-models-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeCase(bytes: Uint8Array): { file: string; out: string } {
  counter += 1;
  const file = path.join(dir, `case${counter}.tflite`);
  fs.writeFileSync(file, bytes);
  return { file, out: path.join(dir, `out${counter}`) };
}

/** Exit codes seen, so a test can check the fuzzing reached both outcomes. */
const seen = new Map<string, Set<number>>();

async function compileCase(bytes: Uint8Array, backend: string, test: string): Promise<void> {
  const { file, out } = writeCase(bytes);
  const r = await runCli(['compile', file, '--backend', backend, '--out', out]);
  assertCleanOutcome(r, out);
  assertCleanOutcome(await runCli(['inspect', file]));
  fs.rmSync(out, { recursive: true, force: true });
  fs.rmSync(file);
  seen.set(test, (seen.get(test) ?? new Set()).add(r.code));
}

const SOURCES = ['hello_world_int8', 'simple_add_model', 'hello_world_float'].map((n) => new Uint8Array(fs.readFileSync(model(n))));
const BACKENDS = ['vanilla', 'accel', 'dma_local'];

describe('fuzz: damaged models', () => {
  it('truncated models', async () => {
    await fc.assert(
      // Positions as integers: fast-check biases doubles towards 0, which would cut almost everything at the start.
      fc.asyncProperty(fc.nat(SOURCES.length - 1), fc.nat(1 << 20), fc.constantFrom(...BACKENDS), async (m, at, backend) => {
        const src = SOURCES[m];
        await compileCase(src.subarray(0, at % (src.length + 1)), backend, 'truncated');
      }),
      { seed: FUZZ_SEED, numRuns: 30 },
    );
  });

  it('bit-flipped models', async () => {
    const flips = fc.array(fc.tuple(fc.nat(1 << 20), fc.nat(7)), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.nat(SOURCES.length - 1), flips, fc.constantFrom(...BACKENDS), async (m, where, backend) => {
        const bytes = new Uint8Array(SOURCES[m]);
        for (const [pos, bit] of where) bytes[pos % bytes.length] ^= 1 << bit;
        await compileCase(bytes, backend, 'flipped');
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    // Both outcomes were reached: flips in weights compile, flips in structure are refused.
    expect([...seen.get('flipped')!].sort()).toEqual([0, 1]);
  });

  it('arbitrary quantization parameters', async () => {
    const src = SOURCES[0];
    const slots = quantSlots(src);
    const scale = fc.oneof(fc.float(), fc.constantFrom(0, -1, NaN, Infinity, 1e-45, 3.4e38));
    const zeroPoint = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -300n, max: 300n }));
    await fc.assert(
      fc.asyncProperty(fc.nat(slots.length - 1), scale, zeroPoint, fc.boolean(), async (t, s, z, setScale) => {
        const bytes = new Uint8Array(src);
        const dv = new DataView(bytes.buffer);
        const slot = slots[t];
        if (setScale) dv.setFloat32(slot.scale[0], s, true);
        else dv.setBigInt64(slot.zeroPoint[0], z, true);
        await compileCase(bytes, 'vanilla', 'quant');
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    expect([...seen.get('quant')!].sort()).toEqual([0, 1]);
  });
});
