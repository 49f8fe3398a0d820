/**
 * A small dataflow pattern language, shaped after TVM's `tvm.relay.dataflow_pattern`:
 *
 *   isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant()))
 *     .hasAttr({ activation: 'RELU' })
 *     .optional((p) => isOp('add')(p, wildcard()))
 *
 * Patterns are immutable trees. A pattern object used twice in one tree must match the same
 * graph node both times (as in TVM), so `const x = wildcard(); isOp('add')(x, x)` matches
 * only `add(a, a)`.
 */
import { AttrValue, DType, DTYPE_BYTES } from '../ir/graph/types';
import { RegistrationError } from '../errors';

export type PatternKind = 'wildcard' | 'var' | 'constant' | 'call' | 'attr' | 'dtype' | 'alt' | 'optionalArg';

export abstract class DFPattern {
  abstract readonly kind: PatternKind;

  /** Matches `this` or, failing that, `other`. */
  or(other: DFPattern): DFPattern {
    return new AltPattern(this, other);
  }

  /** Matches when the matched call carries these attribute values (arrays compared element-wise). */
  hasAttr(attrs: Readonly<Record<string, AttrValue>>): DFPattern {
    return new AttrPattern(this, attrs);
  }

  /** Matches when the matched node's tensor type has this dtype. */
  hasDtype(dtype: DType): DFPattern {
    // A misspelt dtype ('float128', 'f32') would match nothing, silently.
    if (!Object.prototype.hasOwnProperty.call(DTYPE_BYTES, dtype)) {
      throw new RegistrationError(`hasDtype: unknown dtype '${String(dtype)}' (one of ${Object.keys(DTYPE_BYTES).join(', ')})`);
    }
    return new DtypePattern(this, dtype);
  }

  /** TVM's `pattern.optional(f)`: matches `wrap(this)` when it can, else `this` alone. */
  optional(wrap: (p: DFPattern) => DFPattern): DFPattern {
    return new AltPattern(wrap(this), this);
  }
}

export class WildcardPattern extends DFPattern {
  readonly kind = 'wildcard' as const;
}

export class VarPattern extends DFPattern {
  readonly kind = 'var' as const;
  constructor(readonly name?: string) {
    super();
  }
}

export class ConstantPattern extends DFPattern {
  readonly kind = 'constant' as const;
}

export class OptionalArgPattern extends DFPattern {
  readonly kind = 'optionalArg' as const;
  constructor(readonly inner: DFPattern) {
    super();
  }
}

export class CallPattern extends DFPattern {
  readonly kind = 'call' as const;
  constructor(
    readonly op: string,
    readonly args: readonly DFPattern[],
  ) {
    super();
  }

  /** Number of arguments that must be present (those before the first optionalArg). */
  get requiredArgs(): number {
    const i = this.args.findIndex((a) => a.kind === 'optionalArg');
    return i < 0 ? this.args.length : i;
  }
}

export class AttrPattern extends DFPattern {
  readonly kind = 'attr' as const;
  constructor(
    readonly inner: DFPattern,
    readonly attrs: Readonly<Record<string, AttrValue>>,
  ) {
    super();
  }
}

export class DtypePattern extends DFPattern {
  readonly kind = 'dtype' as const;
  constructor(
    readonly inner: DFPattern,
    readonly dtype: DType,
  ) {
    super();
  }
}

export class AltPattern extends DFPattern {
  readonly kind = 'alt' as const;
  constructor(
    readonly left: DFPattern,
    readonly right: DFPattern,
  ) {
    super();
  }
}

/** The closed set of pattern nodes, for exhaustive switches over `kind`. */
export type AnyPattern =
  | WildcardPattern
  | VarPattern
  | ConstantPattern
  | OptionalArgPattern
  | CallPattern
  | AttrPattern
  | DtypePattern
  | AltPattern;

export function asAnyPattern(p: DFPattern): AnyPattern {
  return p as AnyPattern;
}

export function wildcard(): WildcardPattern {
  return new WildcardPattern();
}

/** A function parameter (model input or partitioned-function argument), optionally by name. */
export function isVar(name?: string): VarPattern {
  return new VarPattern(name);
}

export function isConstant(): ConstantPattern {
  return new ConstantPattern();
}

/** Marks a trailing call argument that may be absent (e.g. conv2d's bias). */
export function optionalArg(inner: DFPattern): OptionalArgPattern {
  return new OptionalArgPattern(inner);
}

/** `isOp('conv2d')(input, weight)` builds a call pattern with exactly these arguments. */
export function isOp(op: string): (...args: DFPattern[]) => CallPattern {
  return (...args: DFPattern[]) => {
    let sawOptional = false;
    args.forEach((a, i) => {
      if (a.kind === 'optionalArg') sawOptional = true;
      else if (sawOptional) {
        throw new RegistrationError(
          `pattern isOp('${op}'): argument ${i} is required but follows an optional argument`,
          { op },
        );
      }
    });
    return new CallPattern(op, args);
  };
}

/** True when every way the pattern can match has an operator call at its root. */
export function hasCallRoot(pattern: DFPattern): boolean {
  const p = asAnyPattern(pattern);
  switch (p.kind) {
    case 'call':
      return true;
    case 'attr':
    case 'dtype':
    case 'optionalArg':
      return hasCallRoot(p.inner);
    case 'alt':
      return hasCallRoot(p.left) && hasCallRoot(p.right);
    default:
      return false;
  }
}

/** Every operator name the pattern mentions. */
export function patternOps(pattern: DFPattern, out: Set<string> = new Set()): Set<string> {
  const p = asAnyPattern(pattern);
  switch (p.kind) {
    case 'call':
      out.add(p.op);
      for (const a of p.args) patternOps(a, out);
      break;
    case 'attr':
    case 'dtype':
    case 'optionalArg':
      patternOps(p.inner, out);
      break;
    case 'alt':
      patternOps(p.left, out);
      patternOps(p.right, out);
      break;
    default:
      break;
  }
  return out;
}
