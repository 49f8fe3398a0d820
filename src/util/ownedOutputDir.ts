/**
 * Output directories uma-ts may replace: only ones it wrote itself, recognised by a marker
 * file (`.uma-ts-output`) written into every output. An existing directory without the
 * marker is refused unless it is empty, so a user's project passed as `--out` is never
 * removed. The completed marker also lists what uma-ts wrote (its manifest): an output into
 * which the user has since put files or directories of their own is refused too, naming them,
 * so a later compile never deletes them. A marker without a manifest (written by an older
 * uma-ts) keeps the old rule: the directory is replaceable.
 *
 * The new output is built in a sibling `<name>.uma-ts-tmp-<pid>-<id>` and swapped in by
 * renames: first straight over the target (atomic when it is absent or empty), else the old
 * output moves to `<name>.uma-ts-old-<pid>-<id>` and the new one takes its place. A kill at
 * any point leaves the old or the new complete output at the target, or (between the two
 * renames only) both complete beside it under those names; the next write restores such an
 * output to the target and removes what dead runs left behind. Removal is kill-safe too: a
 * directory is renamed to `<name>.uma-ts-del-<pid>-<id>` and emptied marker-last.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FileAccessError } from '../errors';
import { bestEffort, fileAccessError, withFileErrors } from './files';

export const OUTPUT_MARKER = '.uma-ts-output';
const MARKER_GENERATOR = 'uma-ts';
/**
 * Sibling names keep at most this many bytes of the target's name (as UTF-8), so they stay
 * under NAME_MAX, which counts bytes: a limit in characters let a valid name of 85 '€' (255
 * bytes) make a 285-byte sibling, and the compile failed with ENAMETOOLONG.
 */
const SIBLING_STEM_BYTES = 150;
/** What uma-ts before SIBLING_STEM_BYTES kept (UTF-16 units): its leftovers are still recognised. */
const LEGACY_STEM_UNITS = 150;

interface Marker {
  readonly generator: typeof MARKER_GENERATOR;
  /** Base name of the output this directory is (or was built to become). */
  readonly output: string;
  /** False while the directory is being filled. */
  readonly complete: boolean;
  /**
   * Every file and directory uma-ts wrote, as paths relative to the output with `/`
   * separators, directories ending in `/` (the marker itself not listed). Written with the
   * completed marker; absent in a marker of an older uma-ts or one still being filled.
   */
  readonly manifest?: readonly string[];
}

/** Names of the marker and of its replacement while that is written: never a user's entry. */
const MARKER_FILES: ReadonlySet<string> = new Set([OUTPUT_MARKER, `${OUTPUT_MARKER}.next`]);
/** How many of the user's entries a refusal names. */
const FOREIGN_SHOWN = 3;

function readMarker(dir: string): Marker | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(dir, OUTPUT_MARKER), 'utf8')) as { [K in keyof Marker]?: unknown };
    if (data.generator !== MARKER_GENERATOR || typeof data.output !== 'string') return undefined;
    const marker = { generator: MARKER_GENERATOR, output: data.output, complete: data.complete === true } as const;
    if (data.manifest === undefined) return marker;
    // A manifest we cannot read is no promise of what is ours: the marker does not count.
    if (!Array.isArray(data.manifest) || !data.manifest.every((e) => typeof e === 'string')) return undefined;
    return { ...marker, manifest: data.manifest as string[] };
  } catch {
    return undefined;
  }
}

/**
 * Every entry under `dir` as a path relative to it (`/` separators, directories with a
 * trailing `/`), sorted; the marker files at the top are left out. Symbolic links are entries
 * of their own and never followed.
 */
function listTree(dir: string): string[] {
  const found: string[] = [];
  const pending = [''];
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    for (const entry of fs.readdirSync(path.join(dir, ...rel.split('/')), { withFileTypes: true })) {
      if (rel === '' && MARKER_FILES.has(entry.name)) continue;
      if (entry.isDirectory()) {
        found.push(`${rel}${entry.name}/`);
        pending.push(`${rel}${entry.name}/`);
      } else {
        found.push(`${rel}${entry.name}`);
      }
    }
  }
  return found.sort();
}

