/**
 * Reproducible data for the example backends' tests: seeded random bytes for weights and
 * model inputs, from the one public generator, and small models.
 */
import { IRModule, MAIN_FUNCTION, randomInt, seededRandom, tensorBytes, TfliteWriter, tfliteOptions } from '../src/index';

/** `n` uniformly random bytes, the same for the same seed. */
export function randomBytes(n: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => randomInt(random, 0, 255));
}

/** Random bytes filling the first parameter of `module`'s main function. */
export function randomMainInput(module: IRModule, seed: number): Uint8Array {
  const main = module.functions.get(MAIN_FUNCTION)!;
  const param = main.nodes.find((n) => n.name === main.params[0])!;
  return randomBytes(tensorBytes(param.type), seed);
}

/** A quantized CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED without a bias input. */
export function biaslessModel(op: 'CONV_2D' | 'DEPTHWISE_CONV_2D' | 'FULLY_CONNECTED'): Uint8Array {
  const w = new TfliteWriter();
  const fc = op === 'FULLY_CONNECTED';
  const x = w.addInput({ name: 'x', shape: fc ? [1, 4] : [1, 3, 3, 2], dtype: 'int8', quant: { scale: [0.02], zeroPoint: [1] } });
  const weightShape = fc ? [3, 4] : op === 'CONV_2D' ? [3, 1, 1, 2] : [1, 1, 1, 2];
  const elements = weightShape.reduce((a, b) => a * b, 1);
  const wt = w.addConstant({ name: 'w', shape: weightShape, dtype: 'int8', data: new Int8Array(elements).map((_, i) => i * 9 - 40), quant: { scale: [0.01], zeroPoint: [0] } });
  const y = w.addTensor({ name: 'y', shape: fc ? [1, 3] : [1, 3, 3, op === 'CONV_2D' ? 3 : 2], dtype: 'int8', quant: { scale: [0.05], zeroPoint: [-2] } });
  const options = fc ? tfliteOptions.fullyConnected({}) : op === 'CONV_2D' ? tfliteOptions.conv2d({}) : tfliteOptions.depthwiseConv2d({ depthMultiplier: 1 });
  w.addOperator({ op, inputs: [x, wt], outputs: [y], options });
  w.markOutput(y);
  return w.finish();
}
