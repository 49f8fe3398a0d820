/**
 * A pool too small, explained on one line: TVM's overflow message (kept verbatim so users
 * can search for it), then the buffer (bytes, tensor, allocating function, the operator
 * that writes it), each pool it was allowed with its limit and the bytes the plan would need
 * there (planned again without limits), and why every other pool was excluded.
 */
import { MemoryPlanningError, POOLS_EXHAUSTED } from '../errors';
import { PinningSolution } from '../../passes/poolPinning';
import { PlannedPool, PoolInfo } from '../usmp/types';
import { operatorLabel } from '../ir/tir/operators';

export { POOLS_EXHAUSTED };

function describeBuffer(
  name: string,
  pinning: PinningSolution | undefined,
  pools: readonly PoolInfo[],
): { text: string; excluded: string[] } {
  const decision = pinning?.decisions.find((d) => d.buffer.name === name);
  if (decision === undefined) return { text: '', excluded: [] };
  const b = decision.buffer;
  const writer = decision.steps.find((s) => s.role === 'output' && s.operator !== undefined)?.operator;
  const user = writer ?? decision.steps.find((s) => s.operator !== undefined)?.operator;
  const parts = [
    ...(b.sizeBytes !== undefined ? [`${b.sizeBytes} bytes`] : []),
    ...(b.tensor !== undefined ? [`tensor '${b.tensor}'`] : []),
    `allocated in ${b.func}`,
    ...(user !== undefined ? [`${user === writer ? 'written' : 'used'} by ${operatorLabel(user)} '${user.name}'`] : []),
    // Without operand records, the function that writes it (its name says the fused operator).
    ...(user === undefined ? decision.steps.filter((s) => s.kind === 'target-access' && s.description.startsWith('written by ')).slice(0, 1).map((s) => s.description) : []),
  ];
  const excluded = [...decision.removedBy].map(([pool, step]) => {
    if (step.kind !== 'pool-kind') return `${pool} (${step.description})`;
    const kind = pools.find((p) => p.name === pool)?.kind;
    return `${pool} (${kind !== undefined ? `a ${kind} pool` : 'wrong kind'}, the buffer needs ${step.description.replace(/s$/, '')})`;
  });
  return { text: ` (${parts.join(', ')})`, excluded };
}

/**
 * Runs `plan`; a pools-exhausted MemoryPlanningError comes out with the details above.
 * `planUnlimited` plans the same program with every size limit lifted (for the bytes needed).
 */
export function withPoolOverflowDetails<T>(
  pools: readonly PoolInfo[],
  pinning: PinningSolution | undefined,
  planUnlimited: (pools: PoolInfo[]) => readonly PlannedPool[],
  plan: () => T,
): T {
  try {
    return plan();
  } catch (e) {
    if (!(e instanceof MemoryPlanningError) || !e.message.startsWith(POOLS_EXHAUSTED)) throw e;
    const name = String(e.context.buffer ?? '');
    const buffer = describeBuffer(name, pinning, pools);
    const tried = String(e.context.pool ?? '')
      .split(',')
      .filter((n) => n !== '');
    let needed = new Map<string, number>();
    try {
      const unlimited = pools.map((p) => {
        const { sizeHintBytes: _limit, ...rest } = p;
        return rest as PoolInfo;
      });
      // The bytes its buffers reach, not the size rounded up to the alignment: a limit caps the
      // rounding, so a limit of 80 on a 64-aligned pool holds a plan ending at 80 (the message
      // said 128 while a limit of 80 compiled).
      needed = new Map(planUnlimited(unlimited).map((p) => [p.pool.name, p.usedBytes ?? p.sizeBytes]));
    } catch {
      // Without limits the plan fails for another reason: the limits are still worth showing.
    }
    const triedText = tried.map((n) => {
      const limit = pools.find((p) => p.name === n)?.sizeHintBytes;
      const need = needed.get(n);
      const limitText = limit !== undefined ? `limit ${limit} bytes` : 'no limit';
      return `${n} (${limitText}${need !== undefined && limit !== undefined && need > limit ? `, the plan needs ${need}` : ''})`;
    });
    const message =
      `${POOLS_EXHAUSTED}: ${name}${buffer.text}; ` +
      `allowed pools: ${triedText.join(', ') || 'none'}` +
      (buffer.excluded.length > 0 ? `; excluded: ${buffer.excluded.join('; ')}` : '') +
      (typeof e.context.shortfall === 'string' ? `; ${e.context.shortfall}` : '') +
      '; raise a limit (pools config) or allow another pool';
    throw new MemoryPlanningError(message, { ...e.context, buffer: name });
  }
}
