/**
 * Runs a TirModule without a C compiler, so lowering and memory planning can be tested
 * end to end: calls between PrimFuncs, simulated extern kernels, and pools supplied by
 * the caller after the USMP rewrite.
 */
import { MAIN_PRIM_FUNC, PrimFunc, TirModule, Var } from '../nodes';
import { ArgValue, CallTarget, CompiledFunc, compilePrimFunc } from './compile';
import { TirEvalError } from './errors';
import { dtypeBytes } from '../dtype';
import { Pointer, Value, isPointer, pointerTo } from './memory';

export interface ExternContext {
  readonly module: TirModule;
  /** The PrimFunc that made the call. */
  readonly caller: string;
  /** The extern (or intrinsic op) being called. */
  readonly callee: string;
  /** Calls a PrimFunc of the module, as a kernel that delegates back into TIR would. */
  callPrimFunc(name: string, args: readonly ArgValue[]): number;
}

/** A simulated kernel: gets evaluated arguments (numbers, pointers, literal strings). */
export type ExternFn = (args: readonly ArgValue[], ctx: ExternContext) => number;

export interface EvalOptions {
  /** Extern C functions (and unknown intrinsic ops) by name. */
  readonly externs?: ReadonlyMap<string, ExternFn>;
  /** Pool regions by pool name, bound to the `<pool>_var` params USMP appends. */
  readonly pools?: ReadonlyMap<string, Uint8Array>;
  /** Nested PrimFunc calls allowed before assuming runaway recursion. */
  readonly maxCallDepth?: number;
}

export type EvalArg = Pointer | Uint8Array | number;

const DEFAULT_MAX_CALL_DEPTH = 64;

/** The running module: compiles each PrimFunc on its first call and dispatches calls. */
class Machine implements CallTarget {
  private readonly compiled = new Map<string, CompiledFunc>();
  private depth = 0;

  constructor(
    private readonly module: TirModule,
    private readonly options: EvalOptions,
  ) {}

  private compiledFunc(name: string): CompiledFunc {
    let c = this.compiled.get(name);
    if (c === undefined) {
      const f = this.module.functions.get(name);
      if (f === undefined) throw new TirEvalError(`no PrimFunc named '${name}' in the module`, { func: name });
      c = compilePrimFunc(name, f, this);
      this.compiled.set(name, c);
    }
    return c;
  }

  callPrimFunc(name: string, args: readonly ArgValue[]): number {
    const c = this.compiledFunc(name);
    const params = c.func.params;
    if (args.length !== params.length) {
      throw new TirEvalError(`PrimFunc '${name}' takes ${params.length} arguments, got ${args.length}`, { func: name });
    }
    const frame: unknown[] = new Array(c.frameSize);
    for (let i = 0; i < params.length; i++) frame[c.paramSlots[i]] = checkArg(name, params[i], args[i]);
    for (const [from, to] of c.bufferBinds) frame[to] = frame[from];
    const maxDepth = this.options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH;
    if (++this.depth > maxDepth) {
      this.depth = 0;
      throw new TirEvalError(`call depth exceeds ${maxDepth} at PrimFunc '${name}'`, { func: name });
    }
    try {
      c.body(frame);
    } finally {
      this.depth--;
    }
    return 0;
  }

  private context(caller: string, callee: string): ExternContext {
    return { module: this.module, caller, callee, callPrimFunc: (n, a) => this.callPrimFunc(n, a) };
  }

  invoke(callee: string, args: ArgValue[], caller: string): number {
    if (this.module.functions.has(callee)) return this.callPrimFunc(callee, args);
    const ext = this.options.externs?.get(callee);
    if (ext === undefined) {
      throw new TirEvalError(`'${caller}' calls '${callee}', which is neither a PrimFunc nor a registered extern`, {
        func: caller,
        op: callee,
      });
    }
    return ext(args, this.context(caller, callee));
  }

