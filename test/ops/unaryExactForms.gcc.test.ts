/**
 * Unary operators whose generated C computes a different but equal form of the interpreter's
 * arithmetic, through the whole pipeline into C, built with gcc and run (one build):
 * - int16 LOGISTIC and TANH (segment tables over both signs, see `sigmoidInt16Segments`) on
 *   every int16 input at each kind of input scale (power of two, TANH's shift-1 power of two,
 *   general multipliers, one saturating over most of the range): only a full sweep holds it.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { interpret } from '../../src/interpreter';
import { FunctionBuilder, moduleOf } from '../../src/ir/graph/builder';
import { expectRunsByteExact } from '../e2e/harness';
import { qt } from './elementwiseCases';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

const CASES = [
  ['logistic', 1 / 4096],
  ['logistic', 0.0003],
  ['logistic', 0.01],
  ['tanh', 1 / 4096],
  ['tanh', 1 / 2048],
  ['tanh', 0.0003],
  ['tanh', 0.01],
] as const;

describe('unary exact forms: generated C vs interpreter', () => {
  it('int16 LOGISTIC / TANH on every input at all scales, byte for byte', () => {
    const b = new FunctionBuilder();
    const outputs = CASES.map(([op, scale], k) => {
      // Two dimensions: the C loops over the flat index, as for any unbroadcast elementwise op.
      const x = b.param(`x${k}`, qt([256, 256], 'int16', scale));
      return b.call(`y${k}`, op, [x], qt([256, 256], 'int16', 1 / 32768));
    });
    const module = moduleOf([b.build(outputs)]);
    const every = new Uint8Array(Int16Array.from({ length: 65536 }, (_, i) => i - 32768).buffer);
    const inputs = CASES.map(() => every);
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const result = compileModel(module, { backend: 'nothing', registry });
    expectRunsByteExact(result, inputs, interpret(module, inputs));
  });
});
