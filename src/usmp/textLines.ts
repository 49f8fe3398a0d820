/**
 * The lines of a text file, one at a time: split at '\n', a '\r' before it dropped, as
 * `text.split(/\r?\n/)` gives them, but never all at once. A buffer-set file within the size
 * limit may hold 100M blank lines, and their array made V8 abort ("invalid array length",
 * heap out of memory) before any parser could say what was wrong.
 */
export function forEachLine(text: string, visit: (line: string, index: number) => boolean | void): void {
  let start = 0;
  for (let index = 0; start <= text.length; index++) {
    let end = text.indexOf('\n', start);
    const newline = end >= 0;
    if (!newline) end = text.length;
    const stop = newline && end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (visit(text.slice(start, stop), index) === false) return;
    start = end + 1;
  }
}

/** The first line that is not blank, with its index, or undefined. */
export function firstNonBlankLine(text: string): { line: string; index: number } | undefined {
  let found: { line: string; index: number } | undefined;
  forEachLine(text, (line, index) => {
    if (line.trim() === '') return true;
    found = { line, index };
    return false;
  });
  return found;
}
