/**
 * Independent check of a memory plan. Planners are clever; this is deliberately simple
 * (every conflict pair is compared directly), so a plan that passes is safe to emit.
 * A failure is a planner bug: the error names the buffers, pool and offsets involved.
 *
 * Conflict lists are directional, as in TVM: a buffer's list says which already-placed buffers
 * it must clear. Extraction always lists a pair both ways, and such mutual pairs must never
 * overlap. A pair listed one way only (hand-written buffer sets, TVM's own tests) binds only in
 * placement order, which a finished plan does not record, so it is not checked here; a buffer
 * listing itself is ignored.
 */
import { PlanVerificationError } from '../errors';
import { BufferInfo, BufferPlan, PoolInfo } from './types';

function limitOf(pool: PoolInfo): number {
  return pool.sizeHintBytes === undefined || pool.sizeHintBytes < 0 ? Infinity : pool.sizeHintBytes;
}

/**
 * Throws PlanVerificationError unless: every buffer is placed, in one of its candidate pools,
 * at a non-negative offset that is a multiple of its alignment, within the pool's size hint,
 * and no two mutually conflicting buffers overlap in one pool.
 * `pools` overrides the PoolInfo used for size hints (by name); otherwise each buffer's
 * candidate PoolInfo is used.
 */
export function verifyPlan(buffers: readonly BufferInfo[], plan: BufferPlan, pools?: readonly PoolInfo[]): void {
  const byName = new Map<string, BufferInfo>();
  for (const b of buffers) byName.set(b.name, b);
  for (const name of plan.keys()) {
    if (!byName.has(name)) {
      throw new PlanVerificationError(`plan places '${name}', which is not one of the planned buffers`, {
        buffer: name,
      });
    }
  }
  const poolOverride = new Map((pools ?? []).map((p) => [p.name, p] as const));

  for (const b of buffers) {
    const a = plan.get(b.name);
    if (!a) throw new PlanVerificationError(`buffer '${b.name}' was not placed by the planner`, { buffer: b.name });
    const candidate = b.poolCandidates.find((p) => p.name === a.pool);
    if (!candidate) {
      throw new PlanVerificationError(
        `buffer '${b.name}' placed in pool '${a.pool}', which is not one of its candidates ` +
          `(${b.poolCandidates.map((p) => p.name).join(', ')})`,
        { buffer: b.name, pool: a.pool },
      );
    }
    if (!Number.isSafeInteger(a.offset) || a.offset < 0) {
      throw new PlanVerificationError(`buffer '${b.name}' has invalid offset ${a.offset} in pool '${a.pool}'`, {
        buffer: b.name,
        pool: a.pool,
      });
    }
    if (a.offset % b.alignment !== 0) {
      throw new PlanVerificationError(
        `buffer '${b.name}' at offset ${a.offset} in pool '${a.pool}' is not aligned to ${b.alignment} bytes`,
        { buffer: b.name, pool: a.pool },
      );
    }
    const limit = limitOf(poolOverride.get(a.pool) ?? candidate);
    if (a.offset + b.sizeBytes > limit) {
      throw new PlanVerificationError(
        `buffer '${b.name}' at offset ${a.offset} (${b.sizeBytes} bytes) ends at ${a.offset + b.sizeBytes}, ` +
          `beyond the ${limit}-byte size hint of pool '${a.pool}'`,
        { buffer: b.name, pool: a.pool },
      );
    }
  }

  const listed = new Map(buffers.map((b) => [b.name, new Set(b.conflicts)] as const));
  for (const b of buffers) {
    const a = plan.get(b.name)!;
    for (const other of b.conflicts) {
      const o = byName.get(other);
      if (!o) {
        throw new PlanVerificationError(`buffer '${b.name}' lists unknown conflict '${other}'`, { buffer: b.name });
      }
      if (other === b.name || !listed.get(other)!.has(b.name)) continue;
      const oa = plan.get(other)!;
      if (oa.pool !== a.pool) continue;
      if (a.offset < oa.offset + o.sizeBytes && oa.offset < a.offset + b.sizeBytes) {
        throw new PlanVerificationError(
          `conflicting buffers overlap in pool '${a.pool}': '${b.name}' [${a.offset}, ${a.offset + b.sizeBytes}) ` +
            `and '${other}' [${oa.offset}, ${oa.offset + o.sizeBytes})`,
          { buffer: b.name, pool: a.pool, other },
        );
      }
    }
  }
}

/** Size of each pool a plan uses: the highest end offset of the buffers placed in it. */
export function poolSizesOfPlan(buffers: readonly BufferInfo[], plan: BufferPlan): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const b of buffers) {
    const a = plan.get(b.name);
    if (!a) continue;
    sizes.set(a.pool, Math.max(sizes.get(a.pool) ?? 0, a.offset + b.sizeBytes));
  }
  return sizes;
}

/** Conflicts listed in one direction only, as `a -> b` (a lists b, b does not list a). */
export function oneWayConflicts(buffers: readonly BufferInfo[]): string[] {
  const listed = new Map(buffers.map((b) => [b.name, new Set(b.conflicts)] as const));
  const out: string[] = [];
  for (const b of buffers) {
    for (const other of new Set(b.conflicts)) {
      if (other !== b.name && listed.has(other) && !listed.get(other)!.has(b.name)) out.push(`${b.name} -> ${other}`);
    }
  }
  return out;
}
