/**
 * Real models partitioned with a backend whose patterns are conv2d and dense (and, in a
 * second set, depthwise_conv2d too): every call of those operators is offloaded and nothing
 * else, the external-function counts match what the op list and its adjacency predict, and
 * the partitioned module computes the same outputs as the original.
 */
import { BackendRegistry } from '../../src/backend';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { GraphFunction, IRModule, tensorBytes } from '../../src/ir/graph';
import { interpret } from '../../src/interpreter';
import { externalFunctions, isConstant, isOp, optionalArg, partition, wildcard } from '../../src/partition';
import { ConfigurableBackend, calls, expectWellFormed, flattenMain, mainOf, opRecords } from './helpers';

const CONV_DENSE = ['conv2d', 'dense'];

function registry(offloaded: readonly string[] = CONV_DENSE): BackendRegistry {
  const reg = new BackendRegistry();
  reg.register(
    new ConfigurableBackend('accel', (r) => {
      for (const op of offloaded) r.pattern(op, isOp(op)(wildcard(), isConstant(), optionalArg(isConstant())));
    }),
  );
  return reg;
}

const opOf = (fn: GraphFunction, name: string): string | undefined => {
  const n = fn.nodes.find((x) => x.name === name);
  return n?.kind === 'call' && n.callee.kind === 'op' ? n.callee.op : undefined;
};

/**
 * Expected counts from the original graph alone. Unmerged: one function per offloaded call.
 * Merged: each producer→consumer edge between offloaded calls joins two functions, provided
 * the producer's value goes nowhere else (one output per function); on these models the
 * joinable edges form a forest, so every such edge removes exactly one function.
 */
function expectedCounts(main: GraphFunction, ops: readonly string[]): { unmerged: number; merged: number } {
  const offloaded = calls(main).filter((c) => c.callee.kind === 'op' && ops.includes(c.callee.op));
  const consumers = (name: string) => calls(main).filter((c) => c.args.includes(name));
  let joinable = 0;
  for (const c of offloaded) {
    for (const producer of new Set(c.args)) {
      const op = opOf(main, producer);
      if (op === undefined || !ops.includes(op)) continue;
      if (consumers(producer).length === 1 && !main.outputs.includes(producer)) joinable++;
    }
  }
  return { unmerged: offloaded.length, merged: offloaded.length - joinable };
}

function offloadedOps(mod: IRModule): string[] {
  return externalFunctions(mod, 'accel').flatMap((f) => calls(mod.functions.get(f) as GraphFunction).map((c) => c.name));
}

/** Deterministic pseudo-random bytes (xorshift), so the interpreter sees non-trivial input. */
function inputBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

const WITH_DEPTHWISE = ['conv2d', 'depthwise_conv2d', 'dense'];

describe.each([
  ['person_detect', CONV_DENSE, { unmerged: 14, merged: 14 }],
  ['kws_ref_model', CONV_DENSE, { unmerged: 6, merged: 6 }],
  ['pretrainedResnet_quant', CONV_DENSE, { unmerged: 10, merged: 7 }],
  ['ad01_int8', CONV_DENSE, { unmerged: 10, merged: 1 }],
  ['person_detect', WITH_DEPTHWISE, { unmerged: 28, merged: 2 }],
  ['kws_ref_model', WITH_DEPTHWISE, { unmerged: 10, merged: 2 }],
])('%s offloading %j', (model, ops, handCounted) => {
  const original = loadTfliteFile(`models/${model}.tflite`);
  const main = mainOf(original);
  const expected = expectedCounts(main, ops);
  const merged = partition(original, registry(ops), 'accel', { mergeRegions: true });
  const unmerged = partition(original, registry(ops), 'accel', { mergeRegions: false });

  it('agrees with a count made by reading the op list', () => {
    // Hand counts from the printed op lists: person_detect has 13 pointwise convs between
    // depthwise ones plus the head conv, never adjacent; kws 5 convs + 1 dense, none adjacent;
    // resnet 9 convs + 1 dense where c1→c2, c3→c4, c6→c7 are single-consumer conv chains;
    // ad01 is a chain of 10 dense layers. With depthwise too, everything before the average
    // pool is one chain, and the layer(s) after it another.
    expect({ unmerged: expected.unmerged, merged: expected.merged }).toEqual(handCounted);
  });

  it('offloads every call of the pattern operators and nothing else', () => {
    for (const mod of [merged, unmerged]) {
      expectWellFormed(mod);
      const wanted = calls(main).filter((c) => c.callee.kind === 'op' && ops.includes(c.callee.op)).map((c) => c.name);
      expect(offloadedOps(mod).sort()).toEqual([...wanted].sort());
      for (const c of calls(mainOf(mod))) {
        if (c.callee.kind === 'op') expect(ops).not.toContain(c.callee.op);
        else expect(c.callee.name).toMatch(/^accel_main_\d+$/);
      }
      expect(opRecords(flattenMain(mod))).toEqual(opRecords(calls(main)));
    }
  });

  it('creates the expected number of external functions with merging on and off', () => {
    expect(externalFunctions(unmerged, 'accel')).toHaveLength(expected.unmerged);
    expect(externalFunctions(merged, 'accel')).toHaveLength(expected.merged);
    for (const name of externalFunctions(merged, 'accel')) {
      const fn = merged.functions.get(name) as GraphFunction;
      expect(fn.attrs).toMatchObject({ Compiler: 'accel', global_symbol: name });
      expect(fn.outputs).toHaveLength(1);
      for (const c of calls(fn)) {
        // Each offloaded call is a composite of the pattern named after its one operator.
        expect(c.callee.kind).toBe('function');
        const composite = merged.functions.get((c.callee as { name: string }).name) as GraphFunction;
        expect(composite.attrs.Composite).toBe(`accel.${opOf(main, c.name)}`);
      }
    }
  });
});

describe('partitioned models compute what the originals compute', () => {
  it.each([
    ['kws_ref_model', WITH_DEPTHWISE],
    ['pretrainedResnet_quant', CONV_DENSE],
  ])('%s', (model, ops) => {
    const original = loadTfliteFile(`models/${model}.tflite`);
    const merged = partition(original, registry(ops), 'accel');
    const main = mainOf(original);
    const inputs = main.params.map((p, i) => {
      const v = main.nodes.find((n) => n.name === p);
      return inputBytes(tensorBytes(v!.type), 1234 + i);
    });
    expect(interpret(merged, inputs)).toEqual(interpret(original, inputs));
  });
});
