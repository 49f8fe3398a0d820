import { FunctionView, PatternMatcher, isConstant, isOp, isVar, optionalArg, wildcard, DFPattern } from '../../src/partition';
import { GraphBuilder, mainOf } from './helpers';

function graph() {
  const g = new GraphBuilder();
  const x = g.input('x');
  const c1 = g.conv('c1', x, true, { activation: 'RELU', strides: [1, 1] });
  const c2 = g.conv('c2', c1, false, { activation: 'NONE', strides: [2, 2] });
  const s = g.op('sum', 'add', [c2, c2]);
  const t = g.op('t', 'add', [s, x]);
  return mainOf(g.module([t]));
}

function matchAt(pattern: DFPattern, root: string) {
  return new PatternMatcher(new FunctionView(graph())).matchAt('p', pattern, root);
}

describe('pattern matching', () => {
  const conv = isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant()));

  it('matches optional trailing arguments present or absent', () => {
    expect(matchAt(conv, 'c1')?.inputs.map((n) => n.name)).toEqual(['x', 'c1_w', 'c1_b']);
    expect(matchAt(conv, 'c2')?.inputs.map((n) => n.name)).toEqual(['c1', 'c2_w']);
    expect(matchAt(isOp('conv2d')(wildcard(), isConstant()), 'c1')).toBeUndefined();
    expect(matchAt(isOp('conv2d')(wildcard(), isConstant(), isConstant()), 'c2')).toBeUndefined();
  });

  it('checks kinds of leaves: isVar, isConstant, wildcard', () => {
    expect(matchAt(isOp('conv2d')(isVar(), isConstant(), isConstant()), 'c1')).toBeDefined();
    expect(matchAt(isOp('conv2d')(isVar('x'), wildcard(), wildcard()), 'c1')).toBeDefined();
    expect(matchAt(isOp('conv2d')(isVar('y'), wildcard(), wildcard()), 'c1')).toBeUndefined();
    expect(matchAt(isOp('conv2d')(isVar(), wildcard()), 'c2')).toBeUndefined();
    expect(matchAt(isOp('conv2d')(isConstant(), wildcard()), 'c2')).toBeUndefined();
  });

  it('checks attributes, arrays element-wise', () => {
    expect(matchAt(conv.hasAttr({ activation: 'RELU' }), 'c1')).toBeDefined();
    expect(matchAt(conv.hasAttr({ activation: 'RELU' }), 'c2')).toBeUndefined();
    expect(matchAt(conv.hasAttr({ strides: [2, 2] }), 'c2')).toBeDefined();
    expect(matchAt(conv.hasAttr({ strides: [2, 1] }), 'c2')).toBeUndefined();
    expect(matchAt(conv.hasAttr({ padding: [0, 0, 0, 0] }), 'c2')).toBeUndefined();
    expect(matchAt(conv.hasDtype('int8'), 'c2')).toBeDefined();
    expect(matchAt(conv.hasDtype('float32'), 'c2')).toBeUndefined();
    // A misspelt dtype would match nothing, silently: refused where the pattern is built.
    expect(() => conv.hasDtype('float128' as never)).toThrow("hasDtype: unknown dtype 'float128' (one of int8, uint8, int16, int32, uint32, int64, uint64, float32, bool)");
  });

  it('matches nested calls and collects the body in topological order', () => {
    const m = matchAt(isOp('conv2d')(conv, isConstant()), 'c2');
    expect(m?.calls.map((c) => c.name)).toEqual(['c1', 'c2']);
    expect(m?.root.name).toBe('c2');
    expect(m?.inputs.map((n) => n.name)).toEqual(['x', 'c1_w', 'c1_b', 'c2_w']);
  });

  it('requires a pattern object used twice to bind the same node', () => {
    const same = wildcard();
    expect(matchAt(isOp('add')(same, same), 'sum')?.inputs.map((n) => n.name)).toEqual(['c2']);
    expect(matchAt(isOp('add')(same, same), 't')).toBeUndefined();
    expect(matchAt(isOp('add')(wildcard(), wildcard()), 't')?.inputs.map((n) => n.name)).toEqual(['sum', 'x']);
  });

  it('tries alternatives in order and optional() prefers the larger match', () => {
    const alt = isOp('dense')(wildcard(), wildcard()).or(conv);
    expect(matchAt(alt, 'c1')?.calls.map((c) => c.name)).toEqual(['c1']);
    const withAdd = conv.optional((p) => isOp('add')(p, p));
    expect(matchAt(withAdd, 'sum')?.calls.map((c) => c.name)).toEqual(['c2', 'sum']);
    expect(matchAt(withAdd, 'c2')?.calls.map((c) => c.name)).toEqual(['c2']);
  });

  it('never matches a call claimed by another composite, but a wildcard may read it', () => {
    const view = new FunctionView(graph());
    const claimed = new PatternMatcher(view, new Set(['c2']));
    expect(claimed.matchAt('p', conv, 'c2')).toBeUndefined();
    expect(claimed.matchAt('p', isOp('add')(wildcard(), wildcard()), 'sum')?.inputs.map((n) => n.name)).toEqual(['c2']);
  });
});
