/**
 * broadcast_args on shapes read at run time: the output length is static, so one store per
 * output dimension. Each dimension is the C `int` TFLite's reference kernel computes with (an
 * int64 one wrapped to 32 bits); where the shapes conflict (TFLite Micro aborts, the
 * interpreter reports it) the left dimension is written.
 */
import { bufferLoad, bufferStore, cast, eq, intImm, select, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { staticShape } from './tirHelpers';

export const broadcastArgsStrategy: OperatorStrategy = (input) => {
  const [s1, s2] = input.args;
  const [n1] = staticShape(s1);
  const [n2] = staticShape(s2);
  const [n] = staticShape(input.out);
  if (n !== Math.max(n1, n2)) loweringFail(input.call, `broadcast_args: output length ${n}, expected ${Math.max(n1, n2)}`);
  const dtype = input.out.dtype;
  const dim = (buf: typeof s1, len: number, i: number): Expr => {
    const k = i - (n - len);
    if (k < 0) return intImm(1);
    const v = bufferLoad(buf, [intImm(k)]);
    return dtype === 'int64' ? cast('int32', v) : v;
  };
  return seq(
    Array.from({ length: n }, (_, i) => {
      const l = dim(s1, n1, i);
      const r = dim(s2, n2, i);
      const v = select(eq(l, intImm(1)), r, l);
      return bufferStore(input.out, dtype === 'int64' ? cast('int64', v) : v, [intImm(i)]);
    }),
  );
};
