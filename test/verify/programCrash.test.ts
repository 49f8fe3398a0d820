/**
 * A generated program that crashes: a kernel handed a weight pointer as its output writes a
 * constant pool, which the host build keeps read-only. The run used to say "the program exited
 * with status 128: killed by SIGSEGV", an exit status the program never had, and no clue.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildAndRunHost, programStopped } from '../../src/verify/runCompiled';

it('a program killed by SIGSEGV is described as a crash, with what usually causes one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-crash-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'main.c'),
      '#include <stdio.h>\nstatic const int weights[4] = {1, 2, 3, 4};\n' +
        'int main(void) { fprintf(stderr, "before\\n"); ((volatile int*)weights)[0] = 5; return weights[0]; }\n',
    );
    const run = buildAndRunHost(dir, ['main.c'], [], {});
    expect(programStopped(run.status, run.stderr)).toBe(
      'the program was killed by SIGSEGV: an access outside every buffer, or a write into a constant pool ' +
        '(the host build keeps constants in read-only memory), e.g. by a kernel given the wrong pointer',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('a program that exits non-zero keeps its status and first stderr line', () => {
  expect(programStopped(3, "accel trap: accel_conv2d argument 'output' ...\n")).toBe("the program exited with status 3: accel trap: accel_conv2d argument 'output' ...");
});
