/**
 * Turns a PrimFunc into nested closures once, so running a loop nest never dispatches on
 * node kinds again. Variables live in a per-call frame array at slots fixed at compile time;
 * scoping is checked here, so an unbound var fails before anything runs.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplier64 } from '../../../arith/fixedpoint';
import { cosF32, expF32, logF32, sinF32, tanhF32 } from '../../../arith/floatMath';
import { exprDType } from '../builder';
import { ANN_FILL_BYTE, ANN_INITIAL_BYTES, BinaryOp, Buffer, BufferLoad, Call, Expr, PrimFunc, ScalarDType, Stmt, Var } from '../nodes';
import { initialBytesOf } from '../nodes';
import { isScopeStmt, ScopeStmt } from '../scope';
import { TirEvalError, TirOutOfBoundsError } from './errors';
import { dtypeBytes } from '../dtype';
import { Pointer, Value, readerFor, viewOf, wrapTo, writerFor } from './memory';

export type Frame = unknown[];
export type NumFn = (f: Frame) => number;
export type PtrFn = (f: Frame) => Pointer;
export type StmtFn = (f: Frame) => void;
/** Arguments of an extern call: strings only appear as literal arguments. */
export type ArgValue = Value | string;
type ArgFn = (f: Frame) => ArgValue;

/** What compiled code needs from the running module: calls leave the function. */
export interface CallTarget {
  invoke(callee: string, args: ArgValue[], caller: string): number;
  intrinsic(op: string, args: ArgValue[], caller: string): number;
}

export interface CompiledFunc {
  readonly name: string;
  readonly func: PrimFunc;
  readonly frameSize: number;
  readonly paramSlots: readonly number[];
  /** [param slot, buffer data slot] pairs: a bufferMap buffer views its param's pointer. */
  readonly bufferBinds: ReadonlyArray<readonly [number, number]>;
  readonly body: StmtFn;
}

// Module-level copies: inside jest's vm context every `Math.x` is a slow global lookup.
const { imul, fround, floor, trunc, abs, sqrt, ceil, expm1 } = Math;
const mathMin = Math.min;
const mathMax = Math.max;

type PureIntrinsic = (args: number[]) => number;

/** Side-effect-free intrinsics run inline; anything else goes through `CallTarget.intrinsic`. */
const PURE_INTRINSICS: Readonly<Record<string, PureIntrinsic>> = {
  'tir.shift_left': ([a, b]) => a << b,
  'tir.shift_right': ([a, b]) => a >> b,
  'tir.bitwise_and': ([a, b]) => a & b,
  'tir.bitwise_or': ([a, b]) => a | b,
  'tir.bitwise_xor': ([a, b]) => a ^ b,
  'tir.bitwise_not': ([a]) => ~a,
  'tir.abs': ([a]) => abs(a),
  'tir.fabs': ([a]) => abs(a),
  // Float math rounds to float32 as the C float functions return float (expm1 is computed in
  // double in C too, see emitExpr's DOUBLE_MATH); exp, log, tanh, sin and cos are the runtime's
  // own float functions, the same double operations on both sides (floatMath.ts).
  'tir.exp': ([a]) => expF32(fround(a)),
  'tir.tanh': ([a]) => tanhF32(fround(a)),
  'tir.sqrt': ([a]) => fround(sqrt(a)),
  'tir.log': ([a]) => logF32(fround(a)),
  'tir.expm1': ([a]) => fround(expm1(a)),
  'tir.floor': ([a]) => floor(a),
  'tir.ceil': ([a]) => ceil(a),
  'tir.sin': ([a]) => sinF32(fround(a)),
  'tir.cos': ([a]) => cosF32(fround(a)),
  // JavaScript's % on floats is C's fmod: exact, so no rounding differs.
  'tir.fmod': ([a, b]) => fround(a % b),
};

const EXTERN_OPS: ReadonlySet<string> = new Set(['tir.call_extern', 'tir.tvm_call_cpacked']);

function isFloat(d: ScalarDType): boolean {
  return d === 'float32';
}

function floorMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

class FuncCompiler {
  private readonly slots = new Map<number, number>();
  private readonly bound = new Map<number, number>();

  constructor(
    private readonly name: string,
    private readonly target: CallTarget,
  ) {}

  get frameSize(): number {
    return this.slots.size;
  }

  private err(message: string, extra: object = {}): TirEvalError {
    return new TirEvalError(`${message} (in PrimFunc '${this.name}')`, { func: this.name, ...extra });
  }

