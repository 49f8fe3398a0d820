/**
 * Reproducible data for the example backends' tests: seeded random bytes for weights and
 * model inputs, from the one public generator.
 */
import { IRModule, MAIN_FUNCTION, randomInt, seededRandom, tensorBytes } from '../src/index';

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
