import { GraphStructureError } from '../../src/errors';
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import {
  assertAcyclic,
  consumersOf,
  findCycle,
  mapFunctions,
  nodeByName,
  producerOf,
  sortTopologically,
  toDataflowGraph,
  topologicalOrder,
  withFunction,
} from '../../src/ir/graph/graph';
import { CallNode, GraphFunction, GraphNode } from '../../src/ir/graph/types';

const t = tensorType([1, 4], 'int8');

/** x → a = add(x, x); w; b = add(a, w); c = add(a, b); output c. */
function diamond(): GraphFunction {
  const b = new FunctionBuilder();
  b.param('x', t);
  b.call('a', 'add', ['x', 'x'], t);
  b.constant('w', t);
  b.call('b', 'add', ['a', 'w'], t);
  b.call('c', 'add', ['a', 'b'], t);
  return b.build(['c']);
}

function call(name: string, args: string[]): CallNode {
  return { kind: 'call', name, callee: { kind: 'op', op: 'add' }, args, attrs: {}, type: t };
}

describe('dataflow graph view', () => {
  it('has one node per IR node and one edge per argument use (x used twice by a)', () => {
    const g = toDataflowGraph(diamond());
    expect(g.nodeCount()).toBe(5);
    expect(g.edgeCount()).toBe(6);
    expect(g.outEdges('x')!.filter((e) => e.w === 'a')).toHaveLength(2);
    expect(g.node('w')).toMatchObject({ kind: 'constant' });
  });

  it('rejects unknown arguments and duplicate names', () => {
    const fn = diamond();
    const unknown = { ...fn, nodes: [...fn.nodes, call('d', ['nope'])] };
    expect(() => toDataflowGraph(unknown)).toThrow(GraphStructureError);
    expect(() => toDataflowGraph(unknown)).toThrow(/unknown node 'nope'/);
    const dup = { ...fn, nodes: [...fn.nodes, call('a', ['x', 'x'])] };
    expect(() => nodeByName(dup)).toThrow(/two nodes named 'a'/);
    expect(() => toDataflowGraph({ ...fn, outputs: ['zzz'] })).toThrow(GraphStructureError);
  });

  it('producer and consumers', () => {
    const fn = diamond();
    expect(producerOf(fn, 'b')?.kind).toBe('call');
    expect(producerOf(fn, 'w')?.kind).toBe('constant');
    expect(producerOf(fn, 'none')).toBeUndefined();
    expect(consumersOf(fn, 'a').map((c) => c.name)).toEqual(['b', 'c']);
    expect(consumersOf(fn, 'x').map((c) => c.name)).toEqual(['a']);
    expect(consumersOf(fn, 'c')).toEqual([]);
  });
});

describe('ordering and cycles', () => {
  it('keeps a valid order as it is', () => {
    const fn = diamond();
    expect(topologicalOrder(fn)).toEqual(fn.nodes.map((n) => n.name));
  });

  it('repairs a shuffled order so every arg precedes its use', () => {
    const fn = diamond();
    const shuffled = { ...fn, nodes: [...fn.nodes].reverse() };
    const order = topologicalOrder(shuffled);
    expect(new Set(order)).toEqual(new Set(fn.nodes.map((n) => n.name)));
    const pos = new Map(order.map((n, i) => [n, i]));
    for (const n of fn.nodes) if (n.kind === 'call') for (const a of n.args) expect(pos.get(a)!).toBeLessThan(pos.get(n.name)!);
    expect(sortTopologically(shuffled).nodes.map((n) => n.name)).toEqual(order);
  });

  it('finds a cycle as a path and names it in the error', () => {
    const fn: GraphFunction = {
      name: 'loop',
      params: ['x'],
      nodes: [{ kind: 'var', name: 'x', type: t }, call('p', ['x', 'r']), call('q', ['p', 'x']), call('r', ['q', 'x'])],
      outputs: ['r'],
      attrs: {},
    };
    const cycle = findCycle(fn)!;
    expect(cycle[0]).toBe(cycle[cycle.length - 1]);
    expect(new Set(cycle)).toEqual(new Set(['p', 'q', 'r']));
    // Consecutive entries are real edges.
    const g = toDataflowGraph(fn);
    for (let i = 0; i + 1 < cycle.length; i++) expect(g.successors(cycle[i])).toContain(cycle[i + 1]);
    expect(() => assertAcyclic(fn)).toThrow(GraphStructureError);
    expect(() => topologicalOrder(fn)).toThrow(/function loop has a cycle: p -> q -> r -> p/);
    expect(findCycle(diamond())).toBeNull();
  });

  it('detects a self loop', () => {
    const fn: GraphFunction = {
      name: 'self',
      params: ['x'],
      nodes: [{ kind: 'var', name: 'x', type: t }, call('s', ['x', 's'])],
      outputs: ['s'],
      attrs: {},
    };
    expect(findCycle(fn)).toEqual(['s', 's']);
  });
});

describe('immutable module helpers', () => {
  it('withFunction returns a new module and leaves the old one untouched', () => {
    const fn = diamond();
    const m = moduleOf([fn], 'src.tflite');
    const other = { ...fn, name: 'other' };
    const m2 = withFunction(m, other);
    expect([...m2.functions.keys()].sort()).toEqual(['main', 'other']);
    expect([...m.functions.keys()]).toEqual(['main']);
    expect(m2.source).toBe('src.tflite');
    const replaced = withFunction(m2, { ...fn, outputs: ['a'] });
    expect(replaced.functions.get('main')!.outputs).toEqual(['a']);
    expect(m2.functions.get('main')!.outputs).toEqual(['c']);
  });

  it('mapFunctions maps every function and rejects name clashes', () => {
    const fn = diamond();
    const m = moduleOf([fn, { ...fn, name: 'f2' }]);
    const renamed = mapFunctions(m, (f) => ({ ...f, name: `${f.name}_x` }));
    expect([...renamed.functions.keys()].sort()).toEqual(['f2_x', 'main_x']);
    expect([...m.functions.keys()].sort()).toEqual(['f2', 'main']);
    expect(() => mapFunctions(m, (f) => ({ ...f, name: 'same' }))).toThrow(GraphStructureError);
  });

  it('orders and checks a 20,000-node chain listed backwards without recursing', () => {
    const n = 20000;
    const nodes: GraphNode[] = [{ kind: 'var', name: 'v0', type: t }];
    for (let i = 1; i < n; i++) nodes.push(call(`v${i}`, [`v${i - 1}`]));
    const fn: GraphFunction = { name: 'chain', params: ['v0'], nodes: [...nodes].reverse(), outputs: [`v${n - 1}`], attrs: {} };
    expect(topologicalOrder(fn)).toEqual(nodes.map((x) => x.name));
    // Closing the chain into a ring: the cycle is all of it, from its least name.
    const ring: GraphFunction = { ...fn, params: [], nodes: [call('v0', [`v${n - 1}`]), ...nodes.slice(1)] };
    const cycle = findCycle(ring)!;
    expect(cycle).toHaveLength(n + 1);
    expect(cycle[0]).toBe('v0');
    expect(cycle[1]).toBe('v1');
    expect(() => topologicalOrder(ring)).toThrow(GraphStructureError);
  });
});
