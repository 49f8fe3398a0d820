/**
 * resize_nearest_neighbor: the source row and column of every output row and column depend
 * on sizes and flags only, so they are compile-time int32 tables (src/arith/resize.ts, the
 * same numbers the interpreter uses).
 */
import { bufferLoad } from '../../ir/tir/builder';
import { nearestNeighborIndices } from '../../arith/resize';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { gatherNest } from './indexMap';
import { staticShape, withInt32Table } from './tirHelpers';

export const resizeNearestNeighborStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const align = call.attrs.align_corners === true;
  const half = call.attrs.half_pixel_centers === true;
  const [, inH, inW] = staticShape(input.args[0]);
  const [, outH, outW] = staticShape(input.out);
  const prefix = sanitizeName(call.name);
  return withInt32Table(`${prefix}_rows`, nearestNeighborIndices(inH, outH, align, half), (rows) =>
    withInt32Table(`${prefix}_cols`, nearestNeighborIndices(inW, outW, align, half), (cols) =>
      gatherNest(input.args[0], input.out, ([n, y, x, c]) => ({ indices: [n, bufferLoad(rows, [y]), bufferLoad(cols, [x]), c] })),
    ),
  );
};
