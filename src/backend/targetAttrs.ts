/**
 * Target attributes a backend declares (UMA's `_register_target_attr`) and the parser of
 * target strings such as `accel --dimension=16 --fast=true`.
 *
 * TVM target kinds accept only String, Integer and Bool options; we accept the JSON-ish
 * equivalents (string, number, boolean) and keep the declared type so a target string can
 * be checked and converted.
 */
import { ConfigError, RegistrationError } from '../errors';

export type TargetAttrValue = string | number | boolean;
export type TargetAttrType = 'string' | 'int' | 'float' | 'boolean';

export interface TargetAttrDecl {
  readonly name: string;
  readonly type: TargetAttrType;
  readonly default: TargetAttrValue;
}

/**
 * Options every TVM target kind already has; a backend may not redefine them because the
 * target string parser would not know which meaning applies.
 */
export const BUILTIN_TARGET_ATTRS: readonly string[] = [
  'keys',
  'device',
  'model',
  'mcpu',
  'mattr',
  'mtriple',
  'from_device',
  'libs',
  'tag',
  'host',
  'target_device_type',
];

const ATTR_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function typeOfDefault(value: unknown): TargetAttrType | undefined {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      if (!Number.isFinite(value)) return undefined;
      return Number.isInteger(value) ? 'int' : 'float';
    default:
      return undefined;
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return 'non-finite number';
  return typeof value;
}

/** Checks one registration and returns its declaration; `existing` guards against duplicates. */
export function declareTargetAttr(
  target: string,
  name: string,
  defaultValue: unknown,
  existing: ReadonlyMap<string, TargetAttrDecl>,
): TargetAttrDecl {
  const ctx = { target, attr: name };
  if (!ATTR_NAME.test(name)) {
    throw new RegistrationError(
      `target '${target}': attribute name '${name}' is not an identifier (letters, digits, '_' or '-', not starting with a digit)`,
      ctx,
    );
  }
  // Values travel in plain objects, where '__proto__' or 'constructor' is no ordinary key.
  if (name in Object.prototype) {
    throw new RegistrationError(`target '${target}': attribute name '${name}' is reserved (a property of every JavaScript object)`, ctx);
  }
  if (BUILTIN_TARGET_ATTRS.includes(name)) {
    throw new RegistrationError(`target '${target}': attribute '${name}' clashes with a built-in target attribute`, ctx);
  }
  if (existing.has(name)) {
    throw new RegistrationError(`target '${target}': attribute '${name}' is already registered`, ctx);
  }
  const type = typeOfDefault(defaultValue);
  if (type === undefined) {
    throw new RegistrationError(
      `target '${target}': attribute '${name}' has unsupported default type ${describeType(defaultValue)}; only string, number and boolean are supported`,
      ctx,
    );
  }
  return { name, type, default: defaultValue as TargetAttrValue };
}

export interface ParsedTarget {
  /** The target kind (backend name), e.g. `accel`. */
  readonly kind: string;
  /** Every declared attribute: its value from the string, else its default. */
  readonly attrs: Readonly<Record<string, TargetAttrValue>>;
  /** Built-in attributes given in the string (`--mcpu=...`), kept verbatim. */
  readonly builtins: Readonly<Record<string, string>>;
}

/** What `parseTarget` needs to know about backends; BackendRegistry implements it. */
export interface TargetAttrSource {
  targets(): readonly string[];
  targetAttrs(target: string): readonly TargetAttrDecl[];
}

function convertValue(target: string, decl: TargetAttrDecl, raw: string): TargetAttrValue {
  const ctx = { target, attr: decl.name };
  switch (decl.type) {
    case 'string':
      return raw;
    case 'boolean':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw new ConfigError(`target '${target}': --${decl.name} expects a boolean (true/false), got '${raw}'`, ctx);
    case 'int': {
      // Decimal digits only, as TVM's (Python's) int(): Number() took '1e3' and '0x10', and
      // rounded past 2^53 ('99999999999999999999' became 1e20), where --runs refuses them.
      const n = Number(raw);
      if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n)) {
        throw new ConfigError(`target '${target}': --${decl.name} expects an integer (decimal digits, at most 2^53-1), got '${raw}'`, ctx);
      }
      return n;
    }
    case 'float': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) {
        throw new ConfigError(`target '${target}': --${decl.name} expects a number, got '${raw}'`, ctx);
      }
      return n;
    }
  }
}

/** Splits `--name=value`, `-name=value` or `--name value` options into pairs. */
function splitOptions(target: string, tokens: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(token);
    if (m === null) {
      throw new ConfigError(`target '${target}': expected an option like --name=value, got '${token}'`, { target });
    }
    const name = m[1];
    let value = m[2];
    if (value === undefined) {
      const next = tokens[i + 1];
      if (next === undefined || next.startsWith('-')) {
        throw new ConfigError(`target '${target}': option --${name} needs a value (--${name}=<value>)`, { target, attr: name });
      }
      value = next;
      i++;
    }
    pairs.push([name, value]);
  }
  return pairs;
}

/** Parses `kind --attr=value ...` against the attributes the backend `kind` registered. */
export function parseTarget(text: string, registry: TargetAttrSource): ParsedTarget {
  const tokens = text.trim().split(/\s+/).filter((t) => t !== '');
  if (tokens.length === 0) throw new ConfigError('empty target string');
  const [kind, ...rest] = tokens;
  const known = registry.targets();
  if (!known.includes(kind)) {
    throw new ConfigError(`unknown target '${kind}' (registered: ${known.join(', ') || 'none'})`, { target: kind });
  }
  const decls = new Map(registry.targetAttrs(kind).map((d) => [d.name, d] as const));
  const attrs: Record<string, TargetAttrValue> = {};
  for (const d of decls.values()) attrs[d.name] = d.default;
  const builtins: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, raw] of splitOptions(kind, rest)) {
    if (seen.has(name)) throw new ConfigError(`target '${kind}': option --${name} is given twice`, { target: kind, attr: name });
    seen.add(name);
    if (BUILTIN_TARGET_ATTRS.includes(name)) {
      builtins[name] = raw;
      continue;
    }
    const decl = decls.get(name);
    if (decl === undefined) {
      const names = [...decls.keys()];
      throw new ConfigError(
        `target '${kind}': unknown attribute '${name}' (known: ${names.join(', ') || 'none'})`,
        { target: kind, attr: name },
      );
    }
    attrs[name] = convertValue(kind, decl, raw);
  }
  return { kind, attrs, builtins };
}
