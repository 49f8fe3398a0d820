/**
 * A graph-IR module built in code (not imported from a .tflite file, whose quantization the
 * importer checks) gets the same quantization checks (config/numbers) before it is compiled,
 * so an out-of-range zero point or a NaN scale never reaches the generated C.
 */
import { quantizationProblem } from '../config/numbers';
import { TypeInferenceError } from '../errors';
import { IRModule } from '../ir/graph/types';

export function checkGraphQuantization(module: IRModule, source: string): void {
  for (const fn of module.functions.values()) {
    for (const node of fn.nodes) {
      const q = node.type.quant;
      if (q === undefined) continue;
      const where = `${source}: invalid quantization of '${node.name}' (${node.type.dtype}) in ${fn.name}`;
      const badZero = q.zeroPoint.find((z) => !Number.isSafeInteger(z));
      if (badZero !== undefined) {
        throw new TypeInferenceError(`${where}: zero point ${badZero} is not an integer in -(2^53-1)..2^53-1`, { file: source, func: fn.name, op: node.name });
      }
      if (q.zeroPoint.length !== q.scale.length) {
        throw new TypeInferenceError(`${where}: ${q.scale.length} scales but ${q.zeroPoint.length} zero points`, {
          file: source,
          func: fn.name,
          op: node.name,
        });
      }
      const problem = quantizationProblem({ dtype: node.type.dtype, scale: q.scale, zeroPoint: q.zeroPoint.map((z) => BigInt(z)) });
      if (problem !== undefined) throw new TypeInferenceError(`${where}: ${problem}`, { file: source, func: fn.name, op: node.name });
    }
  }
}
