/**
 * The memory report users compare with Vela's summary ("Allocation Peak Tensor Size /
 * Peak Memory Usage / Overhead"): per pool its size, limit, use and lower bound; per buffer
 * its placement, live range and owner; for the workspace as a whole the plan's own lower
 * bound beside the model's tensor-level one (what TFLite Micro's arena planner counts), so
 * operator scratch such as a padded copy shows as overhead instead of hiding in the bound.
 */
import { PlanOptimality, planOptimality, TIME_CAP_NOTE } from '../usmp/optimality';
import { tableLines } from '../util/textTable';
import { TensorLowerBound } from '../ir/graph/liveness';
import { alignedPeakOfBuffers, alignmentIn, roundUpTo, stackHeightBound } from '../usmp/stackBound';
import { BufferInfo, BufferPlan, PlannedPool, UsmpResult } from '../usmp/types';

export interface PoolReport {
  readonly name: string;
  readonly kind: 'workspace' | 'constant';
  readonly sizeBytes: number;
  readonly limitBytes: number | null;
  /** sizeBytes / limitBytes in percent; null for unlimited pools. */
  readonly usePercent: number | null;
  /**
   * Max over time of the bytes live in this pool, with the alignment padding between them that
   * no plan avoids: no plan can use less.
   */
  readonly lowerBoundBytes: number;
  readonly overheadPercent: number;
  readonly bufferCount: number;
  readonly targets: readonly string[];
}

export interface BufferReport {
  readonly name: string;
  readonly pool: string;
  readonly offset: number;
  readonly sizeBytes: number;
  readonly liveRange: readonly [number, number] | null;
  readonly func: string | null;
  readonly target: string | null;
}

/** All workspace pools together, against both lower bounds. */
export interface WorkspaceSummary {
  readonly sizeBytes: number;
  /** Sum of the workspace pools' `lowerBoundBytes` (peak live bytes of the planned buffers). */
  readonly planLowerBoundBytes: number;
  readonly planOverheadPercent: number;
  /** The model's tensor-level lower bound (`tensorLowerBound`); null when not computed. */
  readonly tensorLowerBoundBytes: number | null;
  readonly tensorOverheadPercent: number | null;
  /** Operator where the tensor-level bound is reached. */
  readonly peakOperator: string | null;
  /** Whether model inputs/outputs are in the workspace (and so in the tensor-level bound). */
  readonly ioCounted: boolean | null;
}

export interface MemoryReport {
  readonly model: string;
  readonly algorithm: string;
  readonly pools: readonly PoolReport[];
  readonly buffers: readonly BufferReport[];
  readonly unplanned: readonly { readonly func: string; readonly name: string; readonly reason: string }[];
  /** Constants that use the bytes of an identical planned one (`sameAs`); absent when none. */
  readonly sharedConstants?: readonly { readonly name: string; readonly sameAs: string; readonly sizeBytes: number }[];
  readonly totalBytes: number;
  readonly totalLowerBoundBytes: number;
  /** Whether the plan's total is proven optimal, else the gap to the best proven bound. */
  readonly optimality: PlanOptimality;
  /** Decisions the compiler took on its own that the user may want to know (e.g. an ignored pool preference). */
  readonly notes?: readonly string[];
  /** What the compile warned about though it succeeded (the CLI's `warning:` lines), e.g. accesses that will fault without pool pinning. */
  readonly warnings?: readonly string[];
  readonly workspace: WorkspaceSummary;
}

