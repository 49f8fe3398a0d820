/** gcc/g++ helpers for the codegen tests: temp dirs, strict compiles, running programs. */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CArtifacts } from '../../src/codegen/types';

export const STRICT_C = ['-std=c99', '-Wall', '-Wextra', '-Werror'];

export function makeTempDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `uma-codegen-${tag}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

function run(cmd: string, args: readonly string[], cwd: string, input?: string): string {
  try {
    return execFileSync(cmd, [...args], { cwd, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${err.stderr ?? ''}${err.stdout ?? ''}${err.message}`);
  }
}

/** Writes the artifacts' model and runtime files together under `dir/{src,include}`. */
export function writeArtifacts(dir: string, artifacts: CArtifacts): void {
  for (const f of [...artifacts.files, ...artifacts.runtimeFiles]) {
    const p = path.join(dir, ...f.path.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.content);
  }
}

/**
 * Compiles every `.c` under `dir/src` plus `extraSources` with strict warnings (and UBSan,
 * which turns any undefined behaviour at run time into a failure), runs the program and
 * returns its stdout.
 */
export function buildAndRun(dir: string, extraSources: Record<string, string>, opts: { sanitize?: boolean } = {}): string {
  const srcDir = path.join(dir, 'src');
  fs.mkdirSync(srcDir, { recursive: true });
  for (const [name, content] of Object.entries(extraSources)) fs.writeFileSync(path.join(dir, name), content);
  const sources = [
    ...fs.readdirSync(srcDir).filter((f) => f.endsWith('.c')).map((f) => path.join('src', f)),
    ...Object.keys(extraSources).filter((f) => f.endsWith('.c')),
  ];
  const san = opts.sanitize === false ? [] : ['-fsanitize=undefined', '-fno-sanitize-recover=all'];
  run('gcc', [...STRICT_C, ...san, '-O1', '-Iinclude', '-I.', ...sources, '-o', 'prog', '-lm'], dir);
  return run(path.join(dir, 'prog'), [], dir);
}

/** Compiles a header alone as C++ (the interface must be usable from C++ applications). */
export function compileHeaderAsCxx(dir: string, header: string): void {
  fs.writeFileSync(path.join(dir, 'use_header.cc'), `#include "${header}"\nint main() { return 0; }\n`);
  run('g++', ['-x', 'c++', '-Wall', '-Wextra', '-Werror', '-Iinclude', '-c', 'use_header.cc', '-o', 'use_header.o'], dir);
}

export function parseInts(stdout: string): number[] {
  return stdout
    .trim()
    .split(/\s+/)
    .filter((s) => s !== '')
    .map((s) => Number.parseInt(s, 10));
}

/** Seeded generators, so random test inputs are reproducible. */
export { randomInt as randInt, seededRandom as rng } from '../../src/util/random';
