/**
 * Buffer sets: the input of `uma-ts plan` and of the planner benchmark.
 *  - Text: one buffer per line, `size first_use last_use` (inclusive operator indices), `#`
 *    starts a comment. Conflicts are the overlapping intervals; one unlimited pool.
 *  - JSON (schemas/buffer-set.schema.json): pools, buffers with candidate pools and conflicts by
 *    name, optional memoryPressure.
 *  - MiniMalloc's CSV (miniMallocCsv.ts): a header row, then id, lifespan and size per buffer.
 */
import { alignmentProblem, byteCountProblem } from '../config/numbers';
import { validateJsonDocument } from '../config/validateJson';
import { ConfigError } from '../errors';
import { asIntervalGroup, intervalsToBufferInfos, LiveInterval, lowerBoundOfBuffers, memoryPressureOfIntervals } from './conflicts';
import { IntervalConflicts } from './intervalConflicts';
import { looksLikeMiniMallocCsv, parseMiniMallocCsv } from './miniMallocCsv';
import { forEachLine } from './textLines';
import { BufferInfo, PoolInfo } from './types';
import { MAX_PLAN_BUFFERS, tooManyBuffers } from './bufferSetLimits';

export interface BufferSet {
  readonly format: 'intervals' | 'json' | 'csv';
  readonly pools: readonly PoolInfo[];
  readonly buffers: readonly BufferInfo[];
  /** Lower bound on the total bytes of any plan (given, or computed). */
  readonly memoryPressure: number;
  /** Whether memoryPressure came from the input (JSON `memoryPressure`) rather than our bound. */
  readonly memoryPressureGiven: boolean;
}

/** The single pool of a text buffer set. */
export const INTERVAL_POOL_NAME = 'global_workspace';

function makePool(name: string, sizeHintBytes?: number, alignment = 1): PoolInfo {
  return { name, kind: 'workspace', targetAccess: {}, sizeHintBytes, alignment, internal: true };
}

/** An input line as an error message quotes it: a line of a damaged file may be megabytes long. */
const QUOTED_LINE_CHARS = 80;
function quoted(line: string): string {
  return line.length <= QUOTED_LINE_CHARS ? `'${line}'` : `'${line.slice(0, QUOTED_LINE_CHARS)}...' (${line.length} characters)`;
}

export function parseIntervalText(text: string, file = '<input>'): BufferSet {
  const intervals: LiveInterval[] = [];
  forEachLine(text, (raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const where = `${file}:${i + 1}`;
    if (intervals.length === MAX_PLAN_BUFFERS) throw tooManyBuffers(where, { file, line: i + 1 });
    const fields = line.split(/\s+/);
    if (fields.length !== 3 || !fields.every((f) => /^\d+$/.test(f))) {
      throw new ConfigError(`${where}: expected 'size first_use last_use' (three non-negative integers), got ${quoted(line)}`, {
        file,
        line: i + 1,
      });
    }
    const [sizeBytes, firstUse, lastUse] = fields.map(Number);
    if (![sizeBytes, firstUse, lastUse].every(Number.isSafeInteger)) {
      throw new ConfigError(`${where}: number too large in ${quoted(line)}`, { file, line: i + 1 });
    }
    if (lastUse < firstUse) {
      throw new ConfigError(`${where}: last_use ${lastUse} is before first_use ${firstUse}`, { file, line: i + 1 });
    }
    intervals.push({ sizeBytes, firstUse, lastUse });
  });
  const pool = makePool(INTERVAL_POOL_NAME);
  return {
    format: 'intervals',
    pools: [pool],
    buffers: intervalsToBufferInfos(intervals, [pool]),
    memoryPressure: memoryPressureOfIntervals(intervals),
    memoryPressureGiven: false,
  };
}

interface JsonBufferSet {
  pools: { name: string; sizeHintBytes?: number; alignment?: number }[];
  buffers: {
    name: string;
    size: number;
    alignment?: number;
    candidatePools: string[];
    conflicts?: string[];
    liveRange?: [number, number];
  }[];
  memoryPressure?: number;
}

