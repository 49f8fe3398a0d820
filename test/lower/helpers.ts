/** Shared fixtures for lowering tests: seeded random tensors, small graphs, and both oracles. */
import { interpret } from '../../src/interpreter';
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { DType, IRModule, Quantization, TensorType, tensorBytes } from '../../src/ir/graph/types';
import { runMain } from '../../src/ir/tir/eval';
import { TirModule } from '../../src/ir/tir/nodes';
import { CPU_STRATEGIES, LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerToTir } from '../../src/lower/lowerModule';
import { HOST_TARGET, OperatorStrategy } from '../../src/lower/strategy';
import { randomInt } from '../../src/util/random';

export function cpuStrategyFor(target: string, op: string): OperatorStrategy | undefined {
  return target === HOST_TARGET ? CPU_STRATEGIES.get(op) : undefined;
}

export function lowerForCpu(module: IRModule): TirModule {
  return lowerToTir(module, { strategyFor: cpuStrategyFor });
}

/** Seeded generator, so random test data is reproducible. */
export { seededRandom as rng } from '../../src/util/random';

export function randomInts(r: () => number, n: number, lo: number, hi: number): number[] {
  return Array.from({ length: n }, () => randomInt(r, lo, hi));
}

export function int8Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Int8Array.from(values).buffer);
}

export function int32Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Int32Array.from(values).buffer);
}

export function float32Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Float32Array.from(values).buffer);
}

export function q(scale: number | number[], zeroPoint: number | number[] = 0, axis = 0): Quantization {
  const s = (Array.isArray(scale) ? scale : [scale]).map(Math.fround);
  const z = Array.isArray(zeroPoint) ? zeroPoint : s.map(() => zeroPoint);
  return { scale: s, zeroPoint: z, axis };
}

export function i8(shape: number[], scale: number | number[], zp: number | number[] = 0, axis = 0): TensorType {
  return tensorType(shape, 'int8', q(scale, zp, axis));
}

export function f32(shape: number[]): TensorType {
  return tensorType(shape, 'float32');
}

/** Random bytes for a tensor: full-range int8, small int32 biases, floats in [-2, 2). */
export function randomTensor(r: () => number, type: TensorType): Uint8Array {
  const n = type.shape.reduce((a, b) => a * b, 1);
  const kinds: Partial<Record<DType, () => Uint8Array>> = {
    int8: () => int8Bytes(randomInts(r, n, -128, 127)),
    int16: () => new Uint8Array(Int16Array.from(randomInts(r, n, -3000, 3000)).buffer),
    int32: () => int32Bytes(randomInts(r, n, -2000, 2000)),
    float32: () => float32Bytes(Array.from({ length: n }, () => r() * 4 - 2)),
  };
  const make = kinds[type.dtype];
  if (!make) throw new Error(`no random data for ${type.dtype}`);
  const bytes = make();
  expect(bytes.length).toBe(tensorBytes(type));
  return bytes;
}

/** A main function with one op applied to `input` and constant args. */
export function singleOpModule(
  op: string,
  input: TensorType,
  constants: readonly { type: TensorType; data: Uint8Array }[],
  out: TensorType,
  attrs: Record<string, unknown>,
): IRModule {
  const b = new FunctionBuilder();
  const x = b.param('x', input);
  const args = [x, ...constants.map((c, i) => b.constant(`c${i}`, c.type, c.data))];
  b.call('y', op, args, out, attrs as never);
  return moduleOf([b.build(['y'])]);
}

/** Lowers for the CPU, runs the TIR and the reference interpreter on the same inputs. */
export function runBoth(
  module: IRModule,
  inputs: readonly Uint8Array[],
  strategies: ReadonlyMap<string, OperatorStrategy> = CPU_STRATEGIES,
): { lowered: Uint8Array[]; reference: Uint8Array[]; tir: TirModule } {
  const tir = lowerToTir(module, { strategyFor: (target, op) => (target === HOST_TARGET ? strategies.get(op) : undefined) });
  const lowered = runMain(tir, inputs, { externs: LOWERING_EXTERN_SIMULATIONS });
  const reference = interpret(module, inputs);
  return { lowered, reference, tir };
}
