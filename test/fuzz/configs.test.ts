/**
 * Fuzzing what users write: pools.json, pins.json and command-line flags, arbitrary in shape
 * and in values (huge, negative, fractional, non-power-of-two, unknown names), through
 * `compile` and `explain-pools` in-process.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { assertCleanOutcome, FUZZ_SEED, model, ROOT, runCli } from './harness';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-configs-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const HELLO = model('hello_world_int8');
const TARGETS = ['c', 'accel', 'dma_local', 'npu', ''];
const POOL_NAMES = ['sram', 'dram', 'flash', 'act_mem', 'l2_mem', 'wei_mem', 'local_mem', 'bad name', '1x'];

/** Numbers users get wrong: in range, past 2^31/2^32/2^53, negative, fractional. */
const number = fc.oneof(
  fc.nat(1 << 16),
  fc.constantFrom(0, 1, 3, 16, 24, 2 ** 20, 2 ** 21, 2 ** 31, 2 ** 32, 3 * 2 ** 32, 2 ** 40, 2 ** 53, 2 ** 63, -1, 1.5, 1e308),
);
const access = fc.constantFrom('rw', 'ro', 'wo', '');
const targets = fc.oneof(
  fc.uniqueArray(fc.constantFrom(...TARGETS), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...TARGETS), access, { maxKeys: 3 }),
);
const pool = fc.record(
  {
    name: fc.constantFrom(...POOL_NAMES),
    targets,
    sizeHintBytes: number,
    alignment: number,
    internal: fc.boolean(),
  },
  { requiredKeys: ['name', 'targets'] },
);
const poolsDoc = fc.record(
  { workspacePools: fc.array(pool, { maxLength: 3 }), constantPools: fc.array(pool, { maxLength: 2 }) },
  { requiredKeys: [] },
);
/**
 * A backend's own pools with one field changed: many such cases get through to planning and
 * code generation (limits that fit or not, alignments, access).
 */
const BUNDLED: Record<string, { workspacePools: Record<string, unknown>[]; constantPools?: Record<string, unknown>[] }> = {
  vanilla: { workspacePools: [{ name: 'global_workspace', targets: ['c', 'vanilla'] }] },
  accel: JSON.parse(fs.readFileSync(path.join(ROOT, 'backends', 'accel', 'pools.json'), 'utf8')),
  dma_local: JSON.parse(fs.readFileSync(path.join(ROOT, 'backends', 'dma_local', 'pools.json'), 'utf8')),
};
const tweak = fc.record({
  pool: fc.nat(3),
  field: fc.constantFrom('sizeHintBytes', 'alignment', 'internal'),
  value: fc.oneof(fc.constantFrom(0, 1, 16, 64, 100, 1024, 4096, 1 << 20, true, false), number),
});
function tweaked(backend: string, t: { pool: number; field: string; value: unknown }): unknown {
  const doc = JSON.parse(JSON.stringify(BUNDLED[backend])) as typeof BUNDLED[string];
  const all = [...doc.workspacePools, ...(doc.constantPools ?? [])];
  all[t.pool % all.length][t.field] = t.value;
  return doc;
}

