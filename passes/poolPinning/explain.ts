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

export function explainPools(solution: PinningSolution, pools: readonly PoolInfo[]): PoolExplanation[] {
  return solution.decisions.map((d) => ({
    buffer: d.buffer.name,
    func: d.buffer.func,
    ...(d.buffer.tensor ? { tensor: d.buffer.tensor } : {}),
    ...(d.buffer.sizeBytes !== undefined ? { sizeBytes: d.buffer.sizeBytes } : {}),
    targets: d.targets,
    candidates: d.candidates,
    removed: pools
      .filter((p) => !d.candidates.includes(p.name))
      .map((p) => ({ pool: p.name, by: d.removedBy.get(p.name)?.description ?? 'not preferred' })),
  }));
}

export function formatExplanation(rows: readonly PoolExplanation[], external: readonly string[] = []): string {
  const out: string[] = [];
  for (const r of rows) {
    const size = r.sizeBytes !== undefined ? ` ${r.sizeBytes} B` : '';
    const tensor = r.tensor ? ` (tensor ${r.tensor})` : '';
    const by = r.targets.length > 0 ? ` used by ${r.targets.join(', ')}` : ' not accessed by any operator';
    out.push(`${r.func}/${r.buffer}${tensor}${size}:${by}`);
    out.push(`  candidates: ${r.candidates.join(', ')}`);
    for (const x of r.removed) out.push(`  not ${x.pool}: ${x.by}`);
  }
  for (const e of external) out.push(`${e}: model I/O owned by the application (not planned)`);
  return out.join('\n');
}
