/**
 * Unary operators whose generated C computes a different but equal form of the interpreter's
 * arithmetic, through the whole pipeline into C, built with gcc and run (one build):
 * - int16 LOGISTIC and TANH (segment tables over both signs, see `sigmoidInt16Segments`) on
 *   every int16 input at each kind of input scale (power of two, TANH's shift-1 power of two,
 *   general multipliers, one saturating over most of the range): only a full sweep holds it.
 * - float HARD_SWISH (its clamp as two Selects) on the values where Math.min/max and a
 *   comparison could part: the clamp's ends and their neighbours, signed zeros, infinities.
 *   (A NaN input is left out: which NaN the interpreter's JavaScript stores is not defined,
 *   and the C passes the input's NaN through, before this form as now.)
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { interpret } from '../../src/interpreter';
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
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

const f32 = Math.fround;
/** The float32 neighbour of x upwards (dir 1) or downwards (-1). */
const next = (x: number, dir: 1 | -1): number => {
  if (x === 0) return dir * f32(1e-45);
  const v = new Float32Array([x]);
  const u = new Int32Array(v.buffer);
  u[0] += x > 0 ? dir : -dir;
  return v[0];
};
const HARD_SWISH_EDGES = [-3, 3, -6, 0, 6, -9].flatMap((e) => [e, next(e, 1), next(e, -1)]);
const HARD_SWISH_INPUTS = [...HARD_SWISH_EDGES, -0, Infinity, -Infinity, f32(3.4e38), f32(-3.4e38), 1e-45, -1e-45, 0.5, -2.5, 4, -4];

describe('unary exact forms: generated C vs interpreter', () => {
  it('int16 LOGISTIC / TANH on every input at all scales, and float HARD_SWISH at its edges, byte for byte', () => {
    const b = new FunctionBuilder();
    const outputs = CASES.map(([op, scale], k) => {
      // Two dimensions: the C loops over the flat index, as for any unbroadcast elementwise op.
      const x = b.param(`x${k}`, qt([256, 256], 'int16', scale));
      return b.call(`y${k}`, op, [x], qt([256, 256], 'int16', 1 / 32768));
    });
    const hs = b.param('h', tensorType([HARD_SWISH_INPUTS.length], 'float32'));
    outputs.push(b.call('hard_swish', 'hard_swish', [hs], tensorType([HARD_SWISH_INPUTS.length], 'float32')));
    const module = moduleOf([b.build(outputs)]);
    const every = new Uint8Array(Int16Array.from({ length: 65536 }, (_, i) => i - 32768).buffer);
    const inputs = [...CASES.map(() => every), new Uint8Array(Float32Array.from(HARD_SWISH_INPUTS).buffer)];
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const result = compileModel(module, { backend: 'nothing', registry });
    expectRunsByteExact(result, inputs, interpret(module, inputs));
  });
});
