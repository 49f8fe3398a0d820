/**
 * transpose_conv2d as TFLite Micro's reference kernels (see the interpreter kernel): the
 * same scatter over the input, so each output sums its terms in the same order. float32
 * accumulates in the output; int8 in an operator-internal int32 scratch the size of the
 * output (`<tensor>_acc`, global scope: planned by the USMP like any buffer), then bias,
 * per-channel requantization and clamp; 16x8 the same in an int64 scratch, without offsets,
 * the bias add wrapping modulo 2^64, with the 64-bit requantize (`tir.q_multiply_shift` on
 * an int64 value).
 */
import { add, and, bufferLoad, bufferStore, cast, floatImm, ifThenElse, intImm, mul, seq, sub } from '../../ir/tir/builder';
import { Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, numberList } from './attrs';
import { floatOutputStage, requireDType, withQuantizedOutputStage } from './convCommon';
import { channelMultipliers, quantizedActivationRange, quantOf } from './quantParams';
import { clamp, i32, inRange, loopNest, qMultiplyShift, staticShape, withInt32Table, withScratch, wrappingAddI64 } from './tirHelpers';

export const transposeConv2dStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const [x, w] = args;
  const bias = args.length > 2 ? args[2] : undefined;
  const [strideH, strideW] = numberList(call, 'strides', 2);
  const [padTop, padLeft] = numberList(call, 'pad_before', 2);
  const [batches, inH, inW, inC] = staticShape(x);
  const [outC, kH, kW] = staticShape(w);
  const [, outH, outW] = staticShape(out);
  const activation = activationAttr(call);
  const quantized = call.type.dtype !== 'float32';
  const wide = call.type.dtype === 'int16';
  const dtype = wide ? 'int16' : quantized ? 'int8' : 'float32';
  requireDType(call, [input.argTypes[0], call.type], [dtype], 'transpose_conv2d');
  requireDType(call, [input.argTypes[1]], [quantized ? 'int8' : 'float32'], 'transpose_conv2d weight');
  if (bias) requireDType(call, [input.argTypes[2]], wide ? ['int64', 'int16'] : [quantized ? 'int32' : 'float32'], 'transpose_conv2d bias');
  const inputOffset = quantized && !wide ? -quantOf(call, input.argTypes[0], 'input').zeroPoint : 0;

  const scatter = (acc: typeof out, zero: Expr, product: (v: Expr, wv: Expr) => Expr): Stmt => {
    const init = loopNest(['zn', 'zy', 'zx', 'zc'], [batches, outH, outW, outC], (v) => bufferStore(acc, zero, v));
    const body = loopNest(['n', 'iy', 'ix', 'ic', 'ky', 'kx'], [batches, inH, inW, inC, kH, kW], ([n, iy, ix, ic, ky, kx]) => {
      const oy = add(sub(mul(iy, strideH), padTop), ky);
      const ox = add(sub(mul(ix, strideW), padLeft), kx);
      const update = loopNest(['oc'], [outC], ([oc]) => {
        const at = [n, oy, ox, oc];
        return bufferStore(acc, add(bufferLoad(acc, at), product(bufferLoad(x, [n, iy, ix, ic]), bufferLoad(w, [oc, ky, kx, ic]))), at);
      });
      return ifThenElse(and(inRange(oy, outH), inRange(ox, outW)), update);
    });
    return seq([init, body]);
  };

  if (!quantized) {
    const finish = floatOutputStage(activation);
    const epilogue = loopNest(['n', 'oy', 'ox', 'oc'], [batches, outH, outW, outC], (v) => {
      const withBias = bias ? add(bufferLoad(out, v), bufferLoad(bias, [v[3]])) : bufferLoad(out, v);
      return bufferStore(out, finish(withBias), v);
    });
    return seq([scatter(out, floatImm(0), (v, wv) => mul(v, wv)), epilogue]);
  }

  const filter = input.argTypes[1];
  if (!filter.quant) loweringFail(call, 'weight has no quantization parameters');
  if (wide) {
    const mults = channelMultipliers(call, input.argTypes[0], filter, call.type, outC);
    const [lo, hi] = quantizedActivationRange(call, activation, call.type);
    const prefix = sanitizeName(call.name);
    return withScratch(`${prefix}_acc`, 'int64', [batches, outH, outW, outC], 'global', (acc) =>
      withInt32Table(`${prefix}_multiplier`, mults.map((m) => m.multiplier), (multTable) =>
        withInt32Table(`${prefix}_shift`, mults.map((m) => m.shift), (shiftTable) =>
          seq([
            scatter(acc, intImm(0, 'int64'), (v, wv) => mul(cast('int64', v), cast('int64', wv))),
            loopNest(['n', 'oy', 'ox', 'oc'], [batches, outH, outW, outC], (v) => {
              const total = bias ? wrappingAddI64(bufferLoad(acc, v), bufferLoad(bias, [v[3]])) : bufferLoad(acc, v);
              const scaled = qMultiplyShift(total, bufferLoad(multTable, [v[3]]), bufferLoad(shiftTable, [v[3]]));
              return bufferStore(out, cast('int16', clamp(scaled, lo, hi)), v);
            }),
          ]),
        ),
      ),
    );
  }
  return withScratch(`${sanitizeName(call.name)}_acc`, 'int32', [batches, outH, outW, outC], 'global', (acc) =>
    withQuantizedOutputStage(input, filter, outC, activation, (stage) =>
      seq([
        scatter(acc, intImm(0), (v, wv) => mul(add(i32(v), inputOffset), i32(wv))),
        loopNest(['n', 'oy', 'ox', 'oc'], [batches, outH, outW, outC], (v) => {
          const total = bias ? add(bufferLoad(acc, v), bufferLoad(bias, [v[3]])) : bufferLoad(acc, v);
          return bufferStore(out, stage(total, v[3]), v);
        }),
      ]),
    ),
  );
};
