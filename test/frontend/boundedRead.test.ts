/**
 * Inputs are read bounded (issue 14, item 3): a FIFO, a device or a directory given as a
 * model (or any input file) is refused before reading, so it cannot hang or fill memory,
 * and files above the size limit are refused with the limit named.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { FileAccessError } from '../../src/errors';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { MODEL_FILE_LIMIT_BYTES, readInputFile } from '../../src/util/files';

async function run(args: readonly string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', ...args], io);
  return { code, err: io.stderr.filter((l) => !l.startsWith('[uma-ts] ')).join('\n') };
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bounded-read-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('bounded input reading', () => {
  it('refuses a FIFO without opening it for a blocking read', async () => {
    const fifo = path.join(dir, 'model.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => loadTfliteFile(fifo)).toThrow(/model\.fifo: it is a FIFO, not a regular file/);
    for (const cmd of [['inspect', fifo], ['compile', fifo, '--backend', 'vanilla', '--out', path.join(dir, 'o')]]) {
      const r = await run(cmd);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error: cannot read model file .*it is a FIFO, not a regular file$/);
    }
    const pins = await run(['compile', path.join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite'), '--backend', 'vanilla', '--pins', fifo]);
    expect(pins.err).toMatch(/^error: cannot read pins file .*FIFO/);
  });

  it('refuses /dev/zero and a directory', async () => {
    expect(() => loadTfliteFile('/dev/zero')).toThrow(/cannot read model file \/dev\/zero: it is a device, not a regular file/);
    expect(() => loadTfliteFile(dir)).toThrow(/it is a directory/);
    const r = await run(['plan', '/dev/zero']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: cannot read buffer set \/dev\/zero: it is a device/);
  });

  it('refuses a file above the limit before reading it, naming the limit', () => {
    const big = path.join(dir, 'big.tflite');
    fs.writeFileSync(big, Buffer.alloc(3 * 1024 * 1024 + 1));
    expect(() => readInputFile(big, { what: 'model file', limitBytes: 3 * 1024 * 1024 })).toThrow(
      /big\.tflite: it is 3145729 bytes, more than the 3 MiB limit for a model file/,
    );
    expect(readInputFile(big, { what: 'model file', limitBytes: 4 * 1024 * 1024 }).length).toBe(3 * 1024 * 1024 + 1);
    // A sparse file past the real limit: refused from its size alone.
    const huge = path.join(dir, 'huge.tflite');
    fs.closeSync(fs.openSync(huge, 'w'));
    fs.truncateSync(huge, MODEL_FILE_LIMIT_BYTES + 1);
    expect(() => loadTfliteFile(huge)).toThrow(FileAccessError);
    expect(() => loadTfliteFile(huge)).toThrow(/more than the 1024 MiB limit/);
  });

  it('a missing file is a one-line error', async () => {
    const r = await run(['inspect', path.join(dir, 'missing.tflite')]);
    expect(r.err).toMatch(/^error: cannot read model file .*missing\.tflite: no such file or directory \(ENOENT\)$/);
  });
});
