/**
 * A deliberately broken backend kernel: vanilla's conv2d C kernel with its output offset off
 * by one on convolutions with more than one input channel. kws_ref_model's first conv2d has
 * one input channel (correct); its second conv2d (operator #2, after a host depthwise conv)
 * is the first wrong one. `compareIntermediates` must name that operator, its function and
 * target, and where the tensor lives.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { CodegenHooks, DEFAULT_CONSTANT_POOL, DEFAULT_WORKSPACE_POOL, UmaBackend, verifyModel } from '../../src';
import { vanillaIncludes, vanillaRuntimeSources } from '../../backends/vanilla/codegen';
import { vanillaConv2dPass } from '../../backends/vanilla/passes';
import { conv2dPattern } from '../../backends/vanilla/patterns';
import { vanillaConv2dStrategy } from '../../backends/vanilla/strategies';

const BROKEN_HOOKS: CodegenHooks = {
  includes: vanillaIncludes,
  runtimeSources: () =>
    vanillaRuntimeSources().map((f) => {
      if (!f.name.endsWith('.c')) return f;
      const broken = f.content.replace('+ output_offset;', '+ output_offset + (in_c > 1 ? 1 : 0);');
      if (broken === f.content) throw new Error('the kernel no longer has the line this test breaks');
      return { ...f, content: broken };
    }),
};

class BrokenVanilla extends UmaBackend {
  readonly targetName = 'vanilla';
  constructor() {
    super();
    this.registerPattern('conv2d', conv2dPattern());
    this.registerOperatorStrategy('conv2d', vanillaConv2dStrategy);
    this.registerTirPass(1, vanillaConv2dPass);
    this.registerCodegen(BROKEN_HOOKS);
    this.registerMemory({
      pools: [
        { pool: DEFAULT_WORKSPACE_POOL, access: 'rw' },
        { pool: DEFAULT_CONSTANT_POOL, access: 'rw' },
      ],
      operandConstraints: [],
    });
  }
}

describe('--compare-intermediates', () => {
  const registry = new BackendRegistry();
  registry.register(BrokenVanilla);
  const model = 'models/kws_ref_model.tflite';

  it('names the first operator whose output differs: the second conv2d, offloaded to vanilla', () => {
    const graph = loadTfliteFile(model);
    const calls = graph.functions.get('main')!.nodes.filter((n) => n.kind === 'call');
    const secondConv = calls.filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'conv2d')[1].name;

    const report = verifyModel(model, { backend: 'vanilla', registry, compareIntermediates: true, seed: 5 });
    expect(report.ok).toBe(false);
    expect(report.comparisons[0].equal).toBe(false);
    expect(report.intermediates!.compared).toBe(calls.length);
    const d = report.intermediates!.firstDivergence!;
    expect(d.tensor).toBe(secondConv);
    expect(d.operator).toMatch(/conv2d/);
    expect(d.target).toBe('vanilla');
    expect(d.func).toMatch(/^vanilla_main_\d+$/);
    expect(d.pool).toBe('application');
    expect(d.actual - d.expected).toBe(1);
  }, 120000);

  it('finds nothing to name when the kernel is right', () => {
    const report = verifyModel(model, { backend: 'vanilla', compareIntermediates: true, seed: 5 });
    expect(report.ok).toBe(true);
    expect(report.intermediates!.firstDivergence).toBeUndefined();
  }, 120000);
});
