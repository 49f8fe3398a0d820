/**
 * uma-ts started in a directory that was removed meanwhile: one error line saying so (it said
 * "cannot uv_cwd", libuv's name for the call; fuzzed).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { requireFromRoot, ROOT, tsChildScript } from '../helpers/tsChild';

/** The process entry, in a child whose working directory is removed before it starts. */
const CHILD = tsChildScript(`${requireFromRoot('src/cli/main.ts')}.runMain(['node', 'uma-ts', ...process.argv.slice(1)]);`);

describe('a removed working directory', () => {
  it('is named in one error line', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-cwd-'));
    try {
      const model = path.join(ROOT, 'models', 'hello_world_int8.tflite');
      const script = 'mkdir gone && cd gone && rmdir ../gone && exec "$0" -e "$1" compile "$2" --backend vanilla';
      const r = spawnSync('sh', ['-c', script, process.execPath, CHILD, model], { cwd: base, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr.trim().split('\n')).toEqual(['error: the current directory cannot be read (ENOENT; was it removed?): run uma-ts from an existing directory']);
      expect(r.status).toBe(1);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  }, 60000);
});
