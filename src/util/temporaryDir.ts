/**
 * Temporary build directories (`uma-ts run`'s `/tmp/uma-run-*`) that go away however the
 * process ends: removed by `remove()` on every normal path, and by a watcher when the process
 * is killed (Ctrl-C, SIGTERM, SIGKILL, a crash).
 *
 * Why a watcher process and not a SIGINT/SIGTERM listener: a run builds and executes with
 * `spawnSync`, which blocks the event loop, so a listener would only fire after the compiler and
 * the program finished (up to minutes), and the run would carry on in the meantime. The process
 * instead keeps the signals' default action (it dies at once, with the usual status 130/143)
 * and a small detached `sh` reads a pipe whose only writer is this process: when the process
 * dies the pipe closes and the watcher removes exactly the directory it was given (mkdtemp
 * made it, so it is ours), after stopping a program still running from it. On the normal path the watcher is killed before the directory is
 * removed, so it never removes anything after this process is done with the name.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface TemporaryDir {
  readonly path: string;
  /** Removes the directory (and stops its watcher). */
  remove(): void;
  /** Keeps the directory for the caller (and stops its watcher). */
  keep(): void;
}

/**
 * `read` is a shell builtin: until the pipe closes, the watcher is one process, ended by one
 * signal. Then a program built in the directory that is still running (a killed run's harness,
 * which lost the timeout this process enforced) is stopped: on Linux, a process whose
 * executable lies inside the directory; nothing else is touched.
 */
const WATCHER_SCRIPT = [
  'read -r _ignored',
  'for p in /proc/[0-9]*; do case "$(readlink "$p/exe" 2>/dev/null)" in "$0"/*) kill -9 "${p#/proc/}" 2>/dev/null;; esac; done',
  'rm -rf -- "$0"',
].join('\n');

function startWatcher(dir: string): ChildProcess | undefined {
  try {
    // detached: its own session, so a Ctrl-C to the terminal's process group does not stop it too.
    const watcher = spawn('sh', ['-c', WATCHER_SCRIPT, dir], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    // No sh (e.g. Windows): the directory is then only removed on the normal path.
    watcher.on('error', () => undefined);
    watcher.stdin?.on('error', () => undefined);
    watcher.unref();
    (watcher.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return watcher;
  } catch {
    return undefined;
  }
}

function stopWatcher(watcher: ChildProcess | undefined): void {
  if (watcher === undefined) return;
  // SIGKILL is delivered before kill() returns: the watcher cannot reach its rm afterwards.
  if (watcher.exitCode === null && watcher.signalCode === null) {
    try {
      watcher.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  watcher.stdin?.destroy();
}

/** A new `<tmpdir>/<prefix>XXXXXX` directory, removed when this process dies if not before. */
export function makeTemporaryDir(prefix: string): TemporaryDir {
  // Absolute: a relative TMPDIR would name another place once a compiler runs from inside it
  // (`uma-ts run` builds with the directory as its cwd and passes include paths under it).
  const dir = path.resolve(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  // Resolved, as /proc/<pid>/exe is.
  const watcher = startWatcher(fs.realpathSync(dir));
  let done = false;
  return {
    path: dir,
    remove(): void {
      if (done) return;
      done = true;
      stopWatcher(watcher);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    keep(): void {
      if (done) return;
      done = true;
      stopWatcher(watcher);
    },
  };
}
