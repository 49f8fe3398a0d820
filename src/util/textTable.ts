/**
 * The text tables of the CLI and the memory report: columns two spaces apart, each padded to
 * its widest cell. Padding every row to the widest cell makes a table the rows times the longest
 * name: one buffer named with 200,000 characters in a 3,000-buffer set (a 419 KB file) asked
 * `uma-ts plan` for a 600 MB string, past V8's longest, which ended in a RangeError with its
 * stack; a model's tensor names reach `uma-ts inspect` and the memory report the same way. So a
 * table that would pass MAX_TABLE_CHARS padded lets its cells longer than MAX_PADDED_WIDTH
 * overflow their columns instead of widening them (the other rows line up as before). Below it
 * every table is as it was: real fused TFLite names run to a few hundred characters
 * (kws_ref_model's reach 270) and keep their columns aligned.
 */
import { maxOf } from './extrema';

export const MAX_PADDED_WIDTH = 80;
export const MAX_TABLE_CHARS = 16_000_000;

export interface TableStyle {
  /** Columns padded on the left (numbers), by index; the others on the right. */
  readonly alignRight?: (column: number) => boolean;
  /** A dashed line under the header, as wide as each column. */
  readonly rule?: boolean;
}

/** The header and the rows as lines, trailing spaces trimmed. */
export function tableLines(header: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = {}): string[] {
  const full = header.map((h, i) => maxOf(rows.map((r) => r[i].length), h.length));
  const paddedChars = (rows.length + 1) * full.reduce((sum, w) => sum + w + 2, 0);
  const capped = (cell: string) => (cell.length <= MAX_PADDED_WIDTH ? cell.length : 0);
  const widths = paddedChars <= MAX_TABLE_CHARS ? full : header.map((h, i) => maxOf(rows.map((r) => capped(r[i])), h.length));
  const right = style.alignRight ?? (() => false);
  const line = (cells: readonly string[]) => cells.map((c, i) => (right(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const lines = [line(header), ...rows.map(line)];
  if (style.rule) lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return lines;
}
