/**
 * Operators of a model whose output uma-ts computes as TFLite Micro's reference kernels do,
 * where TensorFlow Lite (LiteRT) computes another: a compile that succeeds says so, so a user
 * checking the generated code against TensorFlow Lite's outputs knows where to expect a
 * difference and why (docs/operators.md).
 *
 * Quantized RELU6 is the one known to differ on converter output: TFLite Micro clamps the input
 * codes to the input's zero point and to 6 at the input's scale and writes them unchanged, while
 * LiteRT rescales them to the output's quantization. The converter gives a standalone RELU6 (an
 * unfused hard sigmoid, a RELU6 after a CONCATENATION) an output quantization of its own, and a
 * realistic-model campaign saw the two runtimes differ there by up to 174 LSB.
 */
import { GraphFunction, IRModule, Quantization, TensorType } from '../ir/graph/types';

/** One warning per quantized RELU6 whose output quantization differs from its input's, in each function's node order. */
export function liteRtDeviations(module: IRModule): string[] {
  const warnings: string[] = [];
  for (const fn of module.functions.values()) warnings.push(...relu6Deviations(fn));
  return warnings;
}

function relu6Deviations(fn: GraphFunction): string[] {
  const types = new Map<string, TensorType>(fn.nodes.map((n) => [n.name, n.type]));
  const warnings: string[] = [];
  for (const node of fn.nodes) {
    if (node.kind !== 'call' || node.callee.kind !== 'op' || node.callee.op !== 'relu6') continue;
    const input = types.get(node.args[0]);
    const inQuant = input?.quant;
    const outQuant = node.type.quant;
    if (!inQuant || !outQuant || sameQuantization(inQuant, outQuant)) continue;
    warnings.push(
      `RELU6 output '${node.name}' (${describe(node.type.dtype, outQuant)}) is not quantized as its input ` +
        `'${node.args[0]}' (${describe(input.dtype, inQuant)}): as TFLite Micro's kernel, the generated code ` +
        `clamps the input's codes and does not rescale them, so this output differs from TensorFlow Lite's`,
    );
  }
  return warnings;
}

/** The quantization RELU6 reads: the first scale and zero point, as TFLite Micro's kernel does. */
function sameQuantization(a: Quantization, b: Quantization): boolean {
  return a.scale[0] === b.scale[0] && (a.zeroPoint[0] ?? 0) === (b.zeroPoint[0] ?? 0);
}

/** A file's scales are float32: seven digits say them without the widening's noise. */
function describe(dtype: string, q: Quantization): string {
  return `${dtype}, scale ${+q.scale[0].toPrecision(7)}, zero point ${q.zeroPoint[0] ?? 0}`;
}
