/**
 * Running the C toolchain (src/verify/tools.ts): fuzzing `run --cc` found a relative compiler
 * path looked up in the temporary build directory, a compiler that never returns hanging the
 * command, and one that exits 0 without writing the program reported only later and vaguely.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTool, splitCommand } from '../../src/verify/tools';
import { errorOf } from '../helpers/errorOf';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-tools-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(p, 0o755);
  return p;
}

describe('splitCommand', () => {
  it('resolves a relative program path against the working directory, leaves PATH names and arguments alone', () => {
    expect(splitCommand('./mycc -O2 -I./inc')).toEqual([path.resolve('mycc'), '-O2', '-I./inc']);
    expect(splitCommand('tools/cc')).toEqual([path.resolve('tools/cc')]);
    expect(splitCommand('  gcc  -g ')).toEqual(['gcc', '-g']);
    expect(splitCommand('/usr/bin/gcc')).toEqual(['/usr/bin/gcc']);
  });

  it('refuses an empty command', () => {
    expect(errorOf(() => splitCommand('   ')).message).toBe('the C compiler command is empty');
  });
});

describe('runTool', () => {
  it('a relative compiler path runs from the user directory although the tool runs in another one', () => {
    const cc = script('relcc', 'touch out');
    const work = fs.mkdtempSync(path.join(dir, 'work-'));
    runTool(splitCommand(path.relative(process.cwd(), cc)), work, 'C build', { output: 'out' });
    expect(fs.existsSync(path.join(work, 'out'))).toBe(true);
  });

  it('a tool that exits 0 without its output is a failed build naming the file', () => {
    const cc = script('lazycc', 'exit 0');
    expect(errorOf(() => runTool([cc], dir, 'C build', { output: 'prog' })).message).toBe(`C build failed: ${cc} exited 0 but wrote no prog`);
  });

  it('a tool that never returns is stopped after the time limit', () => {
    const cc = script('slowcc', 'exec sleep 30');
    expect(errorOf(() => runTool([cc], dir, 'C build', { timeoutMs: 300 })).message).toBe(`C build: ${cc} did not finish within 0.3 s`);
  });

  it('a failing tool shows its first error line', () => {
    const cc = script('badcc', 'echo "x.c:1: error: boom" >&2; exit 1');
    expect(errorOf(() => runTool([cc], dir, 'C build')).message).toBe('C build failed: x.c:1: error: boom');
  });

  it("quotes the source line gcc shows under the error: the build directory is gone when the user reads it", () => {
    // What gcc prints for a backend's registerPool hook that returned `npu2_register(act_mem)`.
    const cc = script(
      'gcclike',
      [
        "echo \"default_lib0.c: In function 'tvmgen_default_run':\" >&2",
        "echo \"default_lib0.c:35:22: error: 'act_mem' undeclared (first use in this function)\" >&2",
        "echo '   35 |   if ((npu2_register(act_mem)) != 0) return -1;' >&2",
        "echo '      |                      ^~~~~~~' >&2",
        'exit 1',
      ].join('\n'),
    );
    expect(errorOf(() => runTool([cc], dir, 'C build')).message).toBe(
      "C build failed: default_lib0.c:35:22: error: 'act_mem' undeclared (first use in this function) (line 35: if ((npu2_register(act_mem)) != 0) return -1;)",
    );
  });
});