  intrinsic(op: string, args: ArgValue[], caller: string): number {
    const ext = this.options.externs?.get(op);
    if (ext === undefined) {
      throw new TirEvalError(`'${caller}' uses intrinsic '${op}', which the evaluator does not know`, {
        func: caller,
        op,
      });
    }
    return ext(args, this.context(caller, op));
  }
}

function checkArg(func: string, param: Var, arg: ArgValue | undefined): Value {
  if (param.dtype === 'handle') {
    if (isPointer(arg)) return arg;
    throw new TirEvalError(`PrimFunc '${func}' param '${param.name}' needs a pointer`, { func, buffer: param.name });
  }
  if (typeof arg === 'number') return arg;
  throw new TirEvalError(`PrimFunc '${func}' param '${param.name}' needs a ${param.dtype} number`, { func });
}

function toArgValue(a: EvalArg): Value {
  return a instanceof Uint8Array ? pointerTo(a) : a;
}

/**
 * Runs PrimFunc `name` with `args` bound to its params in order; byte arrays become pointers
 * to their start. Returns the function's status (0).
 */
export function runPrimFunc(
  module: TirModule,
  name: string,
  args: readonly EvalArg[],
  options: EvalOptions = {},
): number {
  return new Machine(module, options).callPrimFunc(name, args.map(toArgValue));
}

/** Byte size of the buffer a handle param views, from the function's bufferMap. */
export function paramBufferBytes(func: PrimFunc, param: Var): number | undefined {
  const entry = func.bufferMap.find(([p]) => p.id === param.id);
  if (entry === undefined) return undefined;
  let n = dtypeBytes(entry[1].dtype);
  for (const d of entry[1].shape) {
    if (d.kind !== 'IntImm') return undefined;
    n *= d.value;
  }
  return n;
}

const POOL_PARAM_SUFFIX = '_var';

/**
 * Runs the AoT entry `__tvm_main__`: params are the model inputs (copied from `inputs`),
 * then the outputs (allocated here, sized from the bufferMap), then after USMP one
 * `<pool>_var` param per pool, bound to `options.pools`. Returns the outputs.
 */
export function runMain(module: TirModule, inputs: readonly Uint8Array[], options: EvalOptions = {}): Uint8Array[] {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (main === undefined) throw new TirEvalError(`the module has no '${MAIN_PRIM_FUNC}'`, { func: MAIN_PRIM_FUNC });
  if (inputs.length > main.params.length) {
    throw new TirEvalError(`'${MAIN_PRIM_FUNC}' takes ${main.params.length} params, got ${inputs.length} inputs`, {
      func: MAIN_PRIM_FUNC,
    });
  }
  const args: Value[] = [];
  const outputs: Uint8Array[] = [];
  main.params.forEach((param, i) => {
    const expected = paramBufferBytes(main, param);
    if (i < inputs.length) {
      if (expected !== undefined && inputs[i].length !== expected) {
        throw new TirEvalError(`input ${i} ('${param.name}') has ${inputs[i].length} bytes, expected ${expected}`, {
          func: MAIN_PRIM_FUNC,
          buffer: param.name,
        });
      }
      args.push(pointerTo(new Uint8Array(inputs[i])));
      return;
    }
    const pool = param.name.endsWith(POOL_PARAM_SUFFIX)
      ? options.pools?.get(param.name.slice(0, -POOL_PARAM_SUFFIX.length))
      : undefined;
    if (pool !== undefined) {
      args.push(pointerTo(pool));
      return;
    }
    if (expected === undefined) {
      throw new TirEvalError(
        `param '${param.name}' of '${MAIN_PRIM_FUNC}' is neither an output with a constant-shape buffer nor a supplied pool`,
        { func: MAIN_PRIM_FUNC, buffer: param.name },
      );
    }
    const out = new Uint8Array(expected);
    outputs.push(out);
    args.push(pointerTo(out));
  });
  new Machine(module, options).callPrimFunc(MAIN_PRIM_FUNC, args);
  return outputs;
}
