/**
 * What the emitters know while writing one PrimFunc: identifiers of its variables, the
 * element types behind handle vars, which arrays are `const`, the module functions it may
 * call (with their C signatures) and the external functions it calls.
 */
import { CodegenError } from '../../errors';
import { ScalarDType, Var } from '../../ir/tir/nodes';
import { cElemType } from './ctypes';
import { NameScope } from './names';

/** C signature of a PrimFunc of the module, as callers see it. */
export interface CalleeSignature {
  readonly symbol: string;
  /** C types of the parameters, in order. */
  readonly paramTypes: readonly string[];
}

/** An external C function as inferred from its call sites. */
export interface ExternUse {
  readonly returnType: string;
  readonly paramTypes: string[];
}

export class FuncContext {
  readonly names: NameScope;
  /** Module functions (TIR names) this function calls. */
  readonly calledFuncs = new Set<string>();
  /** External functions called, by C name, with their inferred prototypes. */
  readonly externs = new Map<string, ExternUse>();
  private readonly elemTypes = new Map<number, ScalarDType>();
  private readonly constVars = new Set<number>();

  constructor(
    /** TIR name of the function, for error context. */
    readonly func: string,
    readonly module: ReadonlyMap<string, CalleeSignature>,
    globals: NameScope,
    /** Backend override of extern call text (see BackendCodegenHook). */
    readonly replaceCallExtern?: (name: string, args: readonly string[]) => string | undefined,
  ) {
    this.names = new NameScope([], globals);
  }

  /** Records the element type of a handle var (from a buffer, an allocation or a let). */
  setElemType(v: { readonly id: number }, dtype: ScalarDType): void {
    if (!this.elemTypes.has(v.id)) this.elemTypes.set(v.id, dtype);
  }

  /** Element type reached through a handle var: its pointee, what was recorded, else bytes. */
  elemType(v: Var): ScalarDType {
    return v.pointee ?? this.elemTypes.get(v.id) ?? 'uint8';
  }

  /** C pointer type of a handle var (never const: see `pointerValue`). */
  pointerType(v: Var): string {
    if (v.dtype !== 'handle') {
      throw new CodegenError(`variable ${v.name} of type ${v.dtype} used as a pointer`, { func: this.func });
    }
    return `${cElemType(this.elemType(v), v.name)}*`;
  }

  markConst(v: Var): void {
    this.constVars.add(v.id);
  }

  isConst(v: Var): boolean {
    return this.constVars.has(v.id);
  }

  /** Records an extern call; pointer parameters that disagree between calls become void*. */
  noteExtern(name: string, returnType: string, argTypes: readonly string[]): void {
    const prev = this.externs.get(name);
    if (prev === undefined) {
      this.externs.set(name, { returnType, paramTypes: [...argTypes] });
      return;
    }
    mergeExternUse(prev, { returnType, paramTypes: [...argTypes] }, name, this.func);
  }
}

/** Folds a second use of an extern into the first; incompatible uses are a codegen error. */
export function mergeExternUse(into: ExternUse, other: ExternUse, name: string, func: string): void {
  if (into.returnType !== other.returnType || into.paramTypes.length !== other.paramTypes.length) {
    throw new CodegenError(
      `external function ${name} is called with incompatible signatures ` +
        `(${into.returnType}(${into.paramTypes.join(', ')}) vs ${other.returnType}(${other.paramTypes.join(', ')}))`,
      { func },
    );
  }
  other.paramTypes.forEach((t, i) => {
    const mine = into.paramTypes[i];
    if (mine === t) return;
    if (mine.endsWith('*') && t.endsWith('*')) into.paramTypes[i] = 'void*';
    else {
      throw new CodegenError(`external function ${name}: argument ${i} is both ${mine} and ${t}`, { func });
    }
  });
}
