/**
 * The number validation layer (issue 14, item 6): alignments are powers of two up to 2^20
 * tested exactly (2^31, 2^32 and 3x2^32 fooled a 32-bit test), byte counts stop at 2^53-1.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { alignmentProblem, byteCountProblem, MAX_ALIGNMENT_BYTES } from '../../src/config/numbers';
import { ConfigError } from '../../src/errors';
import { makePool, parsePoolsJson } from '../../src/usmp/pools';

async function run(args: readonly string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', ...args], io);
  return { code, err: io.stderr.filter((l) => !l.startsWith('[uma-ts] ')).join('\n') };
}

describe('alignment', () => {
  it.each([1, 2, 16, 4096, 2 ** 20])('%s is accepted', (n) => expect(alignmentProblem(n)).toBeUndefined());
  it.each([
    [2 ** 31, /outside 1\.\.1048576/],
    [2 ** 32, /outside/],
    [3 * 2 ** 32, /outside/],
    [2 ** 40, /outside/],
    [2 ** 21, /outside/],
    [0, /outside/],
    [24, /not a power of two/],
    [3 * 2 ** 18, /not a power of two/],
    [1.5, /not an integer/],
    [NaN, /not an integer/],
  ])('%s is refused', (n, pattern) => expect(alignmentProblem(n)).toMatch(pattern));

  it('a pools file names file, JSON path and pool', () => {
    const text = JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], alignment: 2 ** 32 }] });
    expect(() => parsePoolsJson(text, 'pools.json')).toThrow(ConfigError);
    expect(() => parsePoolsJson(text, 'pools.json')).toThrow(
      `pools.json: /workspacePools/0/alignment: pool 'sram' alignment 4294967296 is outside 1..${MAX_ALIGNMENT_BYTES} (2^20)`,
    );
  });
});

describe('byte counts', () => {
  it('stop at 2^53-1', () => {
    expect(byteCountProblem(Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(byteCountProblem(2 ** 53)).toMatch(/size 9007199254740992 is past 2\^53-1/);
    expect(byteCountProblem(-1)).toMatch(/negative/);
    expect(() => makePool({ name: 'x', targets: ['c'], sizeHintBytes: 2 ** 60 })).toThrow(/size hint 1152921504606847000 is past 2\^53-1/);
  });

  it('pool flags and buffer sets say where', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-numbers-'));
    try {
      const model = path.join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite');
      const flags = await run([
        'compile', model, '--backend', 'vanilla', '--out', path.join(dir, 'o'),
        '--workspace-pools', 'sram', '--workspace-pools-targets', 'sram:c', '--workspace-pools-size-hint-bytes', 'sram:99999999999999999999',
      ]);
      expect(flags.code).toBe(1);
      expect(flags.err).toMatch(/^error: --workspace-pools-size-hint-bytes: pool 'sram': value 100000000000000000000 is past 2\^53-1/);
      const set = path.join(dir, 'set.json');
      fs.writeFileSync(set, JSON.stringify({
        pools: [{ name: 'p', alignment: 2 ** 31 }],
        buffers: [{ name: 'a', size: 16, candidatePools: ['p'], conflicts: [] }],
      }));
      const r = await run(['plan', set]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error: .*set\.json: \/pools\/0\/alignment: pool 'p' alignment 2147483648 is outside/);
      fs.writeFileSync(set, JSON.stringify({
        pools: [{ name: 'p' }],
        buffers: [{ name: 'big', size: 2 ** 53, candidatePools: ['p'], conflicts: [] }],
      }));
      const big = await run(['plan', set]);
      expect(big.err).toMatch(/^error: .*set\.json: \/buffers\/0\/size: buffer 'big' size 9007199254740992 is past 2\^53-1/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
