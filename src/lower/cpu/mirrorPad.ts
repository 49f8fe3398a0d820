/** mirror_pad: one loop nest over the output; each axis maps its index back into the input. */
import { bufferLoad, bufferStore, ge, lt, min, select, sub } from '../../ir/tir/builder';
import { Expr, Var } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail, numberList } from './attrs';
import { loopNest, staticShape } from './tirHelpers';

/** TFLite's GetInputDimension as an expression (REFLECT: offset 1, SYMMETRIC: offset 0). */
function mirrored(i: Var, before: number, size: number, offset: number): Expr {
  const left = before + offset - 1;
  const right = size - (1 + offset);
  const inner = sub(i, before);
  return select(
    lt(i, before),
    sub(left, min(i, left - offset)),
    select(ge(inner, size), sub(right, min(sub(inner, size), right)), inner),
  );
}

export const mirrorPadStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const x = input.args[0];
  const inShape = staticShape(x);
  const p = numberList(call, 'paddings', 2 * inShape.length);
  const mode = call.attrs.mode;
  if (mode !== 'REFLECT' && mode !== 'SYMMETRIC') loweringFail(call, `unknown mirror_pad mode ${JSON.stringify(mode)}`);
  const offset = mode === 'REFLECT' ? 1 : 0;
  const outShape = staticShape(out);
  return loopNest(outShape.map((_, d) => `i${d}`), outShape, (vars) =>
    bufferStore(out, bufferLoad(x, vars.map((v, d) => (p[2 * d] === 0 && p[2 * d + 1] === 0 ? v : mirrored(v, p[2 * d], inShape[d], offset)))), vars),
  );
};
