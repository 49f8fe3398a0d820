/**
 * What a thrown value says, on one line, and whether a value is a promise-like: read by the CLI's
 * entry on every run (its last-resort error lines), so kept apart from backend/userCode.ts,
 * whose TIR checks would otherwise load with every command (a few ms of every start).
 */
const MAX_DETAIL = 200;

/** The first line of `text`, cut to MAX_DETAIL characters. */
export function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL)}...` : line;
}

/** What user code threw, on one line: `TypeError: x is undefined`, or the thrown value. */
export function describeThrown(e: unknown): string {
  // A thrown object can make its own description throw (a toString, a name getter that throws).
  try {
    if (e instanceof Error) return `${e.name}: ${firstLine(e.message)}`;
    return typeof e === 'string' ? JSON.stringify(firstLine(e)) : firstLine(String(e));
  } catch {
    return 'a value that cannot be printed';
  }
}

/** Whether `value` is a promise-like; a value whose `then` cannot even be read is not. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}
