/**
 * The `explain-pools` view: for each buffer, its candidate pools and, for every other pool,
 * the constraint that removed it.
 */
import { PoolInfo } from '../../src/usmp/types';
import { PinningSolution } from './solve';

export interface PoolExplanation {
  readonly buffer: string;
  readonly func: string;
  readonly tensor?: string;
  readonly sizeBytes?: number;
  readonly targets: readonly string[];
  readonly candidates: readonly string[];
  readonly removed: readonly { readonly pool: string; readonly by: string }[];
}

/**
 * A pool whose size limit is below the buffer's size can never hold it, whatever the plan:
 * it is shown as removed by its limit, as the planner would find.
 */
function tooSmall(pool: PoolInfo, sizeBytes: number | undefined): string | undefined {
  if (sizeBytes === undefined || pool.sizeHintBytes === undefined || sizeBytes <= pool.sizeHintBytes) return undefined;
  return `size limit ${pool.sizeHintBytes} B is below the buffer's ${sizeBytes} B`;
}

export function explainPools(solution: PinningSolution, pools: readonly PoolInfo[]): PoolExplanation[] {
  return solution.decisions.map((d) => {
    const size = d.buffer.sizeBytes;
    const byLimit = new Map<string, string>();
    for (const name of d.candidates) {
      const pool = pools.find((p) => p.name === name);
      const why = pool && tooSmall(pool, size);
      if (why !== undefined) byLimit.set(name, why);
    }
    return {
      buffer: d.buffer.name,
      func: d.buffer.func,
      ...(d.buffer.tensor ? { tensor: d.buffer.tensor } : {}),
      ...(size !== undefined ? { sizeBytes: size } : {}),
      targets: d.targets,
      candidates: d.candidates.filter((n) => !byLimit.has(n)),
      removed: pools
        .filter((p) => !d.candidates.includes(p.name) || byLimit.has(p.name))
        .map((p) => ({ pool: p.name, by: byLimit.get(p.name) ?? d.removedBy.get(p.name)?.description ?? 'not preferred' })),
    };
  });
}

export function formatExplanation(rows: readonly PoolExplanation[], external: readonly string[] = []): string {
  const out: string[] = [];
  for (const r of rows) {
    const size = r.sizeBytes !== undefined ? ` ${r.sizeBytes} B` : '';
    const tensor = r.tensor ? ` (tensor ${r.tensor})` : '';
    const by = r.targets.length > 0 ? ` used by ${r.targets.join(', ')}` : ' not accessed by any operator';
    out.push(`${r.func}/${r.buffer}${tensor}${size}:${by}`);
    out.push(`  candidates: ${r.candidates.join(', ') || 'none (the compile fails: no allowed pool can hold it)'}`);
    for (const x of r.removed) out.push(`  not ${x.pool}: ${x.by}`);
  }
  for (const e of external) out.push(`${e}: model I/O owned by the application (not planned)`);
  return out.join('\n');
}
