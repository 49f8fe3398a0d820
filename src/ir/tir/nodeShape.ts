/**
 * Whether a value a backend handed back (a strategy's statement, a TIR pass's module) is made
 * of TIR nodes at all: every node of a known kind with the fields of that kind. User code is
 * plain JavaScript, so `undefined`, a string or `{ kind: 'Bogus' }` can come back where a
 * statement belongs; the visitors and mutators behind every later stage assume the shapes and
 * would fail with a TypeError far from the mistake. The first problem comes back with its path
 * (`body.seq[2].value`), else undefined.
 */
const SCALAR_DTYPES: ReadonlySet<string> = new Set(['int8', 'uint8', 'int16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'bool', 'handle', 'void']);
const BINARY_OPS: ReadonlySet<string> = new Set(['Add', 'Sub', 'Mul', 'Div', 'FloorDiv', 'FloorMod', 'Min', 'Max', 'EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'And', 'Or']);
const FOR_KINDS: ReadonlySet<string> = new Set(['serial', 'parallel', 'unrolled', 'vectorized']);

type Fields = Record<string, unknown>;

/** A shape problem: where it is (a path from the checked root) and what is wrong there. */
export interface ShapeProblem {
  readonly path: string;
  readonly message: string;
}

class ShapeError {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') {
    const kind = (v as Fields).kind;
    return typeof kind === 'string' ? `a node of kind '${kind.slice(0, 40)}'` : 'an object without a kind';
  }
  if (typeof v === 'string') return `the string ${JSON.stringify(v.slice(0, 40))}`;
  return typeof v === 'function' ? 'a function' : String(v);
}

/** Walks a value as TIR; throws ShapeError at the first field that is not what its node needs. */
class ShapeChecker {
  private readonly path: string[] = [];
  // Nodes are shared (a Var in every use, a Buffer in every access): each checked once.
  private readonly seen = new Set<object>();

  private fail(message: string): never {
    throw new ShapeError(this.path.join('').replace(/^\./, ''), message);
  }

  private at<T>(segment: string, check: () => T): T {
    this.path.push(segment);
    const r = check();
    this.path.pop();
    return r;
  }

  private node(v: unknown, what: string): Fields {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(`${describeValue(v)}, not ${what}`);
    return v as Fields;
  }

  private field(n: Fields, name: string, type: 'string' | 'number' | 'boolean'): void {
    if (typeof n[name] !== type) this.at(`.${name}`, () => this.fail(`${describeValue(n[name])}, not a ${type}`));
  }

  private dtype(n: Fields, name = 'dtype'): void {
    if (typeof n[name] !== 'string' || !SCALAR_DTYPES.has(n[name] as string)) this.at(`.${name}`, () => this.fail(`${describeValue(n[name])}, not a TIR dtype`));
  }

  private list(n: Fields, name: string, each: (v: unknown) => void): void {
    const items = n[name];
    this.at(`.${name}`, () => {
      if (!Array.isArray(items)) this.fail(`${describeValue(items)}, not an array`);
      items.forEach((v, i) => this.at(`[${i}]`, () => each(v)));
    });
  }

  private annotations(n: Fields): void {
    const a = n.annotations;
    if (typeof a !== 'object' || a === null || Array.isArray(a)) this.at('.annotations', () => this.fail(`${describeValue(a)}, not an annotations object`));
  }

  private firstVisit(n: Fields): boolean {
    if (this.seen.has(n)) return false;
    this.seen.add(n);
    return true;
  }

  /** `v` as a node of `kind` seen for the first time; undefined when checked already. */
  private firstOfKind(v: unknown, kind: 'Var' | 'Buffer'): Fields | undefined {
    const n = this.node(v, `a ${kind}`);
    if (n.kind !== kind) this.fail(`${describeValue(v)}, not a ${kind}`);
    return this.firstVisit(n) ? n : undefined;
  }

  variable(v: unknown): void {
    const n = this.firstOfKind(v, 'Var');
    if (!n) return;
    this.field(n, 'name', 'string');
    this.field(n, 'id', 'number');
    this.dtype(n);
  }

  buffer(v: unknown): void {
    const n = this.firstOfKind(v, 'Buffer');
    if (!n) return;
    this.field(n, 'name', 'string');
    this.field(n, 'elemOffset', 'number');
    this.field(n, 'scope', 'string');
    this.dtype(n);
    this.at('.data', () => this.variable(n.data));
    this.list(n, 'shape', (d) => this.expr(d));
  }

  expr(v: unknown): void {
    const n = this.node(v, 'an expression');
    if (n.kind === 'Var') return this.variable(n);
    if (!this.firstVisit(n)) return;
    switch (n.kind) {
      case 'IntImm':
        this.dtype(n);
        return this.field(n, 'value', 'number');
      case 'FloatImm':
        return this.field(n, 'value', 'number');
      case 'StringImm':
        return this.field(n, 'value', 'string');
      case 'BinaryOp':
        if (typeof n.op !== 'string' || !BINARY_OPS.has(n.op)) this.at('.op', () => this.fail(`${describeValue(n.op)}, not a binary operator`));
        this.dtype(n);
        this.at('.a', () => this.expr(n.a));
        return this.at('.b', () => this.expr(n.b));
      case 'Not':
        return this.at('.a', () => this.expr(n.a));
      case 'Select':
        this.dtype(n);
        this.at('.cond', () => this.expr(n.cond));
        this.at('.t', () => this.expr(n.t));
        return this.at('.f', () => this.expr(n.f));
      case 'Cast':
        this.dtype(n);
        return this.at('.value', () => this.expr(n.value));
      case 'BufferLoad':
        this.at('.buffer', () => this.buffer(n.buffer));
        return this.list(n, 'indices', (i) => this.expr(i));
      case 'Call':
        this.dtype(n);
        this.field(n, 'op', 'string');
        return this.list(n, 'args', (a) => this.expr(a));
      default:
        this.fail(`${describeValue(v)}, not an expression`);
    }
  }

  /**
   * Checks a statement. A chain of scope statements (main nests one per tensor, thousands
   * deep) is followed through `body` with a loop: the path grows, the call stack does not.
   */
  stmt(v: unknown): void {
    const depth = this.path.length;
    let cur: unknown = v;
    for (;;) {
      const body = this.stmtFields(cur);
      if (body === undefined) break;
      this.path.push('.body');
      cur = body.value;
    }
    this.path.length = depth;
  }

  /** Checks a statement but the body of a scope statement, which it returns (in a box: the body may be any value). */
  private stmtFields(v: unknown): { value: unknown } | undefined {
    const n = this.node(v, 'a statement');
    if (!this.firstVisit(n)) return undefined;
    switch (n.kind) {
      case 'Allocate':
        this.at('.bufferVar', () => this.variable(n.bufferVar));
        this.dtype(n);
        this.list(n, 'extents', (e) => this.expr(e));
        this.at('.condition', () => this.expr(n.condition));
        this.field(n, 'storageScope', 'string');
        this.annotations(n);
        return { value: n.body };
      case 'AllocateConst':
        this.at('.bufferVar', () => this.variable(n.bufferVar));
        this.dtype(n);
        this.list(n, 'extents', (e) => this.expr(e));
        if (!(n.data instanceof Uint8Array)) this.at('.data', () => this.fail(`${describeValue(n.data)}, not a Uint8Array`));
        this.annotations(n);
        return { value: n.body };
      case 'DeclBuffer':
        this.at('.buffer', () => this.buffer(n.buffer));
        return { value: n.body };
      case 'For':
        this.at('.loopVar', () => this.variable(n.loopVar));
        this.at('.min', () => this.expr(n.min));
        this.at('.extent', () => this.expr(n.extent));
        if (typeof n.forKind !== 'string' || !FOR_KINDS.has(n.forKind)) this.at('.forKind', () => this.fail(`${describeValue(n.forKind)}, not a loop kind`));
        this.annotations(n);
        this.at('.body', () => this.stmt(n.body));
        return undefined;
      case 'SeqStmt':
        this.list(n, 'seq', (s) => this.stmt(s));
        return undefined;
      case 'LetStmt':
        this.at('.var', () => this.variable(n.var));
        this.at('.value', () => this.expr(n.value));
        return { value: n.body };
      case 'IfThenElse':
        this.at('.condition', () => this.expr(n.condition));
        this.at('.then', () => this.stmt(n.then));
        if (n.else !== undefined) this.at('.else', () => this.stmt(n.else));
        return undefined;
      case 'BufferStore':
        this.at('.buffer', () => this.buffer(n.buffer));
        this.at('.value', () => this.expr(n.value));
        this.list(n, 'indices', (i) => this.expr(i));
        return undefined;
      case 'Evaluate':
        this.at('.value', () => this.expr(n.value));
        return undefined;
      default:
        this.fail(`${describeValue(v)}, not a statement`);
    }
  }

  primFunc(v: unknown): void {
    const n = this.node(v, 'a PrimFunc');
    if (n.kind !== 'PrimFunc') this.fail(`${describeValue(v)}, not a PrimFunc`);
    this.list(n, 'params', (p) => this.variable(p));
    this.list(n, 'bufferMap', (entry) => {
      if (!Array.isArray(entry) || entry.length !== 2) this.fail(`${describeValue(entry)}, not a [Var, Buffer] pair`);
      this.at('[0]', () => this.variable(entry[0]));
      this.at('[1]', () => this.buffer(entry[1]));
    });
    const attrs = n.attrs;
    if (typeof attrs !== 'object' || attrs === null) this.at('.attrs', () => this.fail(`${describeValue(attrs)}, not an attributes object`));
    this.at('.body', () => this.stmt(n.body));
  }
}

function caught(check: (c: ShapeChecker) => void): ShapeProblem | undefined {
  try {
    check(new ShapeChecker());
    return undefined;
  } catch (e) {
    if (e instanceof ShapeError) return { path: e.path, message: e.message };
    throw e;
  }
}

/** The first place `value` is not a TIR statement, or undefined. */
export function stmtShapeProblem(value: unknown): ShapeProblem | undefined {
  return caught((c) => c.stmt(value));
}

/** The first place `value` is not a PrimFunc, or undefined. */
export function primFuncShapeProblem(value: unknown): ShapeProblem | undefined {
  return caught((c) => c.primFunc(value));
}
