/**
 * depthwise_conv2d (NHWC input, 1HW(C*M) weight) for int8, 16x8 and float32, with the numerics of
 * TFLite Micro's reference DepthwiseConvPerChannel / DepthwiseConv: output channel
 * oc = ic * M + m accumulates w[ky,kx,oc] * (x[ic] - input_zp) over (ky, kx).
 */
import { add, bufferLoad, bufferStore, floatImm, intImm, mul, seq } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, numberAttr, windowAttrs } from './attrs';
import {
  ConvStrategyOptions,
  floatOutputStage,
  hasTaps,
  OutputRegion,
  rangeNest,
  integerConvScheme,
  requireDType,
  windowedNests,
  WindowTaps,
  withQuantizedOutputStage,
} from './convCommon';
import { accAdd, accLoad, accStore, i32, staticShape, withAccumulator } from './tirHelpers';

/** depthwise_conv2d loops reading window taps as `options.padding` says (`PaddingMode`). */
export function makeDepthwiseConv2dStrategy(options: ConvStrategyOptions): OperatorStrategy {
  return (input) => {
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
    const activation = activationAttr(call);
    const geometry = { window: windowAttrs(call), kernelH: kH, kernelW: kW, outH, outW };
    const padName = `${sanitizeName(call.name)}_pad`;
    const outChannel = (ic: Expr, m: Expr): Expr => add(mul(ic, multiplier), m);

    /** The nest of one output region; `tap(x, w)` is what one in-input tap adds. */
    const regionNest = (
      region: OutputRegion,
      taps: WindowTaps,
      acc: Buffer,
      zero: Expr,
      tap: (x: Expr, w: Expr) => Expr,
      result: (oc: Expr) => Expr,
    ): Stmt =>
      rangeNest(['n', 'oy', 'ox', 'ic', 'm'], [[0, n], region.y, region.x, [0, inC], [0, multiplier]], ([b, oy, ox, ic, m]) => {
        const oc = outChannel(ic, m);
        return seq([
          accStore(acc, zero),
          ...(hasTaps(region)
            ? [
                rangeNest(['ky', 'kx'], [region.ky, region.kx], ([ky, kx]) =>
                  accAdd(acc, tap(bufferLoad(taps.input, [b, taps.row(oy, ky), taps.col(ox, kx), ic]), bufferLoad(weight, [0, ky, kx, oc]))),
                ),
              ]
            : []),
          bufferStore(out, result(oc), [b, oy, ox, oc]),
        ]);
      });

    if (input.argTypes[0].dtype === 'float32') {
      requireDType(call, [input.argTypes[1], call.type], ['float32'], 'depthwise_conv2d');
      const finish = floatOutputStage(activation);
      return withAccumulator('acc', 'float32', (acc) =>
        windowedNests(padName, data, floatImm(0), geometry, options.padding, (region, taps) =>
          regionNest(region, taps, acc, floatImm(0), (x, w) => mul(x, w), (oc) =>
            finish(bias ? add(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)),
          ),
        ),
      );
    }

    const scheme = integerConvScheme(input, 'depthwise_conv2d');
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

/** The host's depthwise_conv2d: border handling in the loop nest, no padded copy. */
export const depthwiseConv2dStrategy: OperatorStrategy = makeDepthwiseConv2dStrategy({ padding: 'in-loop' });
