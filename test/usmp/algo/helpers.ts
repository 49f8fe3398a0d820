import { BufferInfo, BufferPlan, PoolInfo } from '../../../src/usmp/types';

export function pool(name: string, sizeHintBytes?: number, alignment = 1): PoolInfo {
  return { name, kind: 'workspace', targetAccess: { c: 'rw' }, sizeHintBytes, alignment, internal: true };
}

export interface Spec {
  size: number;
  conflicts?: string[];
  alignment?: number;
  pools?: PoolInfo[];
}

/** Buffers from a name -> spec table, in table order. */
export function buffers(specs: Record<string, Spec>, defaultPools: PoolInfo[] = [pool('global_workspace')]): BufferInfo[] {
  return Object.entries(specs).map(([name, s]) => ({
    name,
    sizeBytes: s.size,
    alignment: s.alignment ?? 1,
    poolCandidates: s.pools ?? defaultPools,
    conflicts: s.conflicts ?? [],
    kind: 'workspace' as const,
  }));
}

export function poolSize(bufs: readonly BufferInfo[], plan: BufferPlan, poolName: string): number {
  let max = 0;
  for (const b of bufs) {
    const a = plan.get(b.name)!;
    if (a.pool === poolName) max = Math.max(max, a.offset + b.sizeBytes);
  }
  return max;
}

export function offsets(plan: BufferPlan): Record<string, number> {
  return Object.fromEntries([...plan].map(([k, v]) => [k, v.offset]));
}
