/**
 * Builders and checks shared by the partition tests: hand-built graphs, a well-formedness
 * check of modules, and `flattenMain`, which inlines every function call of main back to
 * operator calls so a partitioned module can be compared with the original.
 */
import {
  Attrs,
  CallNode,
  DType,
  GraphFunction,
  GraphNode,
  IRModule,
  MAIN_FUNCTION,
  TensorType,
  tensorBytes,
} from '../../src/ir/graph';
import {
  CodegenHooks,
  GraphPass,
  GraphPassPhase,
  MemoryDecl,
  OpSupportPredicate,
  PatternPredicate,
  TirPass,
  TirPassPhase,
  UmaBackend,
} from '../../src/backend';
import { OperatorStrategy } from '../../src/lower/strategy';
import { DFPattern } from '../../src/partition';

export class GraphBuilder {
  private readonly nodes: GraphNode[] = [];
  private readonly params: string[] = [];
  private readonly types = new Map<string, TensorType>();

  input(name: string, shape: number[] = [1, 8, 8, 4], dtype: DType = 'int8'): string {
    const type = { shape, dtype };
    this.nodes.push({ kind: 'var', name, type });
    this.params.push(name);
    this.types.set(name, type);
    return name;
  }

  constant(name: string, shape: number[] = [4, 1, 1, 4], dtype: DType = 'int8'): string {
    const type = { shape, dtype };
    this.nodes.push({ kind: 'constant', name, type, data: new Uint8Array(tensorBytes(type)) });
    this.types.set(name, type);
    return name;
  }

  op(name: string, op: string, args: string[], attrs: Attrs = {}, type?: TensorType): string {
    const t = type ?? (this.types.get(args[0]) as TensorType);
    this.nodes.push({ kind: 'call', name, callee: { kind: 'op', op }, args, attrs, type: t });
    this.types.set(name, t);
    return name;
  }

  /** conv2d with its own weight (and bias unless `bias` is false). */
  conv(name: string, input: string, bias = true, attrs: Attrs = {}): string {
    const w = this.constant(`${name}_w`);
    const args = [input, w];
    if (bias) args.push(this.constant(`${name}_b`, [4], 'int32'));
    return this.op(name, 'conv2d', args, attrs);
  }

  module(outputs: string[]): IRModule {
    const main: GraphFunction = { name: MAIN_FUNCTION, params: [...this.params], nodes: [...this.nodes], outputs, attrs: {} };
    return { functions: new Map([[MAIN_FUNCTION, main]]) };
  }
}

export function mainOf(module: IRModule): GraphFunction {
  const main = module.functions.get(MAIN_FUNCTION);
  if (main === undefined) throw new Error('no main');
  return main;
}

export function calls(fn: GraphFunction): CallNode[] {
  return fn.nodes.filter((n): n is CallNode => n.kind === 'call');
}

/** Every structural invariant of the graph IR the partitioner must keep. */
export function expectWellFormed(module: IRModule): void {
  for (const fn of module.functions.values()) {
    const seen = new Set<string>();
    for (const n of fn.nodes) {
      expect(seen.has(n.name)).toBe(false);
      if (n.kind === 'call') {
        for (const a of n.args) if (a !== '') expect({ fn: fn.name, node: n.name, arg: a, defined: seen.has(a) }).toEqual({ fn: fn.name, node: n.name, arg: a, defined: true });
        if (n.callee.kind === 'function') expect(module.functions.has(n.callee.name)).toBe(true);
      }
      seen.add(n.name);
    }
    const vars = fn.nodes.filter((n) => n.kind === 'var').map((n) => n.name);
    expect([...fn.params].sort()).toEqual([...vars].sort());
    for (const o of fn.outputs) expect(seen.has(o)).toBe(true);
  }
}

/** Main with every function call replaced by the operator calls it stands for. */
export function flattenMain(module: IRModule): CallNode[] {
  const out: CallNode[] = [];
  const expand = (fn: GraphFunction, rename: Map<string, string>): void => {
    const r = (n: string): string => rename.get(n) ?? n;
    for (const n of fn.nodes) {
      if (n.kind !== 'call') continue;
      if (n.callee.kind === 'op') {
        out.push({ kind: 'call', name: r(n.name), callee: n.callee, args: n.args.map(r), attrs: n.attrs, type: n.type });
        continue;
      }
      const callee = module.functions.get(n.callee.name) as GraphFunction;
      const inner = new Map<string, string>(callee.params.map((p, i) => [p, r(n.args[i])]));
      inner.set(callee.outputs[0], r(n.name));
      expand(callee, inner);
    }
  };
  expand(mainOf(module), new Map());
  return out;
}

/** Operator calls as comparable records, sorted by name. */
export function opRecords(callList: readonly CallNode[]): Array<[string, string, string[], Attrs]> {
  return callList
    .map((c) => [c.name, c.callee.kind === 'op' ? c.callee.op : `fn:${c.callee.name}`, [...c.args], c.attrs] as [string, string, string[], Attrs])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** A backend configured by a callback, so each test states exactly what it registers. */
export class ConfigurableBackend extends UmaBackend {
  constructor(
    readonly targetName: string,
    setup: (r: Registrar) => void = () => undefined,
  ) {
    super();
    setup({
      attr: (n, d) => this.registerTargetAttr(n, d as never),
      pattern: (n, p, pred) => this.registerPattern(n, p, pred),
      supportedOp: (op, pred) => this.registerSupportedOp(op, pred),
      graphPass: (ph, pass) => this.registerGraphPass(ph, pass),
      strategy: (op, s) => this.registerOperatorStrategy(op, s),
      tirPass: (ph, pass) => this.registerTirPass(ph, pass),
      globalTirPass: (ph, pass) => this.registerGlobalTirPass(ph, pass),
      codegen: (h) => this.registerCodegen(h),
      memory: (m) => this.registerMemory(m),
    });
  }
}

export interface Registrar {
  attr: (name: string, defaultValue: unknown) => void;
  pattern: (name: string, pattern: DFPattern, predicate?: PatternPredicate) => void;
  supportedOp: (op: string, predicate?: OpSupportPredicate) => void;
  graphPass: (phase: GraphPassPhase, pass: GraphPass) => void;
  strategy: (op: string, strategy: OperatorStrategy) => void;
  tirPass: (phase: TirPassPhase, pass: TirPass) => void;
  globalTirPass: (phase: TirPassPhase, pass: TirPass) => void;
  codegen: (hooks: CodegenHooks) => void;
  memory: (decl: MemoryDecl) => void;
}
