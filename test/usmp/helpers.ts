/**
 * Shared fixtures for the USMP bridge tests: hand-built TIR and a tiny first-fit planner,
 * so these tests do not depend on the algorithm registry.
 */
import {
  add,
  allocate,
  bufferLoad,
  bufferStore,
  callExtern,
  evaluate,
  forLoop,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
} from '../../src/ir/tir/builder';
import { PrimFunc, ScalarDType, Stmt, Var } from '../../src/ir/tir/nodes';
import { BufferInfo, BufferPlan, PoolAllocation } from '../../src/usmp/types';

/** A PrimFunc with one N-d buffer per param, params in the given order. */
export function funcWithBuffers(
  params: ReadonlyArray<readonly [string, ScalarDType, number]>,
  body: (bufs: ReturnType<typeof makeBuffer>[]) => Stmt,
  attrs: PrimFunc['attrs'] = {},
): PrimFunc {
  const vars = params.map(([n, dt]) => makeVar(n, 'handle', dt));
  const bufs = params.map(([n, dt, len]) => makeBuffer(`${n}_buf`, dt, [len], makeVar(`${n}_data`, 'handle', dt)));
  return primFunc({ params: vars, bufferMap: vars.map((v, i) => [v, bufs[i]] as const), body: body(bufs), attrs });
}

/** `for i < n: out[i] = in[i] + k` as an operator PrimFunc (in, out). */
export function addConstFunc(n: number, k: number, dtype: ScalarDType = 'int8', attrs: PrimFunc['attrs'] = {}): PrimFunc {
  return funcWithBuffers(
    [
      ['in', dtype, n],
      ['out', dtype, n],
    ],
    ([a, b]) => {
      const i = makeVar('i');
      return forLoop(i, 0, n, bufferStore(b, add(bufferLoad(a, [i]), k), [i]));
    },
    attrs,
  );
}

/** `allocate tmp[n]; tmp[j] = in[j] (loop); out[k] = tmp[k] (loop)`: a function with scratch. */
export function copyViaScratchFunc(n: number, attrs: PrimFunc['attrs'] = {}): PrimFunc {
  return funcWithBuffers(
    [
      ['in', 'int8', n],
      ['out', 'int8', n],
    ],
    ([a, b]) => {
      const tmpVar = makeVar('tmp', 'handle', 'int8');
      const tmp = makeBuffer('tmp', 'int8', [n], tmpVar);
      const j = makeVar('j');
      const k = makeVar('k');
      return allocate({
        bufferVar: tmpVar,
        dtype: 'int8',
        extents: [n],
        body: seq([
          forLoop(j, 0, n, bufferStore(tmp, bufferLoad(a, [j]), [j])),
          forLoop(k, 0, n, bufferStore(b, bufferLoad(tmp, [k]), [k])),
        ]),
      });
    },
    attrs,
  );
}

export function callStmt(name: string, args: readonly Var[]): Stmt {
  return evaluate(callExtern(name, args));
}

function alignUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/**
 * First-fit over each buffer's candidate pools in order, honouring conflicts (both
 * directions), alignment and size hints. Throws when a buffer fits nowhere.
 */
export function firstFitPlanner(buffers: readonly BufferInfo[]): BufferPlan {
  const plan = new Map<string, PoolAllocation>();
  const byName = new Map(buffers.map((b) => [b.name, b]));
  for (const b of buffers) {
    const conflicting = new Set(b.conflicts);
    for (const o of buffers) if (o.conflicts.includes(b.name)) conflicting.add(o.name);
    let placed = false;
    for (const pool of b.poolCandidates) {
      const taken = [...conflicting]
        .map((n) => [plan.get(n), byName.get(n)!] as const)
        .filter(([a]) => a !== undefined && a.pool === pool.name)
        .map(([a, o]) => [a!.offset, a!.offset + o.sizeBytes] as const)
        .sort((x, y) => x[0] - y[0]);
      let offset = 0;
      for (const [s, e] of taken) {
        if (offset + b.sizeBytes <= s) break;
        offset = Math.max(offset, alignUp(e, b.alignment));
      }
      if (pool.sizeHintBytes !== undefined && offset + b.sizeBytes > pool.sizeHintBytes) continue;
      plan.set(b.name, { pool: pool.name, offset });
      placed = true;
      break;
    }
    if (!placed) throw new Error(`test planner: ${b.name} fits nowhere`);
  }
  return plan;
}
