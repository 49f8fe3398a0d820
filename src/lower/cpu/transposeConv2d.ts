/**
 * transpose_conv2d as TFLite Micro's reference kernels (see the interpreter kernel): the
 * same scatter over the input, so each output sums its terms in the same order. float32
 * accumulates in the output; int8 in an operator-internal int32 scratch the size of the
 * output (`<tensor>_acc`, global scope: planned by the USMP like any buffer), then bias,
 * per-channel requantization and clamp.
 */
import { add, and, bufferLoad, bufferStore, floatImm, ifThenElse, intImm, mul, seq, sub } from '../../ir/tir/builder';
import { Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, numberList } from './attrs';
import { floatOutputStage, requireDType, withQuantizedOutputStage } from './convCommon';
import { quantOf } from './quantParams';
import { i32, inRange, loopNest, staticShape, withScratch } from './tirHelpers';

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
  requireDType(call, [input.argTypes[0], input.argTypes[1], call.type], [quantized ? 'int8' : 'float32'], 'transpose_conv2d');
  if (bias) requireDType(call, [input.argTypes[2]], [quantized ? 'int32' : 'float32'], 'transpose_conv2d bias');
  const inputOffset = quantized ? -quantOf(call, input.argTypes[0], 'input').zeroPoint : 0;

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