/**
 * What `dir` holds that its marker's manifest does not list (the user's files and
 * directories), or [] when the marker has no manifest (an older uma-ts's output).
 */
function foreignEntries(dir: string, marker: Marker): string[] {
  const manifest = marker.manifest;
  if (manifest === undefined) return [];
  const ours = new Set(manifest);
  return listTree(dir).filter((e) => !ours.has(e));
}

/** A name from the disk, safe in a one-line message. */
function shownEntry(entry: string): string {
  const printable = entry.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
}

/** The refusal naming up to FOREIGN_SHOWN of the user's entries (`foreign`: sorted, as listTree gives them). */
function foreignEntriesError(shown: string, foreign: readonly string[]): FileAccessError {
  // A directory of the user's is named by what it holds, only an empty one by itself. Sorted,
  // a directory's entries follow it directly, so the next entry tells whether it has any.
  const leaves = foreign.filter((e, i) => !e.endsWith('/') || !(foreign[i + 1]?.startsWith(e) ?? false));
  const named = leaves.slice(0, FOREIGN_SHOWN).map(shownEntry);
  const more = leaves.length > FOREIGN_SHOWN ? `, and ${leaves.length - FOREIGN_SHOWN} more` : '';
  return new FileAccessError(
    `output directory ${shown} holds files uma-ts did not write (${named.join(', ')}${more}); ` +
      'refusing to replace it: move them out or choose another --out',
    { file: shown },
  );
}

/** Refuses to replace or remove `dir` (an output of ours) when the user has added anything to it. */
function checkNothingForeign(dir: string, marker: Marker, shown: string): void {
  const foreign = withFileErrors('inspect output directory', shown, () => foreignEntries(dir, marker));
  if (foreign.length > 0) throw foreignEntriesError(shown, foreign);
}

function writeMarker(dir: string, output: string, complete: boolean): void {
  const marker: Marker = { generator: MARKER_GENERATOR, output, complete, ...(complete ? { manifest: listTree(dir) } : {}) };
  const text = `${JSON.stringify(marker)}\n`;
  if (!complete) {
    fs.writeFileSync(path.join(dir, OUTPUT_MARKER), text, { flag: 'wx' });
    return;
  }
  // Replaced by a rename: a kill mid-write never leaves a marker that is not ours.
  const next = path.join(dir, `${OUTPUT_MARKER}.next`);
  fs.writeFileSync(next, text);
  fs.renameSync(next, path.join(dir, OUTPUT_MARKER));
}

/**
 * How many times a check is taken again when another writer swapped the target while it read
 * it (the listing and the marker came from two directories, or from one just moved away).
 */
const SWAPPED_RETRIES = 20;

/**
 * Refuses a target that exists and is neither empty nor an output of uma-ts. Concurrent
 * writers to one output swap it by renames: a check that read the listing of one directory
 * and then found no marker (it had been moved away) or entries its manifest does not list (a
 * newer output had taken its place) read two directories, and is taken again while the
 * target is not the directory it started with.
 */
export function checkReplaceable(target: string, shown: string = target): void {
  for (let attempt = 0; ; attempt++) {
    const before = targetDirectory(target, shown);
    if (before === undefined) return;
    checkCwdOutside(target, shown);
    try {
      checkContents(target, shown);
      return;
    } catch (e) {
      if (attempt < SWAPPED_RETRIES && swappedSince(target, before)) continue;
      throw e;
    }
  }
}

