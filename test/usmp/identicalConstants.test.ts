/**
 * Constants with the same bytes (and pools, alignment, type and size) share one place in the
 * constant pool: unit cases of the grouping, and a model whose int8 TANH and LOGISTIC operators
 * repeat with the same quantization, compiled, checked under gcc and reported.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { AllocateConst } from '../../src/ir/tir/nodes';
import { formatMemoryReport } from '../../src/report/memoryReport';
import { ConstantRecord, shareIdenticalConstants } from '../../src/usmp/identicalConstants';
import { PoolInfo } from '../../src/usmp/types';
import { expectRunsByteExact } from '../e2e/harness';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const pool = (name: string): PoolInfo => ({ name, kind: 'constant', targetAccess: { c: 'ro' }, alignment: 16, internal: true });
const FLASH = pool('flash');
const ROM = pool('rom');

function constant(name: string, bytes: number[], o: Partial<Omit<ConstantRecord, 'name' | 'node'>> & { dtype?: AllocateConst['dtype']; data?: Uint8Array } = {}): ConstantRecord {
  const data = o.data ?? Uint8Array.from(bytes);
  const node = { kind: 'AllocateConst', dtype: o.dtype ?? 'int8', data } as unknown as AllocateConst;
  return { name, node, sizeBytes: o.sizeBytes ?? bytes.length, alignment: o.alignment ?? 16, candidates: o.candidates ?? [FLASH] };
}

describe('shareIdenticalConstants', () => {
  it('maps each repeat to the first constant with its bytes', () => {
    const sameAs = shareIdenticalConstants([constant('a', [1, 2, 3]), constant('b', [1, 2, 4]), constant('c', [1, 2, 3]), constant('d', [1, 2, 4]), constant('e', [1, 2, 3])]);
    expect([...sameAs]).toEqual([
      ['c', 'a'],
      ['d', 'b'],
      ['e', 'a'],
    ]);
  });

  it('keeps apart constants of other pools, pool order, alignment, type or size', () => {
    const bytes = [0, 0, 0, 0];
    const sameAs = shareIdenticalConstants([
      constant('a', bytes),
      constant('pools', bytes, { candidates: [ROM] }),
      constant('order', bytes, { candidates: [ROM, FLASH] }),
      constant('order2', bytes, { candidates: [FLASH, ROM] }),
      constant('aligned', bytes, { alignment: 64 }),
      constant('typed', bytes, { dtype: 'int32' }),
      constant('longer', [0, 0, 0, 0, 0]),
    ]);
    expect(sameAs.size).toBe(0);
  });

  it('compares the bytes the pool holds: data shorter than the buffer is zero-filled there', () => {
    const sameAs = shareIdenticalConstants([
      constant('short', [7], { sizeBytes: 4 }),
      constant('alsoShort', [7], { sizeBytes: 4 }),
      constant('full', [7, 0, 0, 0]),
      constant('view', [], { data: Uint8Array.from([9, 7, 0, 0, 0]).subarray(1), sizeBytes: 4 }),
    ]);
    expect([...sameAs]).toEqual([
      ['alsoShort', 'short'],
      ['view', 'full'],
    ]);
  });
});

/** int8 x -> (TANH -> LOGISTIC) x `repeats`, every tensor at the same quantization. */
function repeatedActivations(repeats: number): Uint8Array {
  const w = new TfliteWriter('repeated activations');
  const q = { scale: [0.05], zeroPoint: [0] };
  const out = { scale: [1 / 256], zeroPoint: [-128] };
  let cur = w.addInput({ name: 'x', shape: [1, 16], dtype: 'int8', quant: q });
  for (let k = 0; k < repeats; k++) {
    const t = w.addTensor({ name: `tanh${k}`, shape: [1, 16], dtype: 'int8', quant: { scale: [1 / 128], zeroPoint: [0] } });
    w.addOperator({ op: 'TANH', inputs: [cur], outputs: [t] });
    const s = w.addTensor({ name: `sig${k}`, shape: [1, 16], dtype: 'int8', quant: out });
    w.addOperator({ op: 'LOGISTIC', inputs: [t], outputs: [s] });
    const r = w.addTensor({ name: `re${k}`, shape: [1, 16], dtype: 'int8', quant: q });
    w.addOperator({ op: 'QUANTIZE', inputs: [s], outputs: [r] });
    cur = r;
  }
  w.markOutput(cur);
  return w.finish();
}

describe('identical constants in a compiled model', () => {
  it('share their bytes: the pool holds each table once, the program stays byte-exact', () => {
    const compile = (repeats: number) => {
      const registry = new BackendRegistry();
      registry.register(HostOnlyBackend);
      const graph = importTflite(repeatedActivations(repeats), 'repeated.tflite');
      return { graph, result: compileModel(graph, { backend: 'host_only', registry }) };
    };
    const once = compile(1).result.report;
    const { graph, result } = compile(5);
    const constantPool = (r: typeof once) => r.pools.filter((p) => p.kind === 'constant').reduce((s, p) => s + p.sizeBytes, 0);
    // Four more repeats add no constant bytes: their tables are the first repeat's.
    expect(constantPool(once)).toBeGreaterThan(0);
    expect(constantPool(result.report)).toBe(constantPool(once));
    const shared = result.report.sharedConstants ?? [];
    expect(shared.length).toBeGreaterThanOrEqual(4);
    const planned = new Set(result.report.buffers.map((b) => b.name));
    for (const c of shared) {
      expect(planned.has(c.sameAs)).toBe(true);
      expect(planned.has(c.name)).toBe(false);
    }
    expect(formatMemoryReport(result.report)).toMatch(/^Shared constants: \d+ constant\(s\) use the bytes of an identical planned one/m);
    const input = Int8Array.from({ length: 16 }, (_, i) => i * 16 - 128);
    const inputs = [new Uint8Array(input.buffer)];
    expectRunsByteExact(result, inputs, interpret(graph, inputs));
  });
});
