/**
 * `*`-only globs (pin patterns like `conv_*`), matched in time linear in pattern plus name.
 * A pattern is its literal pieces between stars: the first piece must be a prefix, the last
 * a suffix, and the ones between are found left to right, each at its leftmost place after
 * the previous one (leftmost is always safe when `*` is the only wildcard). Each piece is
 * searched with Knuth-Morris-Pratt, so the name is scanned once: no regular expression, no
 * backtracking, whatever the pattern (`********Q` against a long name included).
 */

/** KMP failure function of `piece`. */
function prefixTable(piece: string): Int32Array {
  const table = new Int32Array(piece.length);
  let k = 0;
  for (let i = 1; i < piece.length; i++) {
    while (k > 0 && piece[i] !== piece[k]) k = table[k - 1];
    if (piece[i] === piece[k]) k++;
    table[i] = k;
  }
  return table;
}

/** Index just past the first occurrence of `piece` in `text[from, to)`, or -1. */
function findAfter(text: string, piece: string, from: number, to: number): number {
  if (piece.length === 0) return from;
  const table = prefixTable(piece);
  let k = 0;
  for (let i = from; i < to; i++) {
    while (k > 0 && text[i] !== piece[k]) k = table[k - 1];
    if (text[i] === piece[k]) k++;
    if (k === piece.length) return i + 1;
  }
  return -1;
}

/** True when `name` matches `pattern` as a whole (`*` matches any run of characters, even none). */
export function globMatches(pattern: string, name: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === name;
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (first.length + last.length > name.length) return false;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  let pos = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    pos = findAfter(name, pieces[i], pos, end);
    if (pos < 0) return false;
  }
  return true;
}