  slotOf(v: Var): number {
    let s = this.slots.get(v.id);
    if (s === undefined) {
      s = this.slots.size;
      this.slots.set(v.id, s);
    }
    return s;
  }

  bind(v: Var): number {
    this.bound.set(v.id, (this.bound.get(v.id) ?? 0) + 1);
    return this.slotOf(v);
  }

  unbind(v: Var): void {
    const n = (this.bound.get(v.id) ?? 1) - 1;
    if (n === 0) this.bound.delete(v.id);
    else this.bound.set(v.id, n);
  }

  private use(v: Var): number {
    if (!this.bound.has(v.id)) throw this.err(`variable '${v.name}' (id ${v.id}) is used outside its scope`);
    return this.slotOf(v);
  }

  /** Binds `v` while compiling `body`, so uses inside see it and uses after do not. */
  private scoped<T>(v: Var, body: () => T): [number, T] {
    const slot = this.bind(v);
    const out = body();
    this.unbind(v);
    return [slot, out];
  }

  // ------------------------------------------------------------ expressions

  num(e: Expr): NumFn {
    const d = exprDType(e);
    if (d === 'handle' || e.kind === 'StringImm') throw this.err(`expected a number, got a ${d} ${e.kind}`);
    return this.value(e) as NumFn;
  }

  ptr(e: Expr): PtrFn {
    if (exprDType(e) !== 'handle' || e.kind === 'StringImm') throw this.err(`expected a pointer, got ${e.kind}`);
    return this.value(e) as PtrFn;
  }

  private arg(e: Expr): ArgFn {
    if (e.kind === 'StringImm') {
      const s = e.value;
      return () => s;
    }
    return this.value(e) as ArgFn;
  }

  value(e: Expr): (f: Frame) => Value {
    switch (e.kind) {
      case 'Var': {
        const slot = this.use(e);
        return (f) => f[slot] as Value;
      }
      case 'IntImm': {
        const v = e.value;
        return () => v;
      }
      case 'FloatImm': {
        const v = fround(e.value);
        return () => v;
      }
      case 'StringImm':
        throw this.err(`string "${e.value}" used as a value`);
      case 'BinaryOp':
        return this.binary(e);
      case 'Not': {
        const a = this.num(e.a);
        return (f) => (a(f) === 0 ? 1 : 0);
      }
      case 'Select': {
        const c = this.num(e.cond);
        const t = this.value(e.t);
        const o = this.value(e.f);
        // Select evaluates both sides (unlike if_then_else).
        return (f) => {
          const tv = t(f);
          const ov = o(f);
          return c(f) !== 0 ? tv : ov;
        };
      }
      case 'Cast': {
        if (e.dtype === 'handle' || exprDType(e.value) === 'handle') {
          if (e.dtype === exprDType(e.value)) return this.value(e.value);
          throw this.err(`cannot cast between handle and ${e.dtype}`);
        }
        const v = this.num(e.value);
        const w = wrapTo(e.dtype);
        return (f) => w(v(f));
      }
      case 'BufferLoad':
        return this.load(e);
      case 'Call':
        return this.call(e);
    }
  }

  private binary(e: BinaryOp): NumFn {
    const a = this.num(e.a);
    const b = this.num(e.b);
    switch (e.op) {
      case 'EQ':
        return (f) => (a(f) === b(f) ? 1 : 0);
      case 'NE':
        return (f) => (a(f) !== b(f) ? 1 : 0);
      case 'LT':
        return (f) => (a(f) < b(f) ? 1 : 0);
      case 'LE':
        return (f) => (a(f) <= b(f) ? 1 : 0);
      case 'GT':
        return (f) => (a(f) > b(f) ? 1 : 0);
      case 'GE':
        return (f) => (a(f) >= b(f) ? 1 : 0);
      case 'And':
        return (f) => (a(f) !== 0 && b(f) !== 0 ? 1 : 0);
      case 'Or':
        return (f) => (a(f) !== 0 || b(f) !== 0 ? 1 : 0);
      case 'Min':
        return (f) => mathMin(a(f), b(f));
      case 'Max':
        return (f) => mathMax(a(f), b(f));
      default:
        return isFloat(e.dtype) || isFloat(exprDType(e.a)) ? this.floatArith(e, a, b) : this.intArith(e, a, b);
    }
  }

