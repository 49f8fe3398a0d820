import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { CallNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { expectRunsByteExact, fixedInput } from '../e2e/harness';
import { firstMismatch, runLiteRt } from '../oracle/litert';
import { interpretAlone } from './liteRtLayers';
import { mobilenetV2Blocks } from '../../bench/mobilenetV2';
import { BACKEND_SETUPS, bundledBackendRegistry } from './bundledBackends';

const registry = bundledBackendRegistry();

const SETUPS = BACKEND_SETUPS;

describe('PyTorch-export-style MobileNetV2 block chain (int8), built with the writer', () => {
  const bytes = mobilenetV2Blocks();
  const model = importTflite(bytes, 'mobilenet_v2_blocks.tflite');
  const inputs = [fixedInput(3 * 16 * 16, 5)];
  const expected = interpret(model, inputs);

  it('has the exported shape: TRANSPOSE first, PAD before every strided conv, MEAN and dense last', () => {
    const calls = model.functions.get(MAIN_FUNCTION)!.nodes.filter((n): n is CallNode => n.kind === 'call');
    const ops = calls.map((c) => (c.callee.kind === 'op' ? c.callee.op : '?'));
    expect(ops[0]).toBe('transpose');
    expect(ops.slice(-2)).toEqual(['mean', 'dense']);
    expect(ops.filter((o) => o === 'pad')).toHaveLength(3);
    calls.forEach((c, i) => {
      const strided = (c.attrs.strides as number[] | undefined)?.[0] === 2;
      if (strided) expect(ops[i - 1]).toBe('pad');
    });
    expect(ops.filter((o) => o === 'add')).toHaveLength(2);
  });

  /**
   * XNNPack's int8 kernels round some elements differently from TFLite Micro's (1 LSB), and
   * later layers amplify such differences, so the whole chain is compared layer by layer:
   * every operator, run by uma-ts's interpreter on LiteRT's own input activations, must give
   * LiteRT's output within 1 LSB.
   */
  it('agrees with LiteRT layer by layer within 1 LSB', () => {
    const all = mobilenetV2Blocks({ everyActivation: true });
    const every = importTflite(all, 'every');
    const lite = runLiteRt(all, inputs);
    const fn = every.functions.get(MAIN_FUNCTION)!;
    const liteByName = new Map<string, Uint8Array>(fn.outputs.map((n, k) => [n, lite[k].data]));
    liteByName.set(fn.params[0], inputs[0]);
    const nodes = new Map(fn.nodes.map((n) => [n.name, n]));
    const calls = fn.nodes.filter((n): n is CallNode => n.kind === 'call');
    expect(calls.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const call of calls) {
      // The call alone: its activation inputs become params fed with LiteRT's values.
      const params = call.args.filter((a) => nodes.get(a)!.kind !== 'constant');
      const mine = interpretAlone(call, nodes, params.map((p) => liteByName.get(p)!));
      const m = firstMismatch('int8', mine, liteByName.get(call.name)!, { lsb: 1 });
      if (m) failures.push(`${call.name} (${call.callee.kind === 'op' ? call.callee.op : '?'}): ${m}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(Object.keys(SETUPS))('compiles for %s and runs byte-exact under gcc', (backend) => {
    const s = SETUPS[backend];
    const result = compileModel(model, { backend, registry, pools: s.pools?.(), ioInWorkspace: s.ioInWorkspace, timeBudgetMs: 300 });
    expect(result.access.violations).toEqual([]);
    const offloaded = [...result.partitioned.functions.values()].some((f) => f.attrs.Compiler === backend);
    expect(offloaded).toBe(backend !== 'host_only');
    expectRunsByteExact(result, inputs, expected);
  });
});
