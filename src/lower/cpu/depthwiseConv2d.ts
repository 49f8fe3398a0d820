/**
 * depthwise_conv2d (NHWC input, 1HW(C*M) weight) for int8, 16x8 and float32, with the numerics of
 * TFLite Micro's reference DepthwiseConvPerChannel / DepthwiseConv: output channel
 * oc = ic * M + m accumulates w[ky,kx,oc] * (x[ic] - input_zp) over (ky, kx).
 */
import { add, bufferLoad, bufferStore, floatImm, intImm, mul, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, numberAttr, windowAttrs } from './attrs';
import { floatOutputStage, integerConvScheme, requireDType, withQuantizedOutputStage, withWindowSource } from './convCommon';
import { accAdd, accLoad, accStore, i32, loopNest, staticShape, withAccumulator } from './tirHelpers';

export const depthwiseConv2dStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const [data, weight] = args;
  const bias = args[2];
  const [n, , , inC] = staticShape(data);
  const [one, kH, kW, outC] = staticShape(weight);
  const [, outH, outW] = staticShape(out);
  const multiplier = numberAttr(call, 'depth_multiplier', outC / inC);
  if (one !== 1 || outC !== inC * multiplier) {
    loweringFail(call, `depthwise weight [${one},${kH},${kW},${outC}] does not fit ${inC} input channels x multiplier ${multiplier}`);
  }
  const window = windowAttrs(call);
  const activation = activationAttr(call);
  const geometry = { window, kernelH: kH, kernelW: kW, outH, outW };
  const tapY = (oy: Expr, ky: Expr): Expr => add(mul(oy, window.strideH), mul(ky, window.dilationH));
  const tapX = (ox: Expr, kx: Expr): Expr => add(mul(ox, window.strideW), mul(kx, window.dilationW));
  const padName = `${sanitizeName(call.name)}_pad`;
  const outChannel = (ic: Expr, m: Expr): Expr => add(mul(ic, multiplier), m);

  if (input.argTypes[0].dtype === 'float32') {
    requireDType(call, [input.argTypes[1], call.type], ['float32'], 'depthwise_conv2d');
    const finish = floatOutputStage(activation);
    return withWindowSource(padName, data, floatImm(0), geometry, (load) =>
      withAccumulator('acc', 'float32', (acc) =>
        loopNest(['n', 'oy', 'ox', 'ic', 'm'], [n, outH, outW, inC, multiplier], ([b, oy, ox, ic, m]) => {
          const oc = outChannel(ic, m);
          return seq([
            accStore(acc, floatImm(0)),
            loopNest(['ky', 'kx'], [kH, kW], ([ky, kx]) =>
              accAdd(acc, mul(load(b, tapY(oy, ky), tapX(ox, kx), ic), bufferLoad(weight, [0, ky, kx, oc]))),
            ),
            bufferStore(out, finish(bias ? add(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)), [b, oy, ox, oc]),
          ]);
        }),
      ),
    );
  }

  const scheme = integerConvScheme(input, 'depthwise_conv2d');
  return withQuantizedOutputStage(input, input.argTypes[1], outC, activation, (stage) =>
    withWindowSource(padName, data, intImm(-scheme.inputOffset, data.dtype), geometry, (load) =>
      withAccumulator('acc', scheme.acc, (acc) =>
        loopNest(['n', 'oy', 'ox', 'ic', 'm'], [n, outH, outW, inC, multiplier], ([b, oy, ox, ic, m]) => {
          const oc = outChannel(ic, m);
          return seq([
            accStore(acc, intImm(0, scheme.acc)),
            loopNest(['ky', 'kx'], [kH, kW], ([ky, kx]) =>
              accAdd(acc, scheme.widen(mul(i32(bufferLoad(weight, [0, ky, kx, oc])), scheme.inputTerm(load(b, tapY(oy, ky), tapX(ox, kx), ic))))),
            ),
            ...(bias ? [accAdd(acc, scheme.widen(bufferLoad(bias, [oc])))] : []),
            bufferStore(out, stage(accLoad(acc), oc), [b, oy, ox, oc]),
          ]);
        }),
      ),
    ),
  );
};