  private floatArith(e: BinaryOp, a: NumFn, b: NumFn): NumFn {
    const r = fround;
    switch (e.op) {
      case 'Add':
        return (f) => r(a(f) + b(f));
      case 'Sub':
        return (f) => r(a(f) - b(f));
      case 'Mul':
        return (f) => r(a(f) * b(f));
      case 'Div':
        return (f) => r(a(f) / b(f));
      case 'FloorDiv':
        return (f) => r(floor(a(f) / b(f)));
      case 'FloorMod':
        return (f) => {
          const x = a(f);
          const y = b(f);
          return r(x - floor(x / y) * y);
        };
      default:
        throw this.err(`unexpected float operator ${e.op}`);
    }
  }

  private intArith(e: BinaryOp, a: NumFn, b: NumFn): NumFn {
    const dtype = e.dtype;
    const divisor = (f: Frame): number => {
      const y = b(f);
      if (y === 0) throw this.err(`integer division by zero in ${e.op}`);
      return y;
    };
    if (dtype === 'int32') {
      switch (e.op) {
        case 'Add':
          return (f) => (a(f) + b(f)) | 0;
        case 'Sub':
          return (f) => (a(f) - b(f)) | 0;
        case 'Mul':
          return (f) => imul(a(f), b(f));
        case 'Div':
          return (f) => {
            const x = a(f);
            return trunc(x / divisor(f)) | 0;
          };
        case 'FloorDiv':
          return (f) => {
            const x = a(f);
            return floor(x / divisor(f)) | 0;
          };
        case 'FloorMod':
          return (f) => {
            const x = a(f);
            return floorMod(x, divisor(f)) | 0;
          };
      }
    }
    const w = wrapTo(dtype);
    // int64 products are exact only below 2^53; narrow types multiply exactly via imul.
    const mul = dtype === 'int64' ? (x: number, y: number): number => x * y : imul;
    switch (e.op) {
      case 'Add':
        return (f) => w(a(f) + b(f));
      case 'Sub':
        return (f) => w(a(f) - b(f));
      case 'Mul':
        return (f) => w(mul(a(f), b(f)));
      case 'Div':
        return (f) => {
          const x = a(f);
          return w(trunc(x / divisor(f)));
        };
      case 'FloorDiv':
        return (f) => {
          const x = a(f);
          return w(floor(x / divisor(f)));
        };
      case 'FloorMod':
        return (f) => {
          const x = a(f);
          return w(floorMod(x, divisor(f)));
        };
      default:
        throw this.err(`unexpected integer operator ${e.op}`);
    }
  }

  // ------------------------------------------------------------ memory access

  /** Element index (row-major, plus elemOffset) of an access; shapes folded when constant. */
  private flatIndex(buffer: Buffer, indices: readonly Expr[]): NumFn {
    const idx = indices.map((i) => this.num(i));
    const off = buffer.elemOffset;
    if (idx.length === 1) {
      const i0 = idx[0];
      return off === 0 ? i0 : (f) => i0(f) + off;
    }
    if (idx.length !== buffer.shape.length) {
      throw this.err(`buffer '${buffer.name}' has ${buffer.shape.length} dims but is indexed with ${idx.length}`, {
        buffer: buffer.name,
      });
    }
    const dims = buffer.shape.map((d) => (d.kind === 'IntImm' ? d.value : undefined));
    if (dims.every((d) => d !== undefined)) {
      const strides = new Array<number>(dims.length);
      let s = 1;
      for (let k = dims.length - 1; k >= 0; k--) {
        strides[k] = s;
        s *= dims[k] as number;
      }
      if (idx.length === 2) {
        const [i0, i1] = idx;
        const s0 = strides[0];
        return (f) => i0(f) * s0 + i1(f) + off;
      }
      if (idx.length === 3) {
        const [i0, i1, i2] = idx;
        const [s0, s1] = strides;
        return (f) => i0(f) * s0 + i1(f) * s1 + i2(f) + off;
      }
      if (idx.length === 4) {
        const [i0, i1, i2, i3] = idx;
        const [s0, s1, s2] = strides;
        return (f) => i0(f) * s0 + i1(f) * s1 + i2(f) * s2 + i3(f) + off;
      }
      return (f) => {
        let flat = off;
        for (let k = 0; k < idx.length; k++) flat += idx[k](f) * strides[k];
        return flat;
      };
    }
    const dimFns = buffer.shape.map((d) => this.num(d));
    return (f) => {
      let flat = 0;
      for (let k = 0; k < idx.length; k++) flat = flat * dimFns[k](f) + idx[k](f);
      return flat + off;
    };
  }