export function parseJsonBufferSet(data: unknown, file = '<input>'): BufferSet {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const got = data === null ? 'null' : Array.isArray(data) ? 'an array' : `a ${typeof data}`;
    throw new ConfigError(`${file}: a JSON buffer set is an object {"pools": [...], "buffers": [...]}, got ${got}`, { file });
  }
  const listed = (data as { buffers?: unknown }).buffers;
  if (Array.isArray(listed) && listed.length > MAX_PLAN_BUFFERS) throw tooManyBuffers(`${file}: /buffers`, { file, jsonPath: '/buffers' });
  const doc = validateJsonDocument<JsonBufferSet>(data, 'buffer-set.schema.json', file);
  const fail = (jsonPath: string, message: string): never => {
    throw new ConfigError(`${file}: ${jsonPath}: ${message}`, { file, jsonPath });
  };
  const pools = new Map<string, PoolInfo>();
  doc.pools.forEach((p, i) => {
    if (pools.has(p.name)) fail(`/pools/${i}/name`, `duplicate pool name '${p.name}'`);
    // Sizes and alignments the planners can use exactly (config/numbers), for API callers too.
    const align = p.alignment === undefined ? undefined : alignmentProblem(p.alignment);
    if (align !== undefined) fail(`/pools/${i}/alignment`, `pool '${p.name}' ${align}`);
    const limit = p.sizeHintBytes === undefined ? undefined : byteCountProblem(p.sizeHintBytes, 'size hint');
    if (limit !== undefined) fail(`/pools/${i}/sizeHintBytes`, `pool '${p.name}' ${limit}`);
    pools.set(p.name, makePool(p.name, p.sizeHintBytes, p.alignment ?? 1));
  });
  const indexOf = new Map<string, number>();
  doc.buffers.forEach((b, i) => {
    if (indexOf.has(b.name)) fail(`/buffers/${i}/name`, `duplicate buffer name '${b.name}'`);
    indexOf.set(b.name, i);
  });
  // Without any conflict list, the conflicts are the overlapping live ranges: every buffer then
  // needs one. A set that lists conflicts lists them for every buffer (TVM's directional lists
  // cannot be mixed with derived ones).
  const fromLiveRanges = doc.buffers.length > 0 && doc.buffers.every((b) => b.conflicts === undefined);
  doc.buffers.forEach((b, i) => {
    if (fromLiveRanges && b.liveRange === undefined) {
      fail(`/buffers/${i}`, `buffer '${b.name}' has neither conflicts nor a liveRange (without conflict lists, every buffer needs a liveRange)`);
    }
    if (!fromLiveRanges && b.conflicts === undefined) {
      fail(`/buffers/${i}`, `buffer '${b.name}' has no conflicts list (omit conflicts on every buffer, with a liveRange on each, or list them on every buffer)`);
    }
  });
  // Each listed conflict as a buffer index: looked up once, for the check and for the lists'
  // comparison with the live ranges below.
  const listedIndices: Int32Array[] = [];
  const buffers = doc.buffers.map((b, i): BufferInfo => {
    const candidates = b.candidatePools.map(
      (name, k) => pools.get(name) ?? fail(`/buffers/${i}/candidatePools/${k}`, `unknown pool '${name}'`),
    );
    if (b.conflicts) {
      const listed = new Int32Array(b.conflicts.length);
      b.conflicts.forEach((c, k) => {
        listed[k] = indexOf.get(c) ?? fail(`/buffers/${i}/conflicts/${k}`, `unknown buffer '${c}'`);
      });
      listedIndices.push(listed);
    }
    const sizeProblem = byteCountProblem(b.size);
    if (sizeProblem !== undefined) fail(`/buffers/${i}/size`, `buffer '${b.name}' ${sizeProblem}`);
    const alignProblem = b.alignment === undefined ? undefined : alignmentProblem(b.alignment);
    if (alignProblem !== undefined) fail(`/buffers/${i}/alignment`, `buffer '${b.name}' ${alignProblem}`);
    b.liveRange?.forEach((t, k) => {
      if (!Number.isSafeInteger(t) || t < 0) {
        fail(`/buffers/${i}/liveRange/${k}`, `buffer '${b.name}' ${k === 0 ? 'first' : 'last'} use ${t} is not an integer in 0..2^53-1`);
      }
    });
    if (b.liveRange && b.liveRange[1] < b.liveRange[0]) {
      fail(`/buffers/${i}/liveRange`, `last ${b.liveRange[1]} is before first ${b.liveRange[0]}`);
    }
    return {
      name: b.name,
      sizeBytes: b.size,
      alignment: b.alignment ?? Math.max(...candidates.map((p) => p.alignment)),
      poolCandidates: candidates,
      conflicts: b.conflicts ?? [],
      kind: 'workspace',
      liveRange: b.liveRange,
    };
  });
  // Conflicts that are the overlapping ranges (by omission, or listed exactly): the planners and
  // the verifier then work from the ranges (a sweep line), and no list is built unless read.
  const planned = fromLiveRanges || listsAreLiveRangeOverlaps(buffers, listedIndices) ? asIntervalGroup(buffers) : buffers;
  if (doc.memoryPressure !== undefined) {
    const pressureProblem = byteCountProblem(doc.memoryPressure, 'memoryPressure');
    if (pressureProblem !== undefined) fail('/memoryPressure', pressureProblem);
  }
  return {
    format: 'json',
    pools: [...pools.values()],
    buffers: planned,
    memoryPressure: doc.memoryPressure ?? lowerBoundOfBuffers(planned),
    memoryPressureGiven: doc.memoryPressure !== undefined,
  };
}

