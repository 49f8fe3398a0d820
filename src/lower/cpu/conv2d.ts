/**
 * conv2d (NHWC input, OHWI weight) for int8, 16x8 and float32, with the numerics of TFLite Micro's
 * reference ConvPerChannel / Conv (grouped too): acc += w * (x - input_zp) over (ky, kx, ic), + bias,
 * requantize per channel, + output zp, clamp. Padding is a padded-input copy.
 */
import { add, bufferLoad, bufferStore, floatImm, floorDiv, intImm, mul, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, windowAttrs } from './attrs';
import { floatOutputStage, integerConvScheme, requireDType, withQuantizedOutputStage, withWindowSource } from './convCommon';
import { accAdd, accLoad, accStore, i32, loopNest, staticShape, withAccumulator } from './tirHelpers';

export const conv2dStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const [data, weight] = args;
  const bias = args[2];
  const [n, , , inC] = staticShape(data);
  const [outC, kH, kW, wC] = staticShape(weight);
  const [, outH, outW, outC2] = staticShape(out);
  if (wC === 0 || inC % wC !== 0 || outC2 !== outC || outC % (inC / wC) !== 0) {
    loweringFail(call, `conv2d weight [${outC},${kH},${kW},${wC}] does not fit input channels ${inC} / output channels ${outC2}`);
  }
  // Grouped convolution (TFLite: groups = input depth / filter depth): output channel oc
  // reads input channels [group(oc) * wC, group(oc) * wC + wC).
  const groups = inC / wC;
  const filtersPerGroup = outC / groups;
  const inChannel = (oc: Expr, ic: Expr): Expr => (groups === 1 ? ic : add(mul(floorDiv(oc, filtersPerGroup), wC), ic));
  const window = windowAttrs(call);
  const activation = activationAttr(call);
  const geometry = { window, kernelH: kH, kernelW: kW, outH, outW };
  const tapY = (oy: Expr, ky: Expr): Expr => add(mul(oy, window.strideH), mul(ky, window.dilationH));
  const tapX = (ox: Expr, kx: Expr): Expr => add(mul(ox, window.strideW), mul(kx, window.dilationW));
  const padName = `${sanitizeName(call.name)}_pad`;
  const dtype = input.argTypes[0].dtype;

  if (dtype === 'float32') {
    // Float activations with int8 weights are TFLite's hybrid kernels, which TFLite Micro lacks.
    requireDType(call, [input.argTypes[1], call.type], ['float32'], 'conv2d');
    const finish = floatOutputStage(activation);
    return withWindowSource(padName, data, floatImm(0), geometry, (load) =>
      withAccumulator('acc', 'float32', (acc) =>
        loopNest(['n', 'oy', 'ox', 'oc'], [n, outH, outW, outC], ([b, oy, ox, oc]) =>
          seq([
            accStore(acc, floatImm(0)),
            loopNest(['ky', 'kx', 'ic'], [kH, kW, wC], ([ky, kx, ic]) =>
              accAdd(acc, mul(load(b, tapY(oy, ky), tapX(ox, kx), inChannel(oc, ic)), bufferLoad(weight, [oc, ky, kx, ic]))),
            ),
            bufferStore(out, finish(bias ? add(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)), [b, oy, ox, oc]),
          ]),
        ),
      ),
    );
  }

  const scheme = integerConvScheme(input, 'conv2d');
  return withQuantizedOutputStage(input, input.argTypes[1], outC, activation, (stage) =>
    withWindowSource(padName, data, intImm(-scheme.inputOffset, data.dtype), geometry, (load) =>
      withAccumulator('acc', scheme.acc, (acc) =>
        loopNest(['n', 'oy', 'ox', 'oc'], [n, outH, outW, outC], ([b, oy, ox, oc]) =>
          seq([
            accStore(acc, intImm(0, scheme.acc)),
            loopNest(['ky', 'kx', 'ic'], [kH, kW, wC], ([ky, kx, ic]) =>
              accAdd(acc, scheme.widen(mul(i32(bufferLoad(weight, [oc, ky, kx, ic])), scheme.inputTerm(load(b, tapY(oy, ky), tapX(ox, kx), inChannel(oc, ic)))))),
            ),
            ...(bias ? [accAdd(acc, scheme.widen(bufferLoad(bias, [oc])))] : []),
            bufferStore(out, stage(accLoad(acc), oc), [b, oy, ox, oc]),
          ]),
        ),
      ),
    ),
  );
};
