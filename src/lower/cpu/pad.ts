/**
 * pad: fill the whole output with the border value, then copy the input into its middle
 * (two plain loop nests, no per-element bounds test).
 */
import { add, bufferLoad, bufferStore, floatImm, intImm, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { floatValueAttr, loweringFail, numberAttr, numberList } from './attrs';
import { elementCount, loopNest, reshapedView, staticShape } from './tirHelpers';

/** The immediate holding `value` in `dtype` (float32, or an integer type). */
export function scalarImm(dtype: string, value: number): Expr {
  return dtype === 'float32' ? floatImm(value) : intImm(value, dtype as never);
}

export const padStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const x = input.args[0];
  const inShape = staticShape(x);
  const p = numberList(call, 'paddings', 2 * inShape.length);
  if (x.dtype !== out.dtype) loweringFail(call, `pad changes the dtype (${x.dtype} -> ${out.dtype})`);
  const n = elementCount(out);
  const flat = reshapedView(out, [n]);
  const padValue = out.dtype === 'float32' ? floatValueAttr(call, 'pad_value', 0) : numberAttr(call, 'pad_value', 0);
  const fill = loopNest(['i'], [n], ([i]) => bufferStore(flat, scalarImm(out.dtype, padValue), [i]));
  const names = inShape.map((_, d) => `i${d}`);
  const copy = loopNest(names, inShape, (vars) =>
    bufferStore(out, bufferLoad(x, vars), vars.map((v, d) => (p[2 * d] === 0 ? v : add(v, p[2 * d])))),
  );
  return p.some((v) => v !== 0) ? seq([fill, copy]) : copy;
};
