import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { CallNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { defaultPools, parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { expectRunsByteExact, fixedInput } from '../e2e/harness';
import { firstMismatch, runLiteRt } from '../oracle/litert';
import { mobilenetV2Blocks } from './mobilenetBlocks';

class HostOnlyBackend extends UmaBackend {
  readonly targetName = 'host_only';
}

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(VanillaBackend);
registry.register(AccelBackend);
registry.register(DmaLocalBackend);

const external = (pools: readonly PoolInfo[]): PoolInfo[] => pools.map((p) => ({ ...p, internal: false }));

const SETUPS: Record<string, { pools?: () => PoolInfo[]; ioInWorkspace: boolean }> = {
  host_only: { ioInWorkspace: false },
  vanilla: { pools: () => external(defaultPools(['c', 'vanilla'])), ioInWorkspace: false },
  accel: {
    pools: () => external(parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools')),
    ioInWorkspace: true,
  },
  dma_local: {
    pools: () => external(parsePoolsJson(fs.readFileSync('backends/dma_local/pools.json', 'utf8'), 'dma_local pools')),
    ioInWorkspace: true,
  },
};

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
   * XNNPack's int8 ADD rounds differently from TFLite Micro's on some elements (1 LSB); the
   * next 1x1 expand conv multiplies such a difference by its gain (input scale x weight /
   * output scale, about 4 here), so later layers drift further. Each layer up to and
   * including the first ADD must be within 1 LSB; the logits within 8 LSB (a wrong
   * transpose, pad or stride would be off by far more).
   */
  it('agrees with LiteRT: within 1 LSB through the first residual ADD, within 8 LSB at the logits', () => {
    const all = mobilenetV2Blocks({ everyActivation: true });
    const every = importTflite(all, 'every');
    const mine = interpret(every, inputs);
    const lite = runLiteRt(all, inputs);
    const names = every.functions.get(MAIN_FUNCTION)!.outputs;
    const firstAdd = names.findIndex((n) => n.startsWith('add_'));
    expect(firstAdd).toBeGreaterThan(4);
    for (let k = 0; k <= firstAdd; k++) expect([names[k], firstMismatch('int8', mine[k], lite[k].data, { lsb: 1 })]).toEqual([names[k], null]);
    const last = names.length - 1;
    expect(Array.from(mine[last])).toEqual(Array.from(expected[0]));
    expect(firstMismatch('int8', mine[last], lite[last].data, { lsb: 8 })).toBeNull();
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
