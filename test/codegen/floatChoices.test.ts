/**
 * How the C emitter writes float32 choices: against 0 (a ReLU) and in a Select on the bits
 * (uma_*_sel, uma_select_f32), elsewhere as the branching helpers, which cost less where one
 * side almost always wins.
 */
import { generateC } from '../../src/codegen/c/generate';
import { binary, bufferLoad, bufferStore, callExtern, evaluate, floatImm, forLoop, makeBuffer, makeVar, max, min, mul, primFunc, select, tirModule } from '../../src/ir/tir/builder';
import { Expr } from '../../src/ir/tir/nodes';
import { opFunc } from './modules';

function emitted(value: (x: Expr) => Expr): string {
  const src = makeBuffer('src', 'float32', [8]);
  const dst = makeBuffer('dst', 'float32', [8]);
  const i = makeVar('i');
  const x = makeVar('x', 'handle', 'float32');
  const y = makeVar('y', 'handle', 'float32');
  const module = tirModule([
    ['__tvm_main__', primFunc({ params: [x, y], body: evaluate(callExtern('tvmgen_default_fused_op', [x, y])) })],
    ['tvmgen_default_fused_op', opFunc([src, dst], () => forLoop(i, 0, 8, bufferStore(dst, value(bufferLoad(src, [i])), [i])))],
  ]);
  const artifacts = generateC({ module, inputs: [{ name: 'x', dtype: 'float32', shape: [8] }], outputs: [{ name: 'y', dtype: 'float32', shape: [8] }] });
  return artifacts.files.find((f) => f.content.includes('tvmgen_default_fused_op(float'))!.content;
}

describe('float32 choices in the C', () => {
  it('a clamp at 0 chooses on the bits, a clamp at 6 or the float range branches', () => {
    expect(emitted((x) => min(max(x, floatImm(0)), floatImm(6)))).toMatch(/uma_min_f32\(uma_max_f32_sel\(/);
    expect(emitted((x) => min(max(x, floatImm(-3.4028234663852886e38)), floatImm(3.4028234663852886e38)))).not.toContain('_sel');
  });

  it('a Select of floats is uma_select_f32 (both arms are evaluated in TIR anyway)', () => {
    const c = emitted((x) => select(binary('GT', x, floatImm(0)), x, mul(x, floatImm(0.5))));
    expect(c).toMatch(/uma_select_f32\(\(.* > 0\.0+f\), .*\)/);
    expect(c).not.toMatch(/\? /);
  });
});
