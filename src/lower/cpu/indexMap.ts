/**
 * Data-movement strategies as one loop nest over the output: each element copies the input
 * element at `source(vars)`, or the pad value where `inBounds` is false.
 */
import { bufferLoad, bufferStore, ifThenElse } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt, Var } from '../../ir/tir/nodes';
import { loopNest, staticShape } from './tirHelpers';

export interface Source {
  readonly indices: readonly Expr[];
  /** When present, elements where it is false get the pad value instead of a load. */
  readonly inBounds?: Expr;
}

export function gatherNest(input: Buffer, out: Buffer, source: (vars: Var[]) => Source, pad?: Expr): Stmt {
  const shape = staticShape(out);
  return loopNest(
    shape.map((_, d) => `i${d}`),
    shape,
    (vars) => {
      const s = source(vars);
      if (!s.inBounds) return bufferStore(out, bufferLoad(input, s.indices), vars);
      if (!pad) throw new Error('gatherNest: a bounded source needs a pad value');
      // The load stays under the branch so out-of-range coordinates are never read.
      return ifThenElse(s.inBounds, bufferStore(out, bufferLoad(input, s.indices), vars), bufferStore(out, pad, vars));
    },
  );
}

