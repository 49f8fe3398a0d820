/**
 * MiniMalloc's CSV buffer sets (github.com/google/minimalloc, its converter's columns), so that
 * its benchmark sets and its users' files plan as they are:
 *  - a header row names the columns, in any order: the buffer (`id`, `buffer` or `buffer_id`),
 *    its start (`lower`, `start` or `begin`), its end (`upper`, exclusive, or `end`, inclusive,
 *    as MiniMalloc reads them), `size`, and optionally `alignment` and `offset` (a solution's
 *    column, ignored here);
 *  - `gaps` (times inside a lifespan when a buffer is not live, or only partly) cannot be
 *    represented by a live range: a non-empty one is an error rather than a plan that keeps the
 *    buffer live throughout and calls itself optimal.
 * The buffers share one unlimited pool, as in the interval text format; conflicts are the
 * overlapping lifespans.
 */
import { alignmentProblem, byteCountProblem } from '../config/numbers';
import { ConfigError } from '../errors';
import { intervalsToBufferInfos, LiveInterval, lowerBoundOfBuffers } from './conflicts';
import { PoolInfo } from './types';
import { MAX_PLAN_BUFFERS, tooManyBuffers } from './bufferSetLimits';
import { firstNonBlankLine, forEachLine } from './textLines';

type Column = 'id' | 'lower' | 'upper' | 'end' | 'size' | 'alignment' | 'offset' | 'gaps';

const COLUMN_NAMES: Readonly<Record<string, Column>> = {
  id: 'id',
  buffer: 'id',
  buffer_id: 'id',
  lower: 'lower',
  start: 'lower',
  begin: 'lower',
  upper: 'upper',
  end: 'end',
  size: 'size',
  alignment: 'alignment',
  offset: 'offset',
  gaps: 'gaps',
};

/**
 * Whether `text` looks like a MiniMalloc CSV: its first non-blank line (a `#` comment left out)
 * holds a comma and a letter, as a header does, and is not JSON. No interval line does (three
 * integers apart by blanks), so a damaged header (a trailing comma, a spreadsheet's unnamed
 * index column, quoted or spaced names) is still read as the CSV it was meant to be, and its
 * error names the column, where the interval parser said "expected 'size first_use last_use'"
 * of a file that never was one. A line of numbers with commas ("16, 0, 1") has no letter: it
 * stays an interval line, and its error says what an interval line is.
 */
export function looksLikeMiniMallocCsv(text: string): boolean {
  const first = firstNonBlankLine(text)?.line.replace(/#.*/, '').trim();
  return first !== undefined && !/^[{[]/.test(first) && first.includes(',') && /[A-Za-z_]/.test(first);
}

export interface CsvBufferSet {
  readonly buffers: ReturnType<typeof intervalsToBufferInfos>;
  readonly memoryPressure: number;
}

export function parseMiniMallocCsv(text: string, file: string, pool: PoolInfo): CsvBufferSet {
  const fail = (line: number, message: string): never => {
    throw new ConfigError(`${file}:${line + 1}: ${message}`, { file, line: line + 1 });
  };
  // Called only on text whose first non-blank line is a header (looksLikeMiniMallocCsv).
  const { line: headerLine, index: headerAt } = firstNonBlankLine(text)!;
  const header = headerLine.split(',').map((c) => c.trim());
  const columnAt = new Map<Column, number>();
  header.forEach((name, k) => {
    if (name === '') fail(headerAt, `column ${k + 1} of the header has no name (a trailing comma, or a spreadsheet's unnamed index column?)`);
    // An own property only: a column named 'constructor' or '__proto__' is unknown, not Object's.
    const column =
      (Object.prototype.hasOwnProperty.call(COLUMN_NAMES, name) ? COLUMN_NAMES[name] : undefined) ??
      fail(headerAt, `unknown column '${name}' (MiniMalloc's columns: ${Object.keys(COLUMN_NAMES).join(', ')})`);
    const kind = column === 'end' ? 'upper' : column;
    if ([...columnAt.keys()].some((c) => (c === 'end' ? 'upper' : c) === kind)) fail(headerAt, `column '${name}' repeats another column's meaning`);
    columnAt.set(column, k);
  });
  for (const required of ['id', 'lower', 'size'] as const) {
    if (!columnAt.has(required)) fail(headerAt, `no '${required}' column (the header needs id, lower/start, upper/end and size)`);
  }
  if (!columnAt.has('upper') && !columnAt.has('end')) fail(headerAt, `no 'upper' or 'end' column`);
  const endInclusive = columnAt.has('end');
  const intervals: LiveInterval[] = [];
  const names = new Set<string>();
  forEachLine(text, (row, i) => {
    if (i <= headerAt || row.trim() === '') return;
    if (intervals.length === MAX_PLAN_BUFFERS) throw tooManyBuffers(`${file}:${i + 1}`, { file, line: i + 1 });
    const fields = row.split(',').map((f) => f.trim());
    if (fields.length !== header.length) fail(i, `${fields.length} fields, the header has ${header.length}`);
    const field = (c: Column) => fields[columnAt.get(c)!];
    const integer = (c: Column, what: string): number => {
      const raw = field(c);
      if (!/^\d+$/.test(raw)) fail(i, `${what} '${raw.slice(0, 40)}' is not a non-negative integer`);
      const problem = byteCountProblem(Number(raw), what);
      return problem === undefined ? Number(raw) : fail(i, problem);
    };
    const name = field('id');
    if (name === '') fail(i, 'empty buffer id');
    if (names.has(name)) fail(i, `duplicate buffer id '${name}'`);
    names.add(name);
    if (columnAt.has('gaps') && field('gaps') !== '') fail(i, `buffer '${name}' has gaps, which uma-ts cannot represent (a live range has none)`);
    const lower = integer('lower', 'start');
    const upper = endInclusive ? integer('end', 'end') + 1 : integer('upper', 'upper');
    if (upper <= lower) fail(i, `buffer '${name}' has an empty lifespan [${lower}, ${upper})`);
    const sizeBytes = integer('size', 'size');
    let alignment: number | undefined;
    if (columnAt.has('alignment')) {
      alignment = integer('alignment', 'alignment');
      const problem = alignmentProblem(alignment);
      if (problem !== undefined) fail(i, `buffer '${name}' ${problem}`);
    }
    intervals.push({ name, sizeBytes, firstUse: lower, lastUse: upper - 1, alignment });
  });
  const buffers = intervalsToBufferInfos(intervals, [pool]);
  return { buffers, memoryPressure: lowerBoundOfBuffers(buffers) };
}
