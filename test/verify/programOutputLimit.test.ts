/**
 * A program that prints more than `uma-ts run` reads back is a clear error, not Node's
 * "spawnSync ... ENOBUFS" (fuzzed: a model with a 150 MB output).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VerifyError } from '../../src/errors';
import { buildAndRunHost } from '../../src/verify/runCompiled';
import { errorOf } from '../helpers/errorOf';

describe('a program printing more than a run reads back', () => {
  it('is refused saying so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bigout-'));
    try {
      // 300 MiB of text, in 1 MiB writes.
      fs.writeFileSync(
        path.join(dir, 'main.c'),
        '#include <stdio.h>\n#include <string.h>\nstatic char line[1 << 20];\nint main(void) { int i; memset(line, 49, sizeof line); for (i = 0; i < 300; ++i) fwrite(line, 1, sizeof line, stdout); return 0; }\n',
      );
      const e = errorOf(() => buildAndRunHost(dir, ['main.c'], [], {}));
      expect(e).toBeInstanceOf(VerifyError);
      expect(e.message).toBe(
        "the program printed more than 256 MiB (every output element as text): the model's outputs are too large to compare; run it with fewer or smaller outputs",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
