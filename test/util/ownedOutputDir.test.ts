/**
 * Output directories remember what uma-ts wrote (the manifest in the marker): an output the
 * user has since put files or directories into is refused, naming them, and nothing is
 * deleted; an untouched output, or one whose marker an older uma-ts wrote without a
 * manifest, is still replaced.
 */
import * as fs from 'fs';
// The module object itself, so spies reach the code under test (namespace imports are frozen).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsModule = require('fs') as typeof import('fs');
import * as os from 'os';
import * as path from 'path';
import { FileAccessError } from '../../src/errors';
import { checkInputsOutside, checkReplaceable, OUTPUT_MARKER, recoverLeftovers, writeOwnedDirectory } from '../../src/util/ownedOutputDir';

function fill(content: string) {
  return (d: string): void => {
    fs.writeFileSync(path.join(d, 'a.txt'), content);
    fs.mkdirSync(path.join(d, 'sub', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(d, 'sub', 'deep', 'b.txt'), content);
  };
}

function content(d: string): string {
  return fs.readFileSync(path.join(d, 'a.txt'), 'utf8');
}

/** The error `fn` throws (it must throw). */
function errorOf(fn: () => void): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

let dir: string;
let target: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-owned-'));
  target = path.join(dir, 'out');
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the marker lists what uma-ts wrote', () => {
  it('records every file and directory of the completed output, itself left out', () => {
    writeOwnedDirectory(target, fill('v1'));
    const marker = JSON.parse(fs.readFileSync(path.join(target, OUTPUT_MARKER), 'utf8'));
    expect(marker).toEqual({
      generator: 'uma-ts',
      output: 'out',
      complete: true,
      manifest: ['a.txt', 'sub/', 'sub/deep/', 'sub/deep/b.txt'],
    });
  });

  it('an untouched output is replaced, its files no longer written going with it', () => {
    writeOwnedDirectory(target, (d) => {
      fill('v1')(d);
      fs.mkdirSync(path.join(d, 'empty'));
      fs.writeFileSync(path.join(d, 'old-only.txt'), 'x');
    });
    writeOwnedDirectory(target, fill('v2'));
    expect(content(target)).toBe('v2');
    expect(fs.existsSync(path.join(target, 'old-only.txt'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'empty'))).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('an output the user removed generated files from is still replaced', () => {
    writeOwnedDirectory(target, fill('v1'));
    fs.rmSync(path.join(target, 'sub'), { recursive: true });
    writeOwnedDirectory(target, fill('v2'));
    expect(content(target)).toBe('v2');
  });

  it('a marker an older uma-ts wrote (no manifest) keeps the old rule: replaced', () => {
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, OUTPUT_MARKER), JSON.stringify({ generator: 'uma-ts', output: 'out', complete: true }));
    fs.writeFileSync(path.join(target, 'whatever.txt'), 'old output');
    writeOwnedDirectory(target, fill('v2'));
    expect(content(target)).toBe('v2');
    expect(fs.existsSync(path.join(target, 'whatever.txt'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(target, OUTPUT_MARKER), 'utf8')).manifest).toBeDefined();
  });

  it('a marker whose manifest is not a list of paths does not count as ours', () => {
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, OUTPUT_MARKER), JSON.stringify({ generator: 'uma-ts', output: 'out', complete: true, manifest: 'all' }));
    fs.writeFileSync(path.join(target, 'a.txt'), 'keep');
    expect(() => writeOwnedDirectory(target, fill('v2'))).toThrow(/was not written by uma-ts/);
    expect(content(target)).toBe('keep');
  });
});