  /** Byte position of an access into its region, bounds-checked; returns [pointer, pos]. */
  private access(buffer: Buffer, indices: readonly Expr[], what: string): (f: Frame) => [Uint8Array, number] {
    const dataSlot = this.use(buffer.data);
    const index = this.flatIndex(buffer, indices);
    const size = dtypeBytes(buffer.dtype);
    const indexFns = indices.map((i) => this.num(i));
    const fail = (f: Frame, mem: Uint8Array, pos: number): TirOutOfBoundsError => {
      const at = indexFns.map((i) => i(f));
      return new TirOutOfBoundsError(
        `${what} of buffer '${buffer.name}' at index [${at.join(', ')}] (byte ${pos}..${pos + size}) is outside its ` +
          `${mem.length}-byte region (in PrimFunc '${this.name}')`,
        { func: this.name, buffer: buffer.name, index: at, byteOffset: pos, regionBytes: mem.length },
      );
    };
    return (f) => {
      const p = f[dataSlot] as Pointer;
      const pos = p.byteOffset + index(f) * size;
      const mem = p.mem;
      if (pos < 0 || pos + size > mem.length) throw fail(f, mem, pos);
      return [mem, pos];
    };
  }

  private load(e: BufferLoad): NumFn {
    const dataSlot = this.use(e.buffer.data);
    const read = readerFor(e.buffer.dtype);
    const at = this.access(e.buffer, e.indices, 'load');
    // Hot path: avoid the tuple of `access` by inlining the in-bounds check.
    const index = this.flatIndex(e.buffer, e.indices);
    const size = dtypeBytes(e.buffer.dtype);
    let lastMem: Uint8Array | undefined;
    let lastView: DataView = new DataView(new ArrayBuffer(0));
    return (f) => {
      const p = f[dataSlot] as Pointer;
      const mem = p.mem;
      const pos = p.byteOffset + index(f) * size;
      if (pos < 0 || pos + size > mem.length) at(f);
      if (mem !== lastMem) {
        lastMem = mem;
        lastView = viewOf(mem);
      }
      return read(mem, lastView, pos);
    };
  }

  private addressOf(e: Call): PtrFn {
    const load = e.args[0];
    if (load === undefined || load.kind !== 'BufferLoad') throw this.err('tir.address_of expects a BufferLoad');
    const at = this.access(load.buffer, load.indices, 'address_of');
    return (f) => {
      const [mem, pos] = at(f);
      return { mem, byteOffset: pos };
    };
  }

  private accessPtr(e: Call): PtrFn {
    const [type, data, offset, extent] = e.args;
    if (type === undefined || data === undefined || offset === undefined || extent === undefined) {
      throw this.err('tir.tvm_access_ptr expects (dtype, data, offset, extent, rw_mask)');
    }
    const dtype = (type.kind === 'StringImm' ? type.value : exprDType(type)) as ScalarDType;
    const size = dtypeBytes(dtype);
    const base = this.ptr(data);
    const off = this.num(offset);
    const ext = this.num(extent);
    const name = data.kind === 'Var' ? data.name : 'pointer';
    return (f) => {
      const p = base(f);
      const pos = p.byteOffset + off(f) * size;
      const end = pos + ext(f) * size;
      if (pos < 0 || end > p.mem.length) {
        throw new TirOutOfBoundsError(
          `tvm_access_ptr of '${name}' bytes [${pos}, ${end}) is outside its ${p.mem.length}-byte region (in PrimFunc '${this.name}')`,
          { func: this.name, buffer: name, byteOffset: pos, regionBytes: p.mem.length },
        );
      }
      return { mem: p.mem, byteOffset: pos };
    };
  }

  private poolPtr(e: Call): PtrFn {
    const [poolArg, offsetArg] = e.args;
    if (poolArg === undefined || offsetArg === undefined) throw this.err('tir.pool_ptr expects (pool var, byte offset)');
    const pool = this.ptr(poolArg);
    const offset = this.num(offsetArg);
    const name = poolArg.kind === 'Var' ? poolArg.name : 'pool';
    return (f) => {
      const p = pool(f);
      const pos = p.byteOffset + offset(f);
      if (pos < 0 || pos > p.mem.length) {
        throw new TirOutOfBoundsError(
          `pool_ptr offset ${pos} is outside pool '${name}' of ${p.mem.length} bytes (in PrimFunc '${this.name}')`,
          { func: this.name, pool: name, byteOffset: pos, regionBytes: p.mem.length },
        );
      }
      return { mem: p.mem, byteOffset: pos };
    };
  }

