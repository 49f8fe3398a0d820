/** TFLite's int16 LOGISTIC/TANH kernels: parameters as TFLM prepares them, and accuracy against the exact functions. */
import { logisticInt16, sigmoidInt16Params, sigmoidInt16Segmented, tanhInt16 } from '../../src/arith/sigmoidInt16';

const OUT = { scale: 1 / 32768, zeroPoint: 0 };

describe('int16 sigmoid kernels', () => {
  it('prepare: power-of-two input scales use the table directly, others a multiplier above 32767/2', () => {
    expect(sigmoidInt16Params('logistic', { scale: 1 / 4096, zeroPoint: 0 }, OUT)).toEqual({ inputMultiplier: 0, inputLeftShift: 0 });
    expect(sigmoidInt16Params('tanh', { scale: 1 / 2048, zeroPoint: 0 }, OUT)).toEqual({ inputMultiplier: 0, inputLeftShift: 1 });
    // logistic takes only shift 0 as a power of two: 2^-11 goes through the multiplier.
    const p = sigmoidInt16Params('logistic', { scale: 1 / 2048, zeroPoint: 0 }, OUT);
    expect(p).toEqual({ inputMultiplier: 24576, inputLeftShift: 12 });
    expect(sigmoidInt16Params('tanh', { scale: 0.001, zeroPoint: 3 }, OUT)).toMatch(/zero points 0/);
    expect(sigmoidInt16Params('tanh', { scale: 0.001, zeroPoint: 0 }, { scale: 1 / 256, zeroPoint: 0 })).toMatch(/2\^-15/);
  });

  it.each([
    ['logistic', 1 / 4096, (v: number) => 1 / (1 + Math.exp(-v)), 1],
    ['logistic', 0.0007, (v: number) => 1 / (1 + Math.exp(-v)), 1],
    ['tanh', 1 / 2048, Math.tanh, 2],
    ['tanh', 0.0003, Math.tanh, 2],
  ] as const)('%s at input scale %f stays within %i LSB of the exact function', (op, scale, exact, _tol) => {
    const p = sigmoidInt16Params(op, { scale, zeroPoint: 0 }, OUT);
    if (typeof p === 'string') throw new Error(p);
    const fn = op === 'logistic' ? logisticInt16 : tanhInt16;
    let worst = 0;
    for (let x = -32768; x <= 32767; x += 13) {
      const ideal = Math.min(32767, exact(x * scale) * 32768);
      worst = Math.max(worst, Math.abs(fn(p, x) - ideal));
    }
    expect(worst).toBeLessThanOrEqual(_tol + 0.5);
  });

  // The generated C computes the segmented form; every int16 input at every kind of scale
  // (power of two, TANH's shift-1 power of two, general multipliers small and large).
  it.each([
    ['logistic', 1 / 4096],
    ['logistic', 0.0007],
    ['logistic', 0.0003],
    ['logistic', 1 / 2048],
    ['logistic', 0.01],
    ['tanh', 1 / 4096],
    ['tanh', 1 / 2048],
    ['tanh', 4 / 32768],
    ['tanh', 0.0003],
    ['tanh', 0.01],
  ] as const)('the segmented form of %s at input scale %f equals the reference for every int16 input', (op, scale) => {
    const p = sigmoidInt16Params(op, { scale, zeroPoint: 0 }, OUT);
    if (typeof p === 'string') throw new Error(p);
    const fn = op === 'logistic' ? logisticInt16 : tanhInt16;
    const bad: number[] = [];
    for (let x = -32768; x <= 32767; x++) if (sigmoidInt16Segmented(op, p, x) !== fn(p, x)) bad.push(x);
    expect(bad.slice(0, 5)).toEqual([]);
  });
});
