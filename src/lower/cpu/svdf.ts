/**
 * svdf: a call of the host runtime kernel (`uma_ref_svdf_int8` / `uma_ref_svdf_f32`). The
 * state argument is a graph constant (TFLite Micro zero-fills variable tensors), so it is
 * copied into an operator-internal writable buffer first; the kernel updates that copy and
 * the model's constant stays read-only. Scratch vectors are operator-internal allocates.
 */
import { svdfIntegerParams } from '../../arith/quant-params';
import { FUSED_ACTIVATIONS } from '../../ir/graph/ops';
import { bufferLoad, bufferStore, callExtern, evaluate, intImm, seq } from '../../ir/tir/builder';
import { Buffer, Expr } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail, numberAttr } from './attrs';
import { SVDF_FLOAT32, SVDF_INT8 } from './externKernels';
import { quantOf } from './quantParams';
import { elementCount, loopNest, reshapedView, staticShape, withScratch } from './tirHelpers';

export const svdfStrategy: OperatorStrategy = (input) => {
  const { call, args } = input;
  // With a bias the args are (input, wf, wt, bias, state); without, (input, wf, wt, state).
  const hasBias = args.length === 5;
  if (args.length !== 4 && args.length !== 5) loweringFail(call, `svdf expects 4 or 5 arguments, got ${args.length}`);
  const [data, weightsFeature, weightsTime] = args;
  const bias: Buffer | undefined = hasBias ? args[3] : undefined;
  const stateIndex = hasBias ? 4 : 3;
  const state = args[stateIndex];
  const stateType = input.argTypes[stateIndex];
  const [batch] = staticShape(data);
  const [numFilters, inputSize] = staticShape(weightsFeature);
  const [, memorySize] = staticShape(weightsTime);
  const rank = numberAttr(call, 'rank');
  if (numFilters % rank !== 0) loweringFail(call, `svdf filters ${numFilters} not divisible by rank ${rank}`);
  const numUnits = numFilters / rank;
  const activation = FUSED_ACTIVATIONS.indexOf(activationAttr(call));
  const prefix = sanitizeName(call.name);
  const stateElems = elementCount(state);
  const dims: Expr[] = [batch, memorySize, inputSize, numFilters, numUnits, rank].map((v) => intImm(v));
  const biasArg: Expr = bias ? bias.data : intImm(0, 'handle');
  const isFloat = call.type.dtype === 'float32';

  return withScratch(`${prefix}_state`, state.dtype, [stateElems], 'global', (stateCopy) => {
    const src = reshapedView(state, [stateElems]);
    const copy = loopNest(['i'], [stateElems], ([i]) => bufferStore(stateCopy, bufferLoad(src, [i]), [i]));
    if (isFloat) {
      return withScratch(`${prefix}_scratch`, 'float32', [batch * numFilters], 'global', (scratch) =>
        seq([
          copy,
          evaluate(
            callExtern(SVDF_FLOAT32, [
              data.data, weightsFeature.data, weightsTime.data, biasArg, stateCopy.data, scratch.data, input.out.data, ...dims, intImm(activation),
            ]),
          ),
        ]),
      );
    }
    const qIn = quantOf(call, input.argTypes[0], 'input');
    const qWf = quantOf(call, input.argTypes[1], 'weights_feature');
    const qWt = quantOf(call, input.argTypes[2], 'weights_time');
    const qState = quantOf(call, stateType, 'state');
    const qOut = quantOf(call, call.type, 'output');
    const { scale1: s1, scale2: s2 } = svdfIntegerParams(qIn.scale, qWf.scale, qState.scale, qWt.scale, qOut.scale);
    return withScratch(`${prefix}_scratch`, 'int32', [batch * numFilters], 'global', (scratch) =>
      withScratch(`${prefix}_scratch_output`, 'int32', [batch * numUnits], 'global', (scratchOut) =>
        seq([
          copy,
          evaluate(
            callExtern(SVDF_INT8, [
              data.data, weightsFeature.data, weightsTime.data, biasArg, stateCopy.data, scratch.data, scratchOut.data, input.out.data,
              ...dims,
              intImm(qIn.zeroPoint), intImm(qState.zeroPoint), intImm(qOut.zeroPoint),
              intImm(s1.multiplier), intImm(s1.shift), intImm(s2.multiplier), intImm(s2.shift),
              intImm(activation),
            ]),
          ),
        ]),
      ),
    );
  });
};
