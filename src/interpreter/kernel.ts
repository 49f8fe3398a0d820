/**
 * What a reference kernel sees: the call, its evaluated arguments, and helpers that turn
 * missing inputs or attributes into InterpreterErrors naming the op and function.
 */
import { InterpreterError } from '../errors';
import { AttrValue, CallNode, TensorType } from '../ir/graph/types';
import { Tensor, TypedArray } from './tensor';
import { VariableStore } from './variables';

export class KernelContext {
  constructor(
    readonly call: CallNode,
    /** Evaluated arguments by position; `undefined` for an omitted optional argument. */
    readonly args: readonly (Tensor | undefined)[],
    /** Function the call belongs to, for error messages. */
    readonly func: string,
    /** The session's variable tensors; arguments it owns may be written back. */
    private readonly variables?: VariableStore,
  ) {}

  /** True when argument `index` is a variable tensor (state that persists across invocations). */
  isVariable(index: number): boolean {
    const t = this.args[index];
    return t !== undefined && this.variables !== undefined && this.variables.owns(t);
  }

  /**
   * Stores `data` as the new value of variable argument `index` (seen by the next
   * invocation of the session). A plain constant argument is left alone: it is read-only.
   */
  updateVariable(index: number, data: TypedArray): void {
    const t = this.args[index];
    if (t === undefined || this.variables === undefined || !this.variables.owns(t)) return;
    this.variables.write(t, data, `${this.op} '${this.call.name}'`, this.func);
  }

  get op(): string {
    return this.call.callee.kind === 'op' ? this.call.callee.op : this.call.callee.name;
  }

  get outType(): TensorType {
    return this.call.type;
  }

  fail(message: string): InterpreterError {
    return new InterpreterError(`${this.op} '${this.call.name}': ${message}`, { func: this.func, op: this.op });
  }

  input(index: number, role: string): Tensor {
    const t = this.args[index];
    if (!t) throw this.fail(`missing argument ${index} (${role})`);
    return t;
  }

  optionalInput(index: number): Tensor | undefined {
    return this.args[index];
  }

  numbers(name: string, fallback?: readonly number[]): readonly number[] {
    const v: AttrValue | undefined = this.call.attrs[name];
    if (v === undefined && fallback) return fallback;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) {
      throw this.fail(`attribute '${name}' must be a number list, got ${JSON.stringify(v)}`);
    }
    return v as readonly number[];
  }

  number(name: string, fallback?: number): number {
    const v = this.call.attrs[name];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'number') throw this.fail(`attribute '${name}' must be a number, got ${JSON.stringify(v)}`);
    return v;
  }

  string(name: string, fallback?: string): string {
    const v = this.call.attrs[name];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'string') throw this.fail(`attribute '${name}' must be a string, got ${JSON.stringify(v)}`);
    return v;
  }

  boolean(name: string, fallback: boolean): boolean {
    const v = this.call.attrs[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') throw this.fail(`attribute '${name}' must be a boolean, got ${JSON.stringify(v)}`);
    return v;
  }

  /** Per-tensor scale and zero point of a quantized tensor. */
  quant(type: TensorType, role: string): { scale: number; zeroPoint: number } {
    const q = type.quant;
    if (!q || q.scale.length === 0) throw this.fail(`${role} (${type.dtype}) has no quantization parameters`);
    return { scale: q.scale[0], zeroPoint: q.zeroPoint[0] ?? 0 };
  }

  unsupported(what: string): InterpreterError {
    return this.fail(`unsupported ${what}`);
  }
}

/** A reference kernel: computes the output elements of one call. */
export type Kernel = (ctx: KernelContext) => TypedArray;
