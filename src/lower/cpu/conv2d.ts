/**
 * conv2d (NHWC input, OHWI weight) for int8, 16x8 and float32, with the numerics of TFLite Micro's
 * reference ConvPerChannel / Conv (grouped too): acc += w * (x - input_zp) over (ky, kx, ic), + bias,
 * requantize per channel, + output zp, clamp. Padding is handled in the loop nest (or, for
 * a backend that asks, a padded-input copy): see `PaddingMode`.
 */
import { add, bufferLoad, bufferStore, floatImm, floorDiv, intImm, mul, seq } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, windowAttrs } from './attrs';
import {
  ConvStrategyOptions,
  floatOutputStage,
  hasTaps,
  integerConvScheme,
  OutputRegion,
  rangeNest,
  requireDType,
  windowedNests,
  WindowTaps,
  withQuantizedOutputStage,
} from './convCommon';
import { accAdd, accLoad, accStore, i32, staticShape, withAccumulator } from './tirHelpers';

/** conv2d loops reading window taps as `options.padding` says (`PaddingMode`). */
export function makeConv2dStrategy(options: ConvStrategyOptions): OperatorStrategy {
  return (input) => {
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
    const activation = activationAttr(call);
    const geometry = { window: windowAttrs(call), kernelH: kH, kernelW: kW, outH, outW };
    const padName = `${sanitizeName(call.name)}_pad`;
    const dtype = input.argTypes[0].dtype;

    /** The nest of one output region; `tap(x, w)` is what one in-input tap adds. */
    const regionNest = (
      region: OutputRegion,
      taps: WindowTaps,
      acc: Buffer,
      zero: Expr,
      tap: (x: Expr, w: Expr) => Expr,
      result: (oc: Expr) => Expr,
    ): Stmt =>
      rangeNest(['n', 'oy', 'ox', 'oc'], [[0, n], region.y, region.x, [0, outC]], ([b, oy, ox, oc]) =>
        seq([
          accStore(acc, zero),
          ...(hasTaps(region)
            ? [
                rangeNest(['ky', 'kx', 'ic'], [region.ky, region.kx, [0, wC]], ([ky, kx, ic]) =>
                  accAdd(acc, tap(bufferLoad(taps.input, [b, taps.row(oy, ky), taps.col(ox, kx), inChannel(oc, ic)]), bufferLoad(weight, [oc, ky, kx, ic]))),
                ),
              ]
            : []),
          bufferStore(out, result(oc), [b, oy, ox, oc]),
        ]),
      );

    if (dtype === 'float32') {
      // Float activations with int8 weights are TFLite's hybrid kernels, which TFLite Micro lacks.
      requireDType(call, [input.argTypes[1], call.type], ['float32'], 'conv2d');
      const finish = floatOutputStage(activation);
      return withAccumulator('acc', 'float32', (acc) =>
        windowedNests(padName, data, floatImm(0), geometry, options.padding, (region, taps) =>
          regionNest(region, taps, acc, floatImm(0), (x, w) => mul(x, w), (oc) =>
            finish(bias ? add(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)),
          ),
        ),
      );
    }

    const scheme = integerConvScheme(input, 'conv2d');
    return withQuantizedOutputStage(input, input.argTypes[1], outC, activation, (stage) =>
      withAccumulator('acc', scheme.acc, (acc) =>
        windowedNests(padName, data, intImm(-scheme.inputOffset, data.dtype), geometry, options.padding, (region, taps) =>
          regionNest(region, taps, acc, intImm(0, scheme.acc), (x, w) => scheme.widen(mul(i32(w), scheme.inputTerm(x))), (oc) =>
            stage(bias ? add(accLoad(acc), scheme.widen(bufferLoad(bias, [oc]))) : accLoad(acc), oc),
          ),
        ),
      ),
    );
  };
}

/** The host's conv2d: border handling in the loop nest, no padded copy. */
export const conv2dStrategy: OperatorStrategy = makeConv2dStrategy({ padding: 'in-loop' });
