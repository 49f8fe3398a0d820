import { PatternEntry } from '../../src/backend';
import { CallNode, GraphFunction } from '../../src/ir/graph';
import { isConstant, isOp, mergeComposite, optionalArg, wildcard } from '../../src/partition';
import { ConfigurableBackend, GraphBuilder, calls, expectWellFormed, flattenMain, mainOf, opRecords } from './helpers';

const conv = () => isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant()));
const convAdd = () => isOp('add')(conv(), wildcard());

function patterns(setup: Array<[string, ReturnType<typeof conv>]>, predicate?: PatternEntry['predicate']): readonly PatternEntry[] {
  return new ConfigurableBackend('accel', (r) => setup.forEach(([n, p]) => r.pattern(n, p, predicate))).patterns();
}

/** x → c1 = conv(x) → a = add(c1, y) → c2 = conv(a) */
function convAddConv() {
  const g = new GraphBuilder();
  const x = g.input('x');
  const y = g.input('y');
  const c1 = g.conv('c1', x);
  const a = g.op('a', 'add', [c1, y]);
  const c2 = g.conv('c2', a, true, { strides: [2, 2] });
  return g.module([c2]);
}

function composites(fnMap: ReadonlyMap<string, GraphFunction>): Array<[string, string[]]> {
  return [...fnMap.values()]
    .filter((f) => f.attrs.Composite !== undefined)
    .map((f) => [f.attrs.Composite as string, calls(f).map((c) => c.name)]);
}

describe('MergeComposite', () => {
  it('turns each match into a composite function called from main', () => {
    const mod = convAddConv();
    const out = mergeComposite(mod, patterns([['conv2d', conv()]]));
    expectWellFormed(out);
    expect(composites(out.functions)).toEqual([
      ['accel.conv2d', ['c1']],
      ['accel.conv2d', ['c2']],
    ]);
    const fn = out.functions.get('accel.conv2d_0') as GraphFunction;
    expect(fn.params).toEqual(['x']);
    expect(fn.nodes.map((n) => [n.kind, n.name])).toEqual([
      ['var', 'x'],
      ['constant', 'c1_w'],
      ['constant', 'c1_b'],
      ['call', 'c1'],
    ]);
    expect(fn.outputs).toEqual(['c1']);
    expect(fn.attrs).toEqual({ Composite: 'accel.conv2d', Primitive: true, PartitionedFromPattern: 'conv2d_' });
    const main = mainOf(out);
    const c1 = main.nodes.find((n) => n.name === 'c1') as CallNode;
    expect(c1.callee).toEqual({ kind: 'function', name: 'accel.conv2d_0' });
    expect(c1.args).toEqual(['x']);
    // Weights moved into the composites: main keeps no constant.
    expect(main.nodes.filter((n) => n.kind === 'constant')).toEqual([]);
    expect(opRecords(flattenMain(out))).toEqual(opRecords(calls(mainOf(mod))));
  });

  it('tries patterns in registration order', () => {
    const mod = convAddConv();
    const fused = mergeComposite(mod, patterns([['conv2d_add', convAdd()], ['conv2d', conv()]]));
    expect(composites(fused.functions)).toEqual([
      ['accel.conv2d_add', ['c1', 'a']],
      ['accel.conv2d', ['c2']],
    ]);
    expect((fused.functions.get('accel.conv2d_add_0') as GraphFunction).params).toEqual(['x', 'y']);
    // conv2d first claims c1, so conv2d_add finds nothing.
    const plain = mergeComposite(mod, patterns([['conv2d', conv()], ['conv2d_add', convAdd()]]));
    expect(composites(plain.functions).map(([c]) => c)).toEqual(['accel.conv2d', 'accel.conv2d']);
    expect(opRecords(flattenMain(fused))).toEqual(opRecords(calls(mainOf(mod))));
  });

  it('rejects a match whose inner call is used outside it', () => {
    const g = new GraphBuilder();
    const x = g.input('x');
    const c1 = g.conv('c1', x);
    const a = g.op('a', 'add', [c1, x]);
    const p = g.op('p', 'max_pool2d', [c1]);
    const mod = g.module([a, p]);
    const out = mergeComposite(mod, patterns([['conv2d_add', convAdd()]]));
    expect(composites(out.functions)).toEqual([]);
    expect(out).toBe(mod);
    // An inner call that is a function output is "used outside" too.
    const g2 = new GraphBuilder();
    const c = g2.conv('c', g2.input('x'));
    const mod2 = g2.module([g2.op('s', 'add', [c, 'x']), c]);
    expect(composites(mergeComposite(mod2, patterns([['conv2d_add', convAdd()]])).functions)).toEqual([]);
  });

  it('lets the predicate veto structural matches', () => {
    const out = mergeComposite(
      convAddConv(),
      patterns([['conv2d', conv()]], (m) => {
        const strides = m.root.attrs.strides as readonly number[] | undefined;
        return strides === undefined || strides[0] === 1;
      }),
    );
    expect(composites(out.functions)).toEqual([['accel.conv2d', ['c1']]]);
    const c2 = mainOf(out).nodes.find((n) => n.name === 'c2') as CallNode;
    expect(c2.callee).toEqual({ kind: 'op', op: 'conv2d' });
  });

  it('keeps a constant in main while a host call still reads it', () => {
    const g = new GraphBuilder();
    const x = g.input('x');
    const w = g.constant('w');
    g.op('c', 'conv2d', [x, w]);
    g.op('d', 'dense', [x, w], {}, { shape: [1, 4], dtype: 'int8' });
    const out = mergeComposite(g.module(['c', 'd']), patterns([['conv2d', conv()]]));
    expect(mainOf(out).nodes.filter((n) => n.kind === 'constant').map((n) => n.name)).toEqual(['w']);
    expect((out.functions.get('accel.conv2d_0') as GraphFunction).nodes.map((n) => n.name)).toEqual(['x', 'w', 'c']);
  });
});
