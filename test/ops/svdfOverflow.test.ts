/**
 * int16 SVDF (keyword_scrambled: int16 state and weights_time): the time contraction sums
 * int16 x int16 products over the memory, and the bias is added to that sum, both in int32.
 * On `uma-ts run`'s own seeded random inputs the sum passes int32 (UBSan: "signed integer
 * overflow: -2122229657 + -34351125" in the bias stage). TFLite Micro's C wraps in practice,
 * the interpreter wraps (`| 0`), and the generated C must wrap too, through uint32, rather
 * than overflow a signed int (undefined behaviour). Built under UBSan, every run must be clean
 * and match the interpreter.
 */
import * as path from 'path';
import { runCli } from '../helpers/cli';

const MODEL = path.join(__dirname, '..', '..', 'models', 'keyword_scrambled.tflite');

describe('svdf int16: int32 accumulations that pass int32 in generated C', () => {
  it.each(['1', '2'])('keyword_scrambled under UBSan, seed %s: no signed overflow, outputs match the interpreter', async (seed) => {
    const r = await runCli(['run', MODEL, '--backend', 'vanilla', '--runs', '3', '--seed', seed, '--cc', 'gcc -fsanitize=undefined -fno-sanitize-recover=all']);
    expect(r.err).not.toMatch(/runtime error|error:/);
    expect(r.code).toBe(0);
  });
});