const pin = fc.oneof(
  fc.record({ tensor: fc.constantFrom('*', 'sid_*', '********Q', 'serving_default_*', 'x'), pools: fc.array(fc.constantFrom(...POOL_NAMES), { minLength: 1, maxLength: 2 }) }),
  fc.record(
    {
      operator: fc.constantFrom('dense', 'accel.*', '*', 'conv2D', 'fully_connected'),
      operand: fc.constantFrom('input', 'output:0', 'scratch', 'any', 'input:7', 'bogus'),
      pools: fc.array(fc.constantFrom(...POOL_NAMES), { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ['operator', 'pools'] },
  ),
);
const pinsDoc = fc.record({ pins: fc.array(pin, { maxLength: 3 }), poolPreference: fc.array(fc.constantFrom(...POOL_NAMES), { maxLength: 2 }) }, { requiredKeys: [] });

/** A document, or the same document damaged as text. */
function asText(doc: unknown, damage: number): string {
  const text = JSON.stringify(doc);
  if (damage === 0) return text;
  if (damage === 1) return text.slice(0, Math.floor(text.length / 2));
  return text.replace(/\d+/, '99999999999999999999999');
}

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

describe('fuzz: user configuration', () => {
  it('pools.json and pins.json, compiled for every bundled backend', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 1, arbitrary: poolsDoc }, { weight: 2, arbitrary: tweak }),
        fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: pinsDoc }),
        fc.constantFrom(0, 0, 0, 0, 1, 2),
        fc.constantFrom('vanilla', 'accel', 'dma_local'),
        fc.boolean(),
        async (poolsOrTweak, pins, damage, backend, insertCopies) => {
          const pools = 'field' in poolsOrTweak ? tweaked(backend, poolsOrTweak) : poolsOrTweak;
          counter += 1;
          const out = path.join(dir, `out${counter}`);
          const args = ['compile', HELLO, '--backend', backend, '--out', out, '--pools', file(`pools${counter}.json`, asText(pools, damage))];
          if (pins !== undefined) args.push('--pins', file(`pins${counter}.json`, asText(pins, 0)));
          if (insertCopies) args.push('--insert-copies');
          const r = await runCli(args);
          assertCleanOutcome(r, out);
          seen.add(r.code);
          assertCleanOutcome(await runCli(['explain-pools', ...args.slice(1).filter((a, i, all) => a !== '--out' && all[i - 1] !== '--out')]));
          fs.rmSync(out, { recursive: true, force: true });
        },
      ),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it('tvmc-style pool flags and other options', async () => {
    const flagValue = fc.oneof(
      fc.constantFrom('sram', 'sram:c', 'sram:c=ro', 'sram:accel', 'sram:4096', 'sram:16', 'sram:24', 'sram:4294967296', 'sram:99999999999999999999', 'sram:-1', 'x:y:z', ''),
      fc.string({ maxLength: 12 }),
    );
    const flag = fc.tuple(
      fc.constantFrom(
        '--workspace-pools', '--workspace-pools-targets', '--workspace-pools-size-hint-bytes', '--workspace-pools-alignment',
        '--constant-pools', '--constant-pools-targets', '--target-attr', '--algorithm', '--module-name',
      ),
      flagValue,
    );
    const switches = fc.subarray(['--io-in-workspace', '--no-pool-pinning', '--no-merge-regions', '--json', '--buffers']);
    await fc.assert(
      fc.asyncProperty(fc.array(flag, { maxLength: 5 }), switches, fc.constantFrom('vanilla', 'accel', 'nosuch'), async (flags, sw, backend) => {
        counter += 1;
        const out = path.join(dir, `out${counter}`);
        const r = await runCli(['compile', HELLO, '--backend', backend, '--out', out, ...flags.flat(), ...sw]);
        assertCleanOutcome(r, out);
        fs.rmSync(out, { recursive: true, force: true });
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
  });

  it('names with line breaks and control characters stay on one error line', async () => {
    const nasty = fc.string({ unit: fc.constantFrom('a', '\n', '\r', '\x1b', ' ', '*', ':', '=', ',', '\u00e9', '\u0000'), maxLength: 12 });
    const where = fc.constantFrom('--backend', '--workspace-pools', '--target-attr', '--module-name', '--algorithm', '--pins', 'model');
    await fc.assert(
      fc.asyncProperty(nasty, where, async (text, at) => {
        counter += 1;
        const out = path.join(dir, `out${counter}`);
        const args = ['compile', at === 'model' ? path.join(dir, text) : HELLO, '--backend', 'vanilla', '--out', out];
        if (at !== 'model') args.push(at, text);
        const r = await runCli(args);
        assertCleanOutcome(r, out);
        fs.rmSync(out, { recursive: true, force: true });
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
  });

  it('output paths: inside a file, too long, an existing foreign directory', async () => {
    const plain = file('plain', 'x');
    const foreign = path.join(dir, 'foreign');
    fs.mkdirSync(foreign, { recursive: true });
    fs.writeFileSync(path.join(foreign, 'metadata.json'), '{}');
    const outs = fc.constantFrom(path.join(plain, 'o'), path.join(dir, 'y'.repeat(300)), foreign, plain, path.join(dir, 'a', 'b', 'c'), '');
    await fc.assert(
      fc.asyncProperty(outs, async (out) => {
        const r = await runCli(['compile', HELLO, '--backend', 'vanilla', '--out', out]);
        assertCleanOutcome(r);
        if (out === foreign) expect(fs.readdirSync(foreign)).toEqual(['metadata.json']);
        if (r.code === 0) fs.rmSync(out, { recursive: true, force: true });
      }),
      { seed: FUZZ_SEED, numRuns: 12 },
    );
    expect(fs.readFileSync(plain, 'utf8')).toBe('x');
  });
});
