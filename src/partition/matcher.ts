/**
 * Matches a DFPattern at one node of a graph function. A match is the set of operator calls
 * the call patterns covered (the composite's body) plus the nodes bound by wildcard / var /
 * constant patterns (its inputs).
 */
import { AttrValue, CallNode, GraphFunction, GraphNode } from '../ir/graph/types';
import { FunctionView, OMITTED_ARG } from './dataflow';
import { DFPattern, asAnyPattern } from './pattern';

/** What a pattern predicate sees. */
export interface PatternMatch {
  /** The registered pattern's name. */
  readonly pattern: string;
  /** The call the match is rooted at: the composite's output. */
  readonly root: CallNode;
  /** Every matched operator call, in the function's topological order. */
  readonly calls: readonly CallNode[];
  /** Nodes bound by wildcard / var / constant patterns, in first-use order. */
  readonly inputs: readonly GraphNode[];
  readonly func: GraphFunction;
  /** Any node of the matched function by name, e.g. to read an argument's type. */
  node(name: string): GraphNode;
}

interface MatchState {
  readonly bindings: ReadonlyMap<DFPattern, string>;
  readonly calls: ReadonlySet<string>;
  readonly inputs: readonly string[];
}

const EMPTY: MatchState = { bindings: new Map(), calls: new Set(), inputs: [] };

function attrEquals(a: AttrValue | undefined, b: AttrValue): boolean {
  if (a === undefined) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  return a === b;
}

function bind(st: MatchState, p: DFPattern, name: string): MatchState {
  const bindings = new Map(st.bindings);
  bindings.set(p, name);
  return { ...st, bindings };
}

function withInput(st: MatchState, name: string): MatchState {
  return st.inputs.includes(name) ? st : { ...st, inputs: [...st.inputs, name] };
}

export class PatternMatcher {
  /**
   * `claimed` holds calls already inside another composite: they cannot be matched as
   * calls again (though a wildcard may still bind a composite's output as an input).
   */
  constructor(
    private readonly view: FunctionView,
    private readonly claimed: ReadonlySet<string> = new Set(),
  ) {}

  /** The match of `pattern` rooted at node `root`, or undefined. */
  matchAt(patternName: string, pattern: DFPattern, root: string): PatternMatch | undefined {
    const st = this.match(pattern, root, EMPTY);
    if (st === undefined || !st.calls.has(root)) return undefined;
    const view = this.view;
    const calls = [...st.calls].sort((a, b) => view.position(a) - view.position(b));
    return {
      pattern: patternName,
      root: view.node(root) as CallNode,
      calls: calls.map((c) => view.node(c) as CallNode),
      // A node that is also a matched call is internal, not an input (diamond patterns).
      inputs: st.inputs.filter((i) => !st.calls.has(i)).map((i) => view.node(i)),
      func: view.fn,
      node: (name: string) => view.node(name),
    };
  }

  private match(p: DFPattern, name: string, st: MatchState): MatchState | undefined {
    const bound = st.bindings.get(p);
    if (bound !== undefined) return bound === name ? st : undefined;
    const out = this.matchUnbound(p, name, st);
    return out === undefined ? undefined : bind(out, p, name);
  }

  private matchUnbound(pattern: DFPattern, name: string, st: MatchState): MatchState | undefined {
    const p = asAnyPattern(pattern);
    const node = this.view.node(name);
    switch (p.kind) {
      case 'wildcard':
        return withInput(st, name);
      case 'var':
        return node.kind === 'var' && (p.name === undefined || p.name === node.name) ? withInput(st, name) : undefined;
      case 'constant':
        return node.kind === 'constant' ? withInput(st, name) : undefined;
      case 'optionalArg':
        return this.match(p.inner, name, st);
      case 'alt':
        return this.match(p.left, name, st) ?? this.match(p.right, name, st);
      case 'dtype': {
        if (node.type.dtype !== p.dtype) return undefined;
        return this.match(p.inner, name, st);
      }
      case 'attr': {
        const inner = this.match(p.inner, name, st);
        if (inner === undefined || node.kind !== 'call') return undefined;
        for (const [k, v] of Object.entries(p.attrs)) if (!attrEquals(node.attrs[k], v)) return undefined;
        return inner;
      }
      case 'call': {
        if (node.kind !== 'call' || node.callee.kind !== 'op' || node.callee.op !== p.op) return undefined;
        if (this.claimed.has(name) || st.calls.has(name)) return undefined;
        if (node.args.length < p.requiredArgs || node.args.length > p.args.length) return undefined;
        let cur: MatchState | undefined = { ...st, calls: new Set([...st.calls, name]) };
        for (let i = 0; i < node.args.length && cur !== undefined; i++) {
          if (node.args[i] === OMITTED_ARG) cur = p.args[i].kind === 'optionalArg' ? cur : undefined;
          else cur = this.match(p.args[i], node.args[i], cur);
        }
        return cur;
      }
    }
  }
}
