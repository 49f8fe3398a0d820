/**
 * Loop nests that copy one contiguous run become a memmove in the C (copyLoops.ts); anything
 * else stays a loop. The emitted C is checked by compiling and running it against the loop.
 */
import { contiguousCopy } from '../../src/codegen/c/copyLoops';
import { generateC } from '../../src/codegen/c/generate';
import { add, bufferLoad, bufferStore, callExtern, cast, evaluate, forLoop, makeBuffer, makeVar, mul, primFunc, tirModule } from '../../src/ir/tir/builder';
import { For } from '../../src/ir/tir/nodes';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { verifyModel } from '../../src/verify';
import { opFunc } from './modules';

const src = makeBuffer('src', 'int8', [2, 3, 4]);
const dst = makeBuffer('dst', 'int8', [2, 3, 8]);
const i = makeVar('i');
const j = makeVar('j');
const k = makeVar('k');

/** dst[i, j, 4 + k] = src[i, j, k]: a run of 4 per (i, j), rows not adjacent in dst. */
const concatLike = (): For => forLoop(i, 0, 2, forLoop(j, 0, 3, forLoop(k, 0, 4, bufferStore(dst, bufferLoad(src, [i, j, k]), [i, j, add(k, 4)]))));

describe('contiguousCopy', () => {
  it('finds the innermost run where the rows are not adjacent, and merges loops whose runs are', () => {
    const nest = concatLike();
    expect(contiguousCopy(nest)).toBeUndefined();
    const inner = (nest.body as For).body as For;
    const copy = contiguousCopy(inner)!;
    expect(copy.count.value).toBe(4);
    const same = makeBuffer('same', 'int8', [2, 3, 4]);
    const whole = contiguousCopy(forLoop(i, 0, 2, forLoop(j, 0, 3, forLoop(k, 0, 4, bufferStore(same, bufferLoad(src, [i, j, k]), [i, j, k])))))!;
    expect(whole.count.value).toBe(24);
    expect(whole.dst.indices.map((e) => (e.kind === 'IntImm' ? e.value : NaN))).toEqual([0, 0, 0]);
  });

  it('leaves strided, converting, reversed, in-buffer and empty copies as loops', () => {
    const flat = makeBuffer('flat', 'int8', [24]);
    const wide = makeBuffer('wide', 'int16', [24]);
    expect(contiguousCopy(forLoop(k, 0, 12, bufferStore(flat, bufferLoad(src, [0, 0, mul(k, 2)]), [k])))).toBeUndefined();
    expect(contiguousCopy(forLoop(k, 0, 4, bufferStore(wide, cast('int16', bufferLoad(src, [0, 0, k])), [k])))).toBeUndefined();
    expect(contiguousCopy(forLoop(k, 0, 4, bufferStore(flat, bufferLoad(src, [0, 0, add(mul(k, -1), 3)]), [k])))).toBeUndefined();
    expect(contiguousCopy(forLoop(k, 0, 4, bufferStore(flat, bufferLoad(flat, [k]), [add(k, 1)])))).toBeUndefined();
    // Empty: the loop keeps naming both buffers (a zero-size CONCATENATION operand failed -Werror builds).
    expect(contiguousCopy(forLoop(k, 0, 0, bufferStore(flat, bufferLoad(src, [0, 0, k]), [k])))).toBeUndefined();
  });

  it('is emitted as memmove, and the loops it does not take stay loops', () => {
    const x = makeVar('x', 'handle', 'int8');
    const y = makeVar('y', 'handle', 'int8');
    const main = primFunc({ params: [x, y], body: evaluate(callExtern('tvmgen_default_fused_copy', [x, y])) });
    const module = tirModule([
      ['__tvm_main__', main],
      ['tvmgen_default_fused_copy', opFunc([src, dst], () => concatLike())],
    ]);
    const artifacts = generateC({ module, inputs: [{ name: 'x', dtype: 'int8', shape: [2, 3, 4] }], outputs: [{ name: 'y', dtype: 'int8', shape: [2, 3, 8] }] });
    const c = artifacts.files.map((f) => f.content).join('\n');
    expect(c).toMatch(/memmove\(&dst\[[^\]]*\], &src\[[^\]]*\], 4 \* sizeof\(int8_t\)\);/);
    expect(c).toMatch(/for \(int32_t i = 0; i < 2; \+\+i\)/);
    expect(c).not.toMatch(/for \(int32_t k/);
  });

  it('a CONCATENATION with an empty operand builds with -Werror and matches the interpreter', () => {
    const w = new TfliteWriter();
    const q = { scale: [0.5], zeroPoint: [0] };
    const a = w.addInput({ name: 'a', shape: [2, 5], dtype: 'int8', quant: q });
    const b = w.addInput({ name: 'b', shape: [0, 5], dtype: 'int8', quant: q });
    const y = w.addTensor({ name: 'y', shape: [2, 5], dtype: 'int8', quant: q });
    w.addOperator({ op: 'CONCATENATION', inputs: [a, b], outputs: [y], options: tfliteOptions.concatenation(0) });
    w.markOutput(y);
    const report = verifyModel(importTflite(w.finish(), 'm.tflite'), { backend: 'vanilla', seed: 1, cflags: ['-Werror'] });
    expect(report.ok).toBe(true);
  }, 60000);
});
