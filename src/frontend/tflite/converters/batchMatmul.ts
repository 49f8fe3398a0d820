/** BATCH_MATMUL → batch_matmul (float32, int8, int16 with zero points 0 as TFLite Micro). */
import { BatchMatMulOptions, BuiltinOptionsType } from '../schema';
import { Converter, inputType, options, requireWideRequantize, unsupportedParameter, requireDtype } from './common';

export const batchMatmul: Converter = (site) => {
  const lhs = inputType(site, 0, 'lhs');
  const rhs = inputType(site, 1, 'rhs');
  requireDtype(site, lhs, ['float32', 'int8', 'int16'], 'input');
  if (rhs.dtype !== lhs.dtype || site.outputType.dtype !== lhs.dtype) {
    unsupportedParameter(site, `dtypes lhs ${lhs.dtype} / rhs ${rhs.dtype} / output ${site.outputType.dtype} (hybrid)`);
  }
  if (lhs.dtype === 'int16') {
    for (const [role, t] of [['lhs', lhs], ['rhs', rhs], ['output', site.outputType]] as const) {
      if (t.quant && t.quant.zeroPoint.some((z) => z !== 0)) unsupportedParameter(site, `int16 ${role} zero point ${t.quant.zeroPoint[0]}`);
    }
    // int16 accumulates in int64 and requantizes in 64 bits (batch_matmul.cc).
    requireWideRequantize(site, lhs, rhs, true);
  }
  const opts = options(site, BuiltinOptionsType.BatchMatMulOptions, BatchMatMulOptions);
  return { op: 'batch_matmul', attrs: { adj_x: opts?.adjX ?? false, adj_y: opts?.adjY ?? false }, argPositions: [0, 1] };
};