  private qMultiplyShift(e: Call): NumFn {
    const args = e.args.map((a) => this.num(a));
    if (args.length === 3) {
      const [x, m, s] = args;
      // As TFLite's C++ overloads: an int64 accumulator takes the 64-bit variant (16x8 kernels).
      if (exprDType(e.args[0]) === 'int64') return (f) => multiplyByQuantizedMultiplier64(x(f), m(f), s(f));
      return (f) => multiplyByQuantizedMultiplier(x(f), m(f), s(f));
    }
    if (args.length === 4) {
      // TVM's 4-argument form carries the multiplier's fraction bits, always 31 for TFLite.
      const [x, m, q, s] = args;
      return (f) => {
        const bits = q(f);
        if (bits !== 31) throw this.err(`tir.q_multiply_shift with ${bits} fraction bits is not supported`);
        return multiplyByQuantizedMultiplier(x(f), m(f), s(f));
      };
    }
    throw this.err(`tir.q_multiply_shift expects 3 arguments, got ${args.length}`);
  }

  private call(e: Call): (f: Frame) => Value {
    if (EXTERN_OPS.has(e.op)) {
      const callee = e.args[0];
      if (callee === undefined || callee.kind !== 'StringImm') throw this.err(`${e.op} needs a callee name first`);
      const name = callee.value;
      const args = e.args.slice(1).map((a) => this.arg(a));
      const target = this.target;
      const caller = this.name;
      return (f) =>
        target.invoke(
          name,
          args.map((a) => a(f)),
          caller,
        );
    }
    switch (e.op) {
      case 'tir.address_of':
        return this.addressOf(e);
      case 'tir.tvm_access_ptr':
        return this.accessPtr(e);
      case 'tir.pool_ptr':
        return this.poolPtr(e);
      case 'tir.q_multiply_shift':
        return this.qMultiplyShift(e);
      case 'tir.if_then_else': {
        const [c, t, o] = e.args;
        if (c === undefined || t === undefined || o === undefined) throw this.err('tir.if_then_else expects 3 arguments');
        const cf = this.num(c);
        const tf = this.value(t);
        const of = this.value(o);
        return (f) => (cf(f) !== 0 ? tf(f) : of(f));
      }
    }
    const pure = PURE_INTRINSICS[e.op];
    const w = wrapTo(e.dtype);
    if (pure !== undefined) {
      const args = e.args.map((a) => this.num(a));
      return (f) =>
        w(
          pure(args.map((a) => a(f))),
        );
    }
    const args = e.args.map((a) => this.arg(a));
    const target = this.target;
    const caller = this.name;
    const op = e.op;
    return (f) =>
      w(
        target.intrinsic(
          op,
          args.map((a) => a(f)),
          caller,
        ),
      );
  }

  // ------------------------------------------------------------ statements

  /**
   * A statement as a closure. A chain of scope statements (main has one per tensor, thousands
   * deep) compiles with a loop into a flat list of set-up steps run before the innermost body:
   * each only fills its var's slot, so running them first is running them nested.
   */
  stmt(s: Stmt): StmtFn {
    if (!isScopeStmt(s)) return this.unscoped(s);
    const steps: StmtFn[] = [];
    const bound: Var[] = [];
    let cur: Stmt = s;
    while (isScopeStmt(cur)) {
      const step = this.scopeStep(cur);
      if (step !== undefined) {
        steps.push(step.run);
        bound.push(step.v);
      }
      cur = cur.body;
    }
    const inner = this.unscoped(cur);
    for (let i = bound.length - 1; i >= 0; i--) this.unbind(bound[i]);
    if (steps.length === 0) return inner;
    return (f) => {
      for (let k = 0; k < steps.length; k++) steps[k](f);
      inner(f);
    };
  }