/**
 * Whether every buffer has a live range and lists exactly the buffers whose ranges overlap its
 * own (each once, itself never): such lists say nothing the ranges do not, and the set can be
 * planned as an interval group. Lists that differ anywhere (a pair missing or extra, one way
 * only, repeated) keep their own meaning. `listed`: each buffer's list as buffer indices.
 */
function listsAreLiveRangeOverlaps(buffers: readonly BufferInfo[], listed: readonly Int32Array[]): boolean {
  if (buffers.length === 0 || buffers.some((b) => b.liveRange === undefined)) return false;
  const overlaps = new IntervalConflicts(
    Float64Array.from(buffers, (b) => b.liveRange![0]),
    Float64Array.from(buffers, (b) => b.liveRange![1]),
  );
  let entries = 0;
  for (const list of listed) entries += list.length;
  if (overlaps.entryCount() !== entries) return false;
  const { start, adj } = overlaps.adjacency();
  // A list of the row's length whose entries are all in the row, none twice, is the row: each
  // row is marked (its entries' stamp set to i + 1), each listed entry must carry the mark and
  // takes it off. No per-row sort.
  const stamp = new Int32Array(buffers.length);
  for (let i = 0; i < buffers.length; i++) {
    const list = listed[i];
    if (list.length !== start[i + 1] - start[i]) return false;
    for (let ai = start[i]; ai < start[i + 1]; ai++) stamp[adj[ai]] = i + 1;
    for (let k = 0; k < list.length; k++) {
      const j = list[k];
      if (stamp[j] !== i + 1) return false;
      stamp[j] = 0;
    }
  }
  return true;
}

/**
 * MiniMalloc's CSV when the first non-blank line holds a comma and a letter and is not JSON, as
 * a header does (no interval line does; looksLikeMiniMallocCsv), JSON when the first non-blank
 * character is `{` or `[` (no interval line starts so; an array is then reported as the wrong
 * JSON type, not as a bad interval), the interval text format otherwise.
 */
export function parseBufferSet(text: string, file = '<input>'): BufferSet {
  if (looksLikeMiniMallocCsv(text)) {
    const pool = makePool(INTERVAL_POOL_NAME);
    const { buffers, memoryPressure } = parseMiniMallocCsv(text, file, pool);
    return { format: 'csv', pools: [pool], buffers, memoryPressure, memoryPressureGiven: false };
  }
  if (/^\s*[{[]/.test(text)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`${file}: not valid JSON: ${(e as Error).message}`, { file });
    }
    return parseJsonBufferSet(data, file);
  }
  return parseIntervalText(text, file);
}