describe("an output holding the user's own entries is refused, nothing deleted", () => {
  it('a file at the top: FileAccessError naming the directory and the file', () => {
    writeOwnedDirectory(target, fill('v1'));
    fs.writeFileSync(path.join(target, 'NOTES.txt'), 'mine');
    const e = errorOf(() => writeOwnedDirectory(target, fill('v2')));
    expect(e).toBeInstanceOf(FileAccessError);
    expect(e.message).toBe(
      `output directory ${target} holds files uma-ts did not write (NOTES.txt); refusing to replace it: move them out or choose another --out`,
    );
    expect(fs.readFileSync(path.join(target, 'NOTES.txt'), 'utf8')).toBe('mine');
    expect(content(target)).toBe('v1');
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('nested: a file in a generated directory, a new directory with files, an empty directory', () => {
    writeOwnedDirectory(target, fill('v1'));
    fs.writeFileSync(path.join(target, 'sub', 'deep', 'mine.c'), 'int x;');
    fs.mkdirSync(path.join(target, 'app', 'src'), { recursive: true });
    fs.writeFileSync(path.join(target, 'app', 'src', 'main.c'), 'int main;');
    fs.mkdirSync(path.join(target, 'sub', 'build'));
    const e = errorOf(() => checkReplaceable(target, 'out'));
    expect(e).toBeInstanceOf(FileAccessError);
    // Directories are named by what they hold, an empty one by itself.
    expect(e.message).toContain('holds files uma-ts did not write (app/src/main.c, sub/build/, sub/deep/mine.c);');
    expect(() => writeOwnedDirectory(target, fill('v2'))).toThrow(FileAccessError);
    expect(fs.readFileSync(path.join(target, 'sub', 'deep', 'mine.c'), 'utf8')).toBe('int x;');
    expect(fs.readFileSync(path.join(target, 'app', 'src', 'main.c'), 'utf8')).toBe('int main;');
    expect(fs.existsSync(path.join(target, 'sub', 'build'))).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('a file put where a generated directory was', () => {
    writeOwnedDirectory(target, fill('v1'));
    fs.rmSync(path.join(target, 'sub', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(target, 'sub', 'deep'), 'mine');
    fs.rmSync(path.join(target, 'a.txt'));
    fs.mkdirSync(path.join(target, 'a.txt'));
    expect(() => checkReplaceable(target, 'out')).toThrow(/did not write \(a\.txt\/, sub\/deep\)/);
  });

  it('names at most three, counts the rest, and keeps the message on one line', () => {
    writeOwnedDirectory(target, fill('v1'));
    for (const name of ['n1', 'n2', 'n3', 'n4', 'n5', 'bad\nname']) fs.writeFileSync(path.join(target, name), '');
    const e = errorOf(() => checkReplaceable(target, 'out'));
    expect(e.message).toContain('(bad?name, n1, n2, and 3 more)');
    expect(e.message).not.toContain('\n');
  });

  it('symbolic links are entries of their own, never followed', () => {
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'precious.txt'), 'keep');
    writeOwnedDirectory(target, (d) => {
      fill('v1')(d);
      fs.symlinkSync(elsewhere, path.join(d, 'ours-link'));
    });
    writeOwnedDirectory(target, fill('v2')); // the link was ours: replaced, its target untouched
    expect(fs.readFileSync(path.join(elsewhere, 'precious.txt'), 'utf8')).toBe('keep');
    fs.symlinkSync(elsewhere, path.join(target, 'sub', 'link'));
    expect(() => checkReplaceable(target, 'out')).toThrow(/did not write \(sub\/link\)/);
    expect(fs.readFileSync(path.join(elsewhere, 'precious.txt'), 'utf8')).toBe('keep');
  });

  it('a file added after the first check is found once the output is moved aside, and put back', () => {
    writeOwnedDirectory(target, fill('v1'));
    const real = fs.renameSync;
    jest.spyOn(fsModule, 'renameSync').mockImplementation((from, to) => {
      // The user saves a file just before the old output moves aside.
      if (String(from) === target && String(to).includes('.uma-ts-old-')) fs.writeFileSync(path.join(target, 'late.txt'), 'mine');
      return real(from, to);
    });
    expect(() => writeOwnedDirectory(target, fill('v2'))).toThrow(/did not write \(late\.txt\)/);
    jest.restoreAllMocks();
    expect(fs.readFileSync(path.join(target, 'late.txt'), 'utf8')).toBe('mine');
    expect(content(target)).toBe('v1');
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it("a dead run's leftover the user put files into is left where it is", () => {
    writeOwnedDirectory(target, fill('v1'));
    const leftover = path.join(dir, 'out.uma-ts-old-999999999-k1ll3d');
    fs.cpSync(target, leftover, { recursive: true });
    fs.writeFileSync(path.join(leftover, 'mine.txt'), 'keep');
    recoverLeftovers(target);
    expect(fs.readFileSync(path.join(leftover, 'mine.txt'), 'utf8')).toBe('keep');
    expect(content(target)).toBe('v1');
  });
});

describe('a target another writer swaps while it is checked', () => {
  /** Runs `swap` once, just before (or just after) the check first reads the target's marker. */
  function swapAtMarkerRead(when: 'before' | 'after', swap: () => void): void {
    const real = fs.readFileSync as (f: fs.PathOrFileDescriptor, o?: unknown) => string | Buffer;
    let done = false;
    jest.spyOn(fsModule, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
      const first = !done && String(file) === path.join(target, OUTPUT_MARKER);
      if (first) done = true;
      if (first && when === 'before') swap();
      const read = real(file, options);
      if (first && when === 'after') swap();
      return read;
    }) as typeof fs.readFileSync);
  }

  it('moved away after its listing: not refused as a foreign directory', () => {
    writeOwnedDirectory(target, fill('v1'));
    swapAtMarkerRead('before', () => fs.renameSync(target, path.join(dir, 'out.uma-ts-old-1-mid')));
    expect(() => checkReplaceable(target)).not.toThrow();
  });

  it('replaced by a newer output after its marker was read: checked again, against the newer one', () => {
    writeOwnedDirectory(target, fill('v1'));
    // The newer output has a file the older one's manifest does not list.
    const newer = path.join(dir, 'newer', 'out');
    writeOwnedDirectory(newer, (d) => {
      fill('v2')(d);
      fs.writeFileSync(path.join(d, 'new-in-v2.txt'), 'v2');
    });
    swapAtMarkerRead('after', () => {
      fs.renameSync(target, path.join(dir, 'out.uma-ts-old-1-mid'));
      fs.renameSync(newer, target);
    });
    expect(() => checkReplaceable(target)).not.toThrow();
  });

  it('a directory of the user that stays in place is still refused', () => {
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'mine.txt'), 'keep');
    expect(() => checkReplaceable(target)).toThrow(/not written by uma-ts/);
    expect(fs.readFileSync(path.join(target, 'mine.txt'), 'utf8')).toBe('keep');
  });
});

describe('an earlier output that cannot be removed', () => {
  it('is reported with where and why, the new output in place; the next write tries again and reports it once', () => {
    writeOwnedDirectory(target, fill('v1'));
    const real = fs.rmSync;
    // A part of the first output that cannot be removed (as a read-only directory is, for a
    // user who is not root).
    const spy = jest.spyOn(fsModule, 'rmSync').mockImplementation((p, options) => {
      const deep = path.join(String(p), 'deep', 'b.txt');
      if (String(p).endsWith(`${path.sep}sub`) && fs.existsSync(deep) && fs.readFileSync(deep, 'utf8') === 'v1') {
        throw Object.assign(new Error(`EACCES: permission denied, unlink '${String(p)}'`), { code: 'EACCES' });
      }
      return real(p, options);
    });
    const stuck = writeOwnedDirectory(target, fill('v2'));
    expect(content(target)).toBe('v2');
    expect(stuck).toHaveLength(1);
    expect(stuck[0].dir).toMatch(/out\.uma-ts-del-/);
    expect(stuck[0].reason).toMatch(/^EACCES: permission denied/);
    expect(fs.existsSync(stuck[0].dir)).toBe(true);
    const again = writeOwnedDirectory(target, fill('v3'));
    expect(content(target)).toBe('v3');
    expect(again).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((e) => e.includes('.uma-ts-'))).toEqual([path.basename(again[0].dir)]);
    spy.mockRestore();
    // Removable again: the next write clears it and reports nothing.
    expect(writeOwnedDirectory(target, fill('v4'))).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });
});

describe('inputs inside the output', () => {
  it('--out naming an input file itself says so, not that the "directory" contains it', () => {
    const pools = path.join(dir, 'pools.json');
    fs.writeFileSync(pools, '{}');
    expect(errorOf(() => checkInputsOutside(pools, [pools], 'pools.json')).message).toBe(
      `output path pools.json is the input file ${pools}; writing the output there would replace it: choose another --out`,
    );
    expect(errorOf(() => checkInputsOutside(dir, [pools], 'd')).message).toMatch(/^output directory d contains the input file /);
    expect(fs.readFileSync(pools, 'utf8')).toBe('{}');
  });
});
