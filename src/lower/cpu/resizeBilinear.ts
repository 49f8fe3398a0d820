/**
 * resize_bilinear as TFLite Micro's reference kernels (see the interpreter kernel). Source
 * rows/columns and their weights depend on sizes and flags only: compile-time tables
 * (src/arith/resize.ts). float32 forms the products and sums in the C++ order; int8 sums Q10
 * products in int64 and rounds as ResizeBilinearInteger.
 */
import { BilinearAxis, bilinearFloatAxis, bilinearIntegerAxis } from '../../arith/resize';
import { add, allocateConst, binary, bufferLoad, bufferStore, cast, floatImm, makeBuffer, mul, select } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { loopNest, staticShape, withInt32Table } from './tirHelpers';

function withFloat32Table(name: string, values: readonly number[], body: (table: Buffer) => Stmt): Stmt {
  const table = makeBuffer(name, 'float32', [values.length]);
  const data = new Uint8Array(Float32Array.from(values).buffer);
  return allocateConst({ bufferVar: table.data, dtype: 'float32', extents: [values.length], data, body: body(table) });
}

interface AxisTables {
  readonly lower: Buffer;
  readonly upper: Buffer;
  readonly frac: Buffer;
  readonly oneMinus: Buffer;
}

function withAxisTables(prefix: string, axis: BilinearAxis, float: boolean, body: (t: AxisTables) => Stmt): Stmt {
  const weights = float ? withFloat32Table : withInt32Table;
  return withInt32Table(`${prefix}_lower`, axis.lower, (lower) =>
    withInt32Table(`${prefix}_upper`, axis.upper, (upper) =>
      weights(`${prefix}_frac`, axis.frac, (frac) => weights(`${prefix}_one_minus`, axis.oneMinus, (oneMinus) => body({ lower, upper, frac, oneMinus }))),
    ),
  );
}

export const resizeBilinearStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const x = input.args[0];
  const dtype = call.type.dtype;
  const float = dtype === 'float32';
  requireDType(call, [input.argTypes[0], call.type], [float ? 'float32' : 'int8'], 'resize_bilinear');
  const align = call.attrs.align_corners === true;
  const half = call.attrs.half_pixel_centers === true;
  const [batches, inH, inW, depth] = staticShape(x);
  const [, outH, outW] = staticShape(out);
  const axisOf = float ? bilinearFloatAxis : bilinearIntegerAxis;
  const prefix = sanitizeName(call.name);
  return withAxisTables(`${prefix}_rows`, axisOf(inH, outH, align, half), float, (ys) =>
    withAxisTables(`${prefix}_cols`, axisOf(inW, outW, align, half), float, (xs) =>
      loopNest(['n', 'y', 'x', 'c'], [batches, outH, outW, depth], ([n, y, xx, c]) => {
        const row = (t: Buffer): Expr => bufferLoad(t, [y]);
        const col = (t: Buffer): Expr => bufferLoad(t, [xx]);
        const v = (yt: Buffer, xt: Buffer): Expr => bufferLoad(x, [n, row(yt), col(xt), c]);
        if (float) {
          const t1 = mul(mul(v(ys.lower, xs.lower), row(ys.oneMinus)), col(xs.oneMinus));
          const t2 = mul(mul(v(ys.upper, xs.lower), row(ys.frac)), col(xs.oneMinus));
          const t3 = mul(mul(v(ys.lower, xs.upper), row(ys.oneMinus)), col(xs.frac));
          const t4 = mul(mul(v(ys.upper, xs.upper), row(ys.frac)), col(xs.frac));
          return bufferStore(out, add(add(add(add(t1, t2), t3), t4), floatImm(0)), [n, y, xx, c]);
        }
        const wide = (e: Expr): Expr => cast('int64', e);
        const term = (value: Expr, wy: Expr, wx: Expr): Expr => mul(mul(wide(value), wide(wy)), wide(wx));
        const sum = add(
          add(add(term(v(ys.lower, xs.lower), row(ys.oneMinus), col(xs.oneMinus)), term(v(ys.upper, xs.lower), row(ys.frac), col(xs.oneMinus))), term(v(ys.lower, xs.upper), row(ys.oneMinus), col(xs.frac))),
          term(v(ys.upper, xs.upper), row(ys.frac), col(xs.frac)),
        );
        const round = select(binary('GT', sum, cast('int64', 0)), cast('int64', 1 << 19), cast('int64', -(1 << 19)));
        return bufferStore(out, cast('int8', binary('Div', add(sum, round), cast('int64', 1 << 20))), [n, y, xx, c]);
      }),
    ),
  );
};
