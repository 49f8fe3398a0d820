/**
 * GATHER_ND with run-time indices the interpreter refuses (TFLite Micro reports the slice
 * outside params): the generated code clamps the slice offset into params instead. That
 * offset is a sum of index x stride products; computed in int32, a large index overflows,
 * which is undefined behaviour in C. Built under UBSan, the program must run cleanly, and the
 * clamp must pick the first or last slice as the offset's sign says.
 */
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter } from '../../src/frontend/tflite/writer';
import { tensorType } from '../../src/ir/graph/builder';
import { runCompiled } from '../../src/verify/runCompiled';
import { f32, float32Bytes, int32Bytes } from '../lower/helpers';
import { caseModule, opCase } from './opCases';
import { errorOf } from '../helpers/errorOf';

describe('gather_nd: out-of-range run-time indices in generated C', () => {
  it('clamps the slice offset without signed overflow', () => {
    const registry = new BackendRegistry();
    registry.register(VanillaBackend);
    // params [4, 4, 2]: strides 8 and 2; 2^30 * 8 overflows int32.
    const params = Array.from({ length: 32 }, (_, i) => i);
    const c = opCase('gather_nd overflowing indices', 'gather_nd', f32([4, 4, 2]), f32([3, 2]), {}, { moreInputs: [tensorType([3, 2], 'int32')] });
    const module = caseModule([c]);
    const result = compileModel(module, { backend: 'vanilla', registry, timeBudgetMs: 50 });
    const indices = int32Bytes([2 ** 30, 1, -(2 ** 30), 0, 2 ** 30 + 1, 2 ** 29]);
    const run = runCompiled(result.artifacts, {
      invocations: [[float32Bytes(params), indices]],
      cflags: ['-Werror', '-fsanitize=undefined', '-fno-sanitize-recover=all'],
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(Array.from(new Float32Array(run.outputs[0][0].slice().buffer))).toEqual([30, 31, 0, 1, 30, 31]);
  });
});

describe('gather_nd: out-of-range constant indices', () => {
  it('are refused at import, as GATHER refuses its (fuzzed: only `run` failed, naming nothing)', () => {
    const w = new TfliteWriter();
    const params = w.addInput({ name: 'p', shape: [2, 3], dtype: 'float32' });
    const indices = w.addConstant({ name: 'i', shape: [2, 1], dtype: 'int32', data: [1, 5] });
    const y = w.addTensor({ name: 'y', shape: [2, 3], dtype: 'float32' });
    w.addOperator({ op: 'GATHER_ND', inputs: [params, indices], outputs: [y] });
    w.markOutput(y);
    const e = errorOf(() => importTflite(w.finish(), 'g.tflite'));
    expect(e.message).toMatch(/constant index 5 is outside \[0, 2\) on params axis 0 \(TFLite Micro fails every invoke\) \(GATHER_ND at operator #0\)$/);
  });
});