/** The target's own status: undefined when it is absent; refuses a link or a non-directory. */
function targetDirectory(target: string, shown: string): fs.Stats | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileAccessError(e, 'inspect output directory', shown);
  }
  if (stat.isSymbolicLink()) {
    // Never followed: replacing it would remove the link or write into wherever it points.
    throw new FileAccessError(`output path ${shown} is a symbolic link; refusing to replace it: give the directory it points to, or another --out`, { file: shown });
  }
  if (!stat.isDirectory()) {
    throw new FileAccessError(`output path ${shown} exists and is not a directory; refusing to replace it`, { file: shown });
  }
  return stat;
}

/** Whether `target` is no longer the directory `before` described (moved away or replaced). */
function swappedSince(target: string, before: fs.Stats): boolean {
  try {
    const now = fs.lstatSync(target);
    return now.ino !== before.ino || now.dev !== before.dev;
  } catch {
    return true;
  }
}

/** A directory's contents allow replacing it: nothing, or an output of uma-ts with nothing foreign. */
function checkContents(target: string, shown: string): void {
  const entries = withFileErrors('list output directory', shown, () => fs.readdirSync(target));
  if (entries.length === 0) return;
  const marker = readMarker(target);
  if (marker !== undefined) {
    checkNothingForeign(target, marker, shown);
    return;
  }
  throw new FileAccessError(
    `output directory ${shown} is not empty and was not written by uma-ts (no ${OUTPUT_MARKER} marker); ` +
      'refusing to replace it: choose another --out or remove it yourself',
    { file: shown },
  );
}

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Whether `inner` (resolved) is `outer` or lies under it. */
function isWithin(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return !(rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
}

/**
 * Refuses to replace the working directory or one holding it (`--out .` in an empty
 * directory, `--out ../..` from inside an earlier output): the new output would take the
 * directory's place by a rename, leaving the user's shell in a removed directory.
 */
function checkCwdOutside(target: string, shown: string): void {
  let cwd: string;
  try {
    cwd = fs.realpathSync(process.cwd());
  } catch {
    // A removed working directory is no directory the target can be.
    return;
  }
  const root = realOrResolved(target);
  if (!isWithin(root, cwd)) return;
  throw new FileAccessError(
    `output directory ${shown} ${root === cwd ? 'is' : 'holds'} the current directory; replacing it would leave the shell in a removed directory: choose another --out`,
    { file: shown },
  );
}

/**
 * Refuses an output directory that holds one of the command's own input files (a model or
 * config copied into an earlier output): replacing the directory would delete that input.
 * Paths are compared after resolving symbolic links.
 */
export function checkInputsOutside(target: string, inputs: readonly string[], shown: string = target): void {
  const root = realOrResolved(target);
  for (const input of inputs) {
    const file = realOrResolved(input);
    if (!isWithin(root, file)) continue;
    // `--out pools.json`: the output path is the input file itself, not a directory holding it.
    if (file === root) {
      throw new FileAccessError(`output path ${shown} is the input file ${input}; writing the output there would replace it: choose another --out`, { file: shown });
    }
    throw new FileAccessError(
      `output directory ${shown} contains the input file ${input}; replacing the directory would delete it: choose another --out or move the input`,
      { file: shown },
    );
  }
}

const SIBLING = /^(.*)\.uma-ts-(tmp|old|del)-(\d+)-[a-z0-9]+$/;

type SiblingTag = 'tmp' | 'old' | 'del';

/** The start of `base` that sibling names keep: whole characters, at most SIBLING_STEM_BYTES of UTF-8. */
function siblingStem(base: string): string {
  let stem = '';
  let bytes = 0;
  // By code point: a surrogate pair is never split into a name the file system would refuse.
  for (const ch of base) {
    bytes += Buffer.byteLength(ch, 'utf8');
    if (bytes > SIBLING_STEM_BYTES) break;
    stem += ch;
  }
  return stem;
}

function siblingName(base: string, tag: SiblingTag): string {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 6).toString(36)}`;
  return `${siblingStem(base)}.uma-ts-${tag}-${process.pid}-${id}`;
}

function processIsGone(pid: number): boolean {
  // A sibling with our own pid is a leftover of an earlier call: writes here are synchronous.
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes a directory of ours so that a kill at any point leaves it recognisable: the marker
 * goes last, then the (by then empty) directory.
 */
function removeOwned(dir: string): void {
  for (const entry of fs.readdirSync(dir)) {
    if (entry !== OUTPUT_MARKER) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
  fs.rmSync(path.join(dir, OUTPUT_MARKER), { force: true });
  fs.rmdirSync(dir);
}

/** Moves a directory of ours out of the way under a `del` name (never restored), then removes it. */
function discard(dir: string): void {
  removeOwned(movedAside(dir));
}

/** `dir` renamed to a `del` sibling, or `dir` itself when it cannot move (removing in place is safe: the marker goes last). */
function movedAside(dir: string): string {
  const parent = path.dirname(dir);
  const stem = SIBLING.exec(path.basename(dir))?.[1] ?? path.basename(dir);
  const doomed = path.join(parent, siblingName(stem, 'del'));
  try {
    fs.renameSync(dir, doomed);
    return doomed;
  } catch {
    return dir;
  }
}

/** A directory of ours that could not be removed, and why. */
export interface StuckOutput {
  readonly dir: string;
  readonly reason: string;
}

/** discard, reporting instead of throwing: what stays behind, or undefined when it is gone. */
function discardReporting(dir: string): StuckOutput | undefined {
  const aside = movedAside(dir);
  try {
    removeOwned(aside);
    return undefined;
  } catch (e) {
    return fs.existsSync(aside) ? { dir: aside, reason: (e as Error).message } : undefined;
  }
}

interface Leftover {
  readonly dir: string;
  readonly tag: SiblingTag;
  readonly marker?: Marker;
  readonly mtimeMs: number;
}

/** Temp and backup directories a dead run writing `base` left in `parent`. */
function leftovers(parent: string, base: string): Leftover[] {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return [];
  }
  const found: Leftover[] = [];
  for (const name of names) {
    const m = SIBLING.exec(name);
    if (!m || !(m[1] === siblingStem(base) || m[1] === base.slice(0, LEGACY_STEM_UNITS)) || !processIsGone(Number(m[3]))) continue;
    const dir = path.join(parent, name);
    try {
      const stat = fs.lstatSync(dir);
      if (!stat.isDirectory()) continue;
      const marker = readMarker(dir);
      // A directory of ours always gets the marker first; only an empty one can lack it.
      if (marker === undefined && fs.readdirSync(dir).length > 0) continue;
      if (marker !== undefined && marker.output !== base) continue;
      found.push({ dir, tag: m[2] as SiblingTag, ...(marker ? { marker } : {}), mtimeMs: stat.mtimeMs });
    } catch {
      // Vanished or unreadable: not ours to touch.
    }
  }
  return found;
}

/**
 * Finishes what a killed run left: when the target is missing, the newest complete output
 * beside it is moved back; every other leftover of a dead run is removed.
 */
export function recoverLeftovers(target: string): StuckOutput[] {
  const parent = path.dirname(target);
  const base = path.basename(target);
  const found = leftovers(parent, base);
  const stuck: StuckOutput[] = [];
  if (found.length === 0) return stuck;
  if (!fs.existsSync(target)) {
    const complete = found
      .filter((l) => l.tag !== 'del' && l.marker?.complete === true)
      // A finished temp is the newer output; among equals the most recent wins.
      .sort((a, b) => (a.tag === b.tag ? b.mtimeMs - a.mtimeMs : a.tag === 'tmp' ? -1 : 1));
    const best = complete[0];
    if (best !== undefined) bestEffort(() => fs.renameSync(best.dir, target));
  }
  for (const l of found) {
    // A leftover the user has put files into is theirs now: left where it is.
    if (l.marker !== undefined && fs.existsSync(l.dir) && hasForeign(l.dir, l.marker)) continue;
    if (!fs.existsSync(l.dir)) continue;
    if (!l.marker) {
      bestEffort(() => fs.rmdirSync(l.dir));
      continue;
    }
    const left = discardReporting(l.dir);
    if (left) stuck.push(left);
  }
  return stuck;
}

/** True when `dir` holds entries its manifest does not list, or cannot be inspected. */
function hasForeign(dir: string, marker: Marker): boolean {
  try {
    return foreignEntries(dir, marker).length > 0;
  } catch {
    return true;
  }
}

function isOccupied(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR';
}

/**
 * Moves the finished `tmp` to `target`, moving a previous output of ours out of the way; returns
 * that previous output when it could not be removed afterwards.
 */
function swapIn(tmp: string, target: string, shown: string): StuckOutput | undefined {
  const parent = path.dirname(target);
  const base = path.basename(target);
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      fs.renameSync(tmp, target);
      return undefined;
    } catch (e) {
      if (!isOccupied(e)) throw fileAccessError(e, 'move the new output to', shown);
    }
    // Something is at the target (an older output, or a concurrent run's): only ours moves.
    checkReplaceable(target, shown);
    const old = path.join(parent, siblingName(base, 'old'));
    try {
      fs.renameSync(target, old);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw fileAccessError(e, 'move the previous output aside from', shown);
    }
    // Checked again once aside: something the user added after the check above stays theirs.
    const marker = readMarker(old);
    let foreign: string[];
    try {
      // Unmarked since the check (replaced meanwhile): everything in it counts as the user's.
      foreign = marker === undefined ? listTree(old) : foreignEntries(old, marker);
    } catch (e) {
      bestEffort(() => fs.renameSync(old, target));
      throw fileAccessError(e, 'inspect output directory', shown);
    }
    if (foreign.length > 0) {
      bestEffort(() => fs.renameSync(old, target));
      throw foreignEntriesError(shown, foreign);
    }
    try {
      fs.renameSync(tmp, target);
    } catch (e) {
      try {
        fs.renameSync(old, target);
      } catch {
        // A concurrent run's complete output took the target meanwhile: the previous one,
        // ours and checked free of the user's files above, is superseded as if we had won.
        // Left aside, it stayed until a later run's recovery (a concurrent-writers test saw it).
        if (isOccupied(e)) bestEffort(() => discard(old));
      }
      if (isOccupied(e)) continue;
      throw fileAccessError(e, 'move the new output to', shown);
    }
    return discardReporting(old);
  }
  throw new FileAccessError(`cannot write output directory ${shown}: another process keeps replacing it`, { file: shown });
}

/**
 * Writes a whole output directory at `outDir`: `fill(dir)` writes the content into a fresh
 * temporary directory, which then replaces `outDir` (only if that is absent, empty, or a
 * previous uma-ts output). Any failure leaves the previous output as it was and no temp.
 * Returns the directories of earlier outputs it could not remove (a read-only part of the
 * previous output, say): they stay beside `outDir`, and the caller should say so.
 */
export function writeOwnedDirectory(outDir: string, fill: (dir: string) => void): StuckOutput[] {
  const target = path.resolve(outDir);
  const base = path.basename(target);
  checkReplaceable(target, outDir);
  withFileErrors('create the parent directory of', outDir, () => fs.mkdirSync(path.dirname(target), { recursive: true }));
  const stuck = recoverLeftovers(target);
  checkReplaceable(target, outDir);
  const tmp = path.join(path.dirname(target), siblingName(base, 'tmp'));
  try {
    withFileErrors('create a temporary directory beside', outDir, () => fs.mkdirSync(tmp));
    withFileErrors('write output directory', outDir, () => {
      writeMarker(tmp, base, false);
      fill(tmp);
      writeMarker(tmp, base, true);
    });
    const previous = swapIn(tmp, target, outDir);
    return previous ? [...stuck, previous] : stuck;
  } catch (e) {
    bestEffort(() => (fs.existsSync(path.join(tmp, OUTPUT_MARKER)) ? discard(tmp) : fs.rmdirSync(tmp)));
    throw e;
  }
}
