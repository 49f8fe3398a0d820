/**
 * dense (TFLite FULLY_CONNECTED, weight [units, depth]) for int8, 16x8 and float32, with the
 * numerics of TFLite Micro's reference FullyConnected: the input is viewed as
 * [elements/depth, depth], acc += (w - w_zp) * (x - x_zp), + bias, requantize, clamp; hybrid
 * (float32 input, int8 weights) as src/lower/cpu/hybrid.ts, one quantization row per input row.
 */
import { add, bufferLoad, bufferStore, floatImm, intImm, mul, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail } from './attrs';
import { floatOutputStage, integerConvScheme, requireDType, withQuantizedOutputStage } from './convCommon';
import { isHybrid, withHybridInput } from './hybrid';
import { isPerChannel } from './quantParams';
import { accAdd, accLoad, accStore, elementCount, i32, loopNest, reshapedView, staticShape, withAccumulator } from './tirHelpers';

export const denseStrategy: OperatorStrategy = (input) => {
  const { call, args } = input;
  const [units, depth] = staticShape(args[1]);
  const bias = args[2];
  const inputElements = elementCount(args[0]);
  if (depth === 0 || inputElements % depth !== 0) loweringFail(call, `dense input of ${inputElements} elements is not a multiple of depth ${depth}`);
  const batches = inputElements / depth;
  if (elementCount(input.out) !== batches * units) loweringFail(call, `dense output must hold ${batches}x${units} elements`);
  const data = reshapedView(args[0], [batches, depth]);
  const weight = args[1];
  const out = reshapedView(input.out, [batches, units]);
  const activation = activationAttr(call);

  if (isHybrid(input)) {
    return withHybridInput(input, 'dense', data, units, depth, (h) =>
      withAccumulator('acc', h.accDType, (acc) =>
        loopNest(['b', 'u'], [batches, units], ([b, u]) =>
          seq([
            accStore(acc, h.zero),
            loopNest(['d'], [depth], ([d]) => accAdd(acc, h.term(bufferLoad(weight, [u, d]), bufferLoad(h.q, [b, d]), b))),
            bufferStore(out, h.result(accLoad(acc), u, b), [b, u]),
          ]),
        ),
      ),
    );
  }

  if (input.argTypes[0].dtype === 'float32') {
    requireDType(call, [input.argTypes[1], call.type], ['float32'], 'dense');
    const finish = floatOutputStage(activation);
    return withAccumulator('acc', 'float32', (acc) =>
      loopNest(['b', 'u'], [batches, units], ([b, u]) =>
        seq([
          accStore(acc, floatImm(0)),
          loopNest(['d'], [depth], ([d]) => accAdd(acc, mul(bufferLoad(data, [b, d]), bufferLoad(weight, [u, d])))),
          bufferStore(out, finish(bias ? add(accLoad(acc), bufferLoad(bias, [u])) : accLoad(acc)), [b, u]),
        ]),
      ),
    );
  }

  const scheme = integerConvScheme(input, 'dense');
  // Per-channel FC in TFLite has no weight offset; per-tensor honours the weight zero point.
  const weightOffset = isPerChannel(input.argTypes[1]) ? 0 : -(input.argTypes[1].quant?.zeroPoint[0] ?? 0);
  const weightTerm = (u: Expr, d: Expr): Expr => {
    const w = i32(bufferLoad(weight, [u, d]));
    return weightOffset === 0 ? w : add(w, weightOffset);
  };
  return withQuantizedOutputStage(input, input.argTypes[1], units, activation, (stage) =>
    withAccumulator('acc', scheme.acc, (acc) =>
      loopNest(['b', 'u'], [batches, units], ([b, u]) =>
        seq([
          accStore(acc, intImm(0, scheme.acc)),
          loopNest(['d'], [depth], ([d]) => accAdd(acc, scheme.widen(mul(weightTerm(u, d), scheme.inputTerm(bufferLoad(data, [b, d])))))),
          ...(bias ? [accStore(acc, scheme.addBias(accLoad(acc), bufferLoad(bias, [u])))] : []),
          bufferStore(out, stage(scheme.read(accLoad(acc)), u), [b, u]),
        ]),
      ),
    ),
  );
};
