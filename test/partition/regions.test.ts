import { BackendRegistry } from '../../src/backend';
import { GraphFunction, IRModule } from '../../src/ir/graph';
import {
  annotateTarget,
  externalFunctions,
  inlineComposites,
  isConstant,
  isOp,
  mergeComposite,
  mergeCompilerRegions,
  optionalArg,
  partition,
  wildcard,
} from '../../src/partition';
import { ConfigurableBackend, GraphBuilder, Registrar, calls, expectWellFormed, flattenMain, mainOf, opRecords } from './helpers';

const conv = () => isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant()));

function backend(extra: (r: Registrar) => void = () => undefined): ConfigurableBackend {
  return new ConfigurableBackend('accel', (r) => {
    r.pattern('conv2d', conv());
    extra(r);
  });
}

/** Region member lists after MergeComposite + AnnotateTarget + MergeCompilerRegions. */
function regionsOf(mod: IRModule, b: ConfigurableBackend, merge: boolean) {
  const composed = mergeComposite(mod, b.patterns());
  const result = mergeCompilerRegions(mainOf(composed), annotateTarget(composed, b), merge);
  return { ...result, members: result.regions.map((r) => r.nodes) };
}

function partitioned(mod: IRModule, b: ConfigurableBackend, mergeRegions: boolean): IRModule {
  const reg = new BackendRegistry();
  reg.register(b);
  const out = partition(mod, reg, 'accel', { mergeRegions });
  expectWellFormed(out);
  // Partitioning only regroups calls: inlined back, main is the original program.
  expect(opRecords(flattenMain(out))).toEqual(opRecords(calls(mainOf(mod))));
  return out;
}

/** x → c1 → a = add(c1, y) → c2 */
function convAddConv(): IRModule {
  const g = new GraphBuilder();
  g.input('x');
  g.input('y');
  g.conv('c1', 'x');
  g.op('a', 'add', ['c1', 'y']);
  g.conv('c2', 'a');
  return g.module(['c2']);
}

/** x → c1 → (c2, c3) → s = add(c2, c3) */
function branches(): IRModule {
  const g = new GraphBuilder();
  g.input('x');
  g.conv('c1', 'x');
  g.conv('c2', 'c1');
  g.conv('c3', 'c1');
  g.op('s', 'add', ['c2', 'c3']);
  return g.module(['s']);
}

/** c1 → p = max_pool2d(c1) (host) → a = add(c1, p): merging c1 with a would need p inside. */
function cycleIfMerged(): IRModule {
  const g = new GraphBuilder();
  g.input('x');
  g.conv('c1', 'x');
  g.op('p', 'max_pool2d', ['c1'], { pool_size: [1, 1], strides: [1, 1], padding: [0, 0, 0, 0] });
  g.op('a', 'add', ['c1', 'p']);
  return g.module(['a']);
}

describe('AnnotateTarget', () => {
  it('marks composites of the target and supported ops that pass their predicate', () => {
    const b = backend((r) => r.supportedOp('add', (call) => call.args[1] !== 'y'));
    const composed = mergeComposite(branches(), b.patterns());
    expect([...annotateTarget(composed, b).nodes]).toEqual(['c1', 'c2', 'c3', 's']);
    const composed2 = mergeComposite(convAddConv(), b.patterns());
    expect([...annotateTarget(composed2, b).nodes]).toEqual(['c1', 'c2']);
    // Another target's composites are not ours.
    const other = new ConfigurableBackend('npu', (r) => r.pattern('conv2d', conv()));
    expect([...annotateTarget(composed, other).nodes]).toEqual([]);
  });
});