/** Peak of live bytes over time among `buffers`; buffers without a range count as always live. */
export function peakLiveBytes(buffers: readonly BufferInfo[]): number {
  const events: [number, number][] = [];
  let always = 0;
  for (const b of buffers) {
    if (!b.liveRange) {
      always += b.sizeBytes;
      continue;
    }
    events.push([b.liveRange[0], b.sizeBytes], [b.liveRange[1] + 1, -b.sizeBytes]);
  }
  // Frees at a step happen before allocations at the same step (ranges are inclusive).
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let live = 0;
  let peak = 0;
  for (const [, delta] of events) {
    live += delta;
    peak = Math.max(peak, live);
  }
  return peak + always;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function overhead(size: number, bound: number): number {
  return bound > 0 ? round2((100 * (size - bound)) / bound) : 0;
}

function workspaceSummary(pools: readonly PoolReport[], bound: TensorLowerBound | undefined): WorkspaceSummary {
  const ws = pools.filter((p) => p.kind === 'workspace');
  const sizeBytes = ws.reduce((s, p) => s + p.sizeBytes, 0);
  const planLowerBoundBytes = ws.reduce((s, p) => s + p.lowerBoundBytes, 0);
  return {
    sizeBytes,
    planLowerBoundBytes,
    planOverheadPercent: overhead(sizeBytes, planLowerBoundBytes),
    tensorLowerBoundBytes: bound?.bytes ?? null,
    tensorOverheadPercent: bound ? overhead(sizeBytes, bound.bytes) : null,
    peakOperator: bound?.operator ?? null,
    ioCounted: bound?.ioCounted ?? null,
  };
}

/** `tensorBound`: the model's tensor-level lower bound, for the workspace summary. */
export function buildMemoryReport(model: string, result: UsmpResult, tensorBound?: TensorLowerBound): MemoryReport {
  const plan: BufferPlan = result.plan;
  const byPool = new Map<string, BufferInfo[]>();
  for (const b of result.buffers) {
    const a = plan.get(b.name);
    if (!a) continue;
    const list = byPool.get(a.pool) ?? [];
    list.push(b);
    byPool.set(a.pool, list);
  }
  const pools = result.pools.map((p: PlannedPool): PoolReport => {
    const placed = byPool.get(p.pool.name) ?? [];
    // With the alignment padding no plan avoids (stackBound.ts); constants are all live at once.
    const inPool = (b: BufferInfo) => alignmentIn(b, p.pool);
    const peak =
      p.pool.kind === 'constant'
        ? stackHeightBound(
            placed.map((b) => b.sizeBytes),
            placed.map(inPool),
          )
        : alignedPeakOfBuffers(placed, 1, inPool);
    // A pool's size is its end rounded up to the pool's alignment, within its size hint.
    const lowerBound = Math.min(roundUpTo(peak, Math.max(1, p.pool.alignment || 1)), p.pool.sizeHintBytes ?? Infinity);
    const limit = p.pool.sizeHintBytes ?? null;
    return {
      name: p.pool.name,
      kind: p.pool.kind,
      sizeBytes: p.sizeBytes,
      limitBytes: limit,
      usePercent: limit ? round2((100 * p.sizeBytes) / limit) : null,
      lowerBoundBytes: lowerBound,
      overheadPercent: overhead(p.sizeBytes, lowerBound),
      bufferCount: placed.length,
      targets: Object.keys(p.pool.targetAccess),
    };
  });
  const totalBytes = pools.reduce((s, p) => s + p.sizeBytes, 0);
  const buffers = result.buffers
    .filter((b) => plan.has(b.name))
    .map((b): BufferReport => {
      const a = plan.get(b.name)!;
      return {
        name: b.name,
        pool: a.pool,
        offset: a.offset,
        sizeBytes: b.sizeBytes,
        liveRange: b.liveRange ? [b.liveRange[0], b.liveRange[1]] : null,
        func: b.func ?? null,
        target: b.target ?? null,
      };
    })
    .sort((x, y) => x.pool.localeCompare(y.pool) || x.offset - y.offset || x.name.localeCompare(y.name));
  const sizeOf = new Map(result.buffers.map((b) => [b.name, b.sizeBytes] as const));
  const sharedConstants = [...(result.sameAs ?? [])].map(([name, sameAs]) => ({ name, sameAs, sizeBytes: sizeOf.get(sameAs)! }));
  return {
    model,
    algorithm: result.algorithm,
    pools,
    buffers,
    unplanned: result.unplanned.map((u) => ({ func: u.func, name: u.name, reason: u.reason })),
    ...(sharedConstants.length > 0 ? { sharedConstants } : {}),
    totalBytes,
    totalLowerBoundBytes: pools.reduce((s, p) => s + p.lowerBoundBytes, 0),
    workspace: workspaceSummary(pools, tensorBound),
    optimality: result.optimality ?? planOptimality(plan, totalBytes, result.memoryPressure),
  };
}

/** Pool names left-aligned, the numbers right-aligned, a dashed rule under the header. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return tableLines(header, rows, { alignRight: (column) => column > 0, rule: true }).join('\n');
}

/**
 * One line: proven optimal, or the gap left to the best proven lower bound; and when the
 * planner's clock cut in, that the plan depends on the machine's speed.
 */
export function optimalityLine(o: PlanOptimality): string {
  const line = o.provenOptimal
    ? 'Optimality: proven optimal'
    : `Optimality: not proven; at most ${o.gapBytes} bytes (${o.gapPercent.toFixed(2)}%) above the optimum (proven lower bound ${o.lowerBoundBytes})`;
  return o.timeCapReached ? `${line}; ${TIME_CAP_NOTE}` : line;
}

export function formatMemoryReport(r: MemoryReport, options: { buffers?: boolean } = {}): string {
  const out: string[] = [`Memory plan for ${r.model} (algorithm ${r.algorithm})`, ''];
  out.push(
    table(
      ['pool', 'kind', 'size', 'limit', 'use %', 'lower bound', 'overhead %', 'buffers'],
      r.pools.map((p) => [
        p.name,
        p.kind,
        String(p.sizeBytes),
        p.limitBytes === null ? 'unlimited' : String(p.limitBytes),
        p.usePercent === null ? '-' : p.usePercent.toFixed(2),
        String(p.lowerBoundBytes),
        p.overheadPercent.toFixed(2),
        String(p.bufferCount),
      ]),
    ),
  );
  out.push('', `Total: ${r.totalBytes} bytes (lower bound ${r.totalLowerBoundBytes})`, optimalityLine(r.optimality));
  const w = r.workspace;
  if (w.tensorLowerBoundBytes !== null) {
    out.push(
      `Workspace: ${w.sizeBytes} bytes; plan lower bound ${w.planLowerBoundBytes} (overhead ${w.planOverheadPercent.toFixed(2)}%); ` +
        `tensor-level lower bound ${w.tensorLowerBoundBytes}, model I/O ${w.ioCounted ? '' : 'not '}counted (overhead ${(w.tensorOverheadPercent ?? 0).toFixed(2)}%)`,
    );
  }
  const shared = r.sharedConstants ?? [];
  if (shared.length > 0) {
    const bytes = shared.reduce((sum, c) => sum + c.sizeBytes, 0);
    out.push(`Shared constants: ${shared.length} constant(s) use the bytes of an identical planned one (${bytes} bytes not repeated; listed in report.json)`);
  }
  if (options.buffers !== false && r.buffers.length > 0) {
    out.push(
      '',
      table(
        ['buffer', 'pool', 'offset', 'size', 'live', 'owner'],
        r.buffers.map((b) => [
          b.name,
          b.pool,
          String(b.offset),
          String(b.sizeBytes),
          b.liveRange ? `${b.liveRange[0]}..${b.liveRange[1]}` : '-',
          b.func ? `${b.func}${b.target ? ` (${b.target})` : ''}` : '-',
        ]),
      ),
    );
  }
  if (r.unplanned.length > 0) {
    out.push('', 'Not planned:');
    for (const u of r.unplanned) out.push(`  ${u.func}/${u.name}: ${u.reason}`);
  }
  return out.join('\n');
}