  /** Binds the var a scope statement declares (for its body) and returns what fills its slot; a DeclBuffer has none. */
  private scopeStep(s: ScopeStmt): { v: Var; run: StmtFn } | undefined {
    switch (s.kind) {
      case 'Allocate': {
        const extents = s.extents.map((x) => this.num(x));
        const elem = dtypeBytes(s.dtype);
        const fillAnn = s.annotations[ANN_FILL_BYTE];
        const fill = typeof fillAnn === 'number' ? fillAnn : 0;
        const initial = s.annotations[ANN_INITIAL_BYTES] === undefined ? undefined : s;
        const slot = this.bind(s.bufferVar);
        return {
          v: s.bufferVar,
          run: (f) => {
            let n = elem;
            for (const x of extents) n *= x(f);
            const init = initial && initialBytesOf(initial, n);
            f[slot] = { mem: init ? init.slice() : fill ? new Uint8Array(n).fill(fill) : new Uint8Array(n), byteOffset: 0 };
          },
        };
      }
      case 'AllocateConst': {
        let n = dtypeBytes(s.dtype);
        for (const x of s.extents) {
          if (x.kind !== 'IntImm') throw this.err('AllocateConst extents must be constants');
          n *= x.value;
        }
        const data = s.data;
        const size = mathMax(n, data.length);
        const slot = this.bind(s.bufferVar);
        return {
          v: s.bufferVar,
          run: (f) => {
            const mem = new Uint8Array(size);
            mem.set(data);
            f[slot] = { mem, byteOffset: 0 };
          },
        };
      }
      case 'DeclBuffer':
        this.use(s.buffer.data);
        return undefined;
      case 'LetStmt': {
        const value = this.value(s.value);
        const slot = this.bind(s.var);
        return {
          v: s.var,
          run: (f) => {
            f[slot] = value(f);
          },
        };
      }
    }
  }

  private unscoped(s: Exclude<Stmt, ScopeStmt>): StmtFn {
    switch (s.kind) {
      case 'For': {
        const min = this.num(s.min);
        const extent = this.num(s.extent);
        const [slot, body] = this.scoped(s.loopVar, () => this.stmt(s.body));
        return (f) => {
          const lo = min(f);
          const n = extent(f);
          for (let i = 0; i < n; i++) {
            f[slot] = lo + i;
            body(f);
          }
        };
      }
      case 'SeqStmt': {
        const seq = s.seq.map((x) => this.stmt(x));
        return (f) => {
          for (let k = 0; k < seq.length; k++) seq[k](f);
        };
      }
      case 'IfThenElse': {
        const c = this.num(s.condition);
        const then = this.stmt(s.then);
        const otherwise = s.else === undefined ? undefined : this.stmt(s.else);
        return otherwise === undefined
          ? (f) => {
              if (c(f) !== 0) then(f);
            }
          : (f) => {
              if (c(f) !== 0) then(f);
              else otherwise(f);
            };
      }
      case 'BufferStore': {
        const dataSlot = this.use(s.buffer.data);
        const write = writerFor(s.buffer.dtype);
        const at = this.access(s.buffer, s.indices, 'store');
        const index = this.flatIndex(s.buffer, s.indices);
        const size = dtypeBytes(s.buffer.dtype);
        const value = this.num(s.value);
        let lastMem: Uint8Array | undefined;
        let lastView: DataView = new DataView(new ArrayBuffer(0));
        return (f) => {
          const v = value(f);
          const p = f[dataSlot] as Pointer;
          const mem = p.mem;
          const pos = p.byteOffset + index(f) * size;
          if (pos < 0 || pos + size > mem.length) at(f);
          if (mem !== lastMem) {
            lastMem = mem;
            lastView = viewOf(mem);
          }
          write(mem, lastView, pos, v);
        };
      }
      case 'Evaluate': {
        const v = this.arg(s.value);
        return (f) => {
          v(f);
        };
      }
    }
  }
}

/** Compiles one PrimFunc; `target` resolves the calls it makes. */
export function compilePrimFunc(name: string, func: PrimFunc, target: CallTarget): CompiledFunc {
  const c = new FuncCompiler(name, target);
  const paramSlots = func.params.map((p) => c.bind(p));
  const bufferBinds = func.bufferMap.map(([param, buffer]) => {
    if (!func.params.some((p) => p.id === param.id)) {
      throw new TirEvalError(`bufferMap of '${name}' maps '${param.name}', which is not a parameter`, {
        func: name,
        buffer: buffer.name,
      });
    }
    return [c.slotOf(param), c.bind(buffer.data)] as const;
  });
  const body = c.stmt(func.body);
  return { name, func, frameSize: c.frameSize, paramSlots, bufferBinds, body };
}