describe('MergeCompilerRegions', () => {
  it('conv→add→conv: merges across a supported add, not across a host add', () => {
    expect(regionsOf(convAddConv(), backend(), true).members).toEqual([['c1'], ['c2']]);
    expect(regionsOf(convAddConv(), backend((r) => r.supportedOp('add')), true).members).toEqual([['c1', 'a', 'c2']]);
    expect(regionsOf(convAddConv(), backend((r) => r.supportedOp('add')), false).members).toEqual([['c1'], ['a'], ['c2']]);
  });

  it('branches: one region once the diamond closes, none while an output would leak', () => {
    const convOnly = regionsOf(branches(), backend(), true);
    expect(convOnly.members).toEqual([['c1'], ['c2'], ['c3']]);
    expect(convOnly.decisions).toEqual([
      { producer: 'c1', consumer: 'c2', merged: false, reason: 'multiple-outputs' },
      { producer: 'c1', consumer: 'c3', merged: false, reason: 'multiple-outputs' },
    ]);
    const withAdd = regionsOf(branches(), backend((r) => r.supportedOp('add')), true);
    expect(withAdd.members).toEqual([['c1', 'c2', 'c3', 's']]);
  });

  it('refuses a merge that would create a cycle through host code', () => {
    const r = regionsOf(cycleIfMerged(), backend((reg) => reg.supportedOp('add')), true);
    expect(r.members).toEqual([['c1'], ['a']]);
    expect(r.decisions).toEqual([{ producer: 'c1', consumer: 'a', merged: false, reason: 'cycle' }]);
  });

  it('refuses a merge that would give the region two outputs', () => {
    const g = new GraphBuilder();
    g.input('x');
    g.conv('c1', 'x');
    g.conv('c2', 'c1');
    const r = regionsOf(g.module(['c2', 'c1']), backend(), true);
    expect(r.members).toEqual([['c1'], ['c2']]);
    expect(r.decisions).toEqual([{ producer: 'c1', consumer: 'c2', merged: false, reason: 'multiple-outputs' }]);
  });
});

describe('PartitionGraph through the pipeline', () => {
  it('builds external functions with Compiler, global_symbol, params and one output', () => {
    const out = partitioned(convAddConv(), backend((r) => r.supportedOp('add')), true);
    expect(externalFunctions(out, 'accel')).toEqual(['accel_main_0']);
    const ext = out.functions.get('accel_main_0') as GraphFunction;
    expect(ext.attrs).toEqual({ Compiler: 'accel', global_symbol: 'accel_main_0', target: 'accel', Primitive: true });
    expect(ext.params).toEqual(['x', 'y']);
    expect(ext.outputs).toEqual(['c2']);
    // Weights live with the composites that read them; main keeps none.
    const constantsOf = (f: string) => (out.functions.get(f) as GraphFunction).nodes.filter((n) => n.kind === 'constant').map((n) => n.name);
    expect(constantsOf('accel_main_0')).toEqual([]);
    expect(constantsOf('accel.conv2d_0')).toEqual(['c1_w', 'c1_b']);
    expect(constantsOf('main')).toEqual([]);
    // Composites stay functions called from the external function (lowering reads their names).
    expect(calls(ext).map((c) => [c.name, c.callee])).toEqual([
      ['c1', { kind: 'function', name: 'accel.conv2d_0' }],
      ['a', { kind: 'op', op: 'add' }],
      ['c2', { kind: 'function', name: 'accel.conv2d_1' }],
    ]);
    expect([...out.functions.keys()]).toEqual(['main', 'accel.conv2d_0', 'accel.conv2d_1', 'accel_main_0']);
    const main = mainOf(out);
    expect(main.nodes.map((n) => n.name)).toEqual(['x', 'y', 'c2']);
    expect(calls(main)[0].callee).toEqual({ kind: 'function', name: 'accel_main_0' });
  });

  it("inlineComposites flattens external functions and records each call's composite", () => {
    const out = inlineComposites(partitioned(convAddConv(), backend((r) => r.supportedOp('add')), true), 'accel');
    expectWellFormed(out);
    const ext = out.functions.get('accel_main_0') as GraphFunction;
    expect(calls(ext).map((c) => [c.name, c.callee, c.composite])).toEqual([
      ['c1', { kind: 'op', op: 'conv2d' }, { name: 'accel.conv2d', instance: 'accel.conv2d_0' }],
      ['a', { kind: 'op', op: 'add' }, undefined],
      ['c2', { kind: 'op', op: 'conv2d' }, { name: 'accel.conv2d', instance: 'accel.conv2d_1' }],
    ]);
    expect(ext.nodes.filter((n) => n.kind === 'constant').map((n) => n.name)).toEqual(['c1_w', 'c1_b', 'c2_w', 'c2_b']);
    expect([...out.functions.keys()]).toEqual(['main', 'accel_main_0']);
    expect(opRecords(flattenMain(out))).toEqual(opRecords(calls(mainOf(convAddConv()))));
  });

  it('inlineComposites renames inner values that clash and shares repeated constants', () => {
    // Two matches of conv2d_add inside one region; the second reuses the first's weight.
    const g = new GraphBuilder();
    g.input('x');
    const w = g.constant('w');
    g.op('c1', 'conv2d', ['x', w]);
    g.op('a1', 'add', ['c1', 'x']);
    g.op('c2', 'conv2d', ['a1', w]);
    g.op('a2', 'add', ['c2', 'a1']);
    const mod = g.module(['a2']);
    const b = new ConfigurableBackend('accel', (r) => r.pattern('conv2d_add', isOp('add')(conv(), wildcard())));
    const out = inlineComposites(partitioned(mod, b, true), 'accel');
    expectWellFormed(out);
    const ext = out.functions.get('accel_main_0') as GraphFunction;
    expect(ext.nodes.map((n) => n.name)).toEqual(['x', 'w', 'c1', 'a1', 'c2', 'a2']);
    expect(opRecords(flattenMain(out))).toEqual(opRecords(calls(mainOf(mod))));
  });

  it('counts external functions with merging on and off', () => {
    const b = () => backend((r) => r.supportedOp('add'));
    expect(externalFunctions(partitioned(convAddConv(), b(), true), 'accel')).toHaveLength(1);
    expect(externalFunctions(partitioned(convAddConv(), b(), false), 'accel')).toHaveLength(3);
    expect(externalFunctions(partitioned(branches(), b(), true), 'accel')).toHaveLength(1);
    expect(externalFunctions(partitioned(branches(), backend(), true), 'accel')).toHaveLength(3);
    const cyc = partitioned(cycleIfMerged(), b(), true);
    expect(externalFunctions(cyc, 'accel')).toEqual(['accel_main_0', 'accel_main_1']);
    expect(calls(mainOf(cyc)).map((c) => [c.name, c.callee.kind === 'function' ? c.callee.name : c.callee.op])).toEqual([
      ['c1', 'accel_main_0'],
      ['p', 'max_pool2d'],
      ['a', 'accel_main_1'],
    ]);
  });

  it('runs graph passes at their phases with the target attributes', () => {
    const log: string[] = [];
    const b = backend((r) => {
      r.attr('dimension', 16);
      const pass = (name: string, phase: 'pre_partitioning' | 'post_partitioning_0' | 'post_partitioning_1') => ({
        name,
        phase,
        run: (m: IRModule, ctx: { target: string; attrs: Record<string, unknown> }) => {
          const kinds = [...m.functions.values()].map((f) => (f.attrs.Composite ? 'composite' : f.attrs.Compiler ? 'external' : f.name));
          log.push(`${name}@${ctx.target}/${String(ctx.attrs.dimension)}: ${kinds.join(',')}`);
          return m;
        },
      });
      r.graphPass('post_partitioning_1', pass('late', 'post_partitioning_1'));
      r.graphPass('pre_partitioning', pass('early', 'pre_partitioning'));
      r.graphPass('post_partitioning_0', pass('mid', 'post_partitioning_0'));
    });
    const reg = new BackendRegistry();
    reg.register(b);
    partition(convAddConv(), reg, 'accel', { attrs: { dimension: 32 } });
    expect(log).toEqual([
      'early@accel/32: main',
      'mid@accel/32: main,composite,composite,external,external',
      'late@accel/32: main,composite,composite,external,external',
    ]);
  });

  it('lets a pre-partitioning pass rewrite the graph before matching', () => {
    // Turns every max_pool2d into avg_pool2d; the backend then offloads avg_pool2d only.
    const b = backend((r) => {
      r.supportedOp('avg_pool2d');
      r.graphPass('pre_partitioning', {
        name: 'max_to_avg',
        phase: 'pre_partitioning',
        run: (m) => {
          const main = mainOf(m);
          const nodes = main.nodes.map((n) =>
            n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'max_pool2d' ? { ...n, callee: { kind: 'op' as const, op: 'avg_pool2d' } } : n,
          );
          return { ...m, functions: new Map([...m.functions, ['main', { ...main, nodes }]]) };
        },
      });
    });
    const reg = new BackendRegistry();
    reg.register(b);
    const out = partition(cycleIfMerged(), reg, 'accel', { mergeRegions: false });
    const callees = externalFunctions(out, 'accel').map((f) => calls(out.functions.get(f) as GraphFunction).map((c) => c.callee));
    expect(callees).toEqual([[{ kind: 'function', name: 'accel.conv2d_0' }], [{ kind: 'op', op: 'avg_pool2d' }]]);
  });
});
