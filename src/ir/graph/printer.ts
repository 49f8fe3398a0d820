/**
 * Stable Relay-like text of an IRModule: functions sorted by name, attributes sorted by key,
 * constants shown by type, size and a FNV-1a digest of their bytes (so equal text means
 * equal data in practice, without dumping weights). Meant for tests and debugging.
 *
 *   def @main(%x: Tensor[(1, 4), int8, q(0.5, -1)]) -> Tensor[(1, 4), int8] {
 *     %w = constant(Tensor[(4, 4), int8], 16 bytes, fnv1a=0x1234abcd);
 *     %y = dense(%x, %w, activation="NONE", keep_num_dims=false) : Tensor[(1, 4), int8];
 *     %y
 *   }
 */
import { AttrValue, FunctionAttrs, GraphFunction, GraphNode, IRModule, TensorType } from './types';

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

function ident(name: string): string {
  return PLAIN_NAME.test(name) ? name : JSON.stringify(name);
}

function num(x: number): string {
  return Object.is(x, -0) ? '0' : String(x);
}

export function printType(t: TensorType): string {
  const shape = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.map(num).join(', ')})`;
  let quant = '';
  if (t.quant) {
    const { scale, zeroPoint, axis } = t.quant;
    quant =
      scale.length === 1
        ? `, q(${num(scale[0])}, ${num(zeroPoint[0])})`
        : `, q(axis=${axis}, scale=[${scale.map(num).join(', ')}], zp=[${zeroPoint.map(num).join(', ')}])`;
  }
  return `Tensor[${shape}, ${t.dtype}${quant}]`;
}

export function printAttrValue(v: AttrValue): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return num(v);
  if (typeof v === 'boolean') return String(v);
  return `[${(v as readonly (number | string)[]).map((x) => (typeof x === 'string' ? JSON.stringify(x) : num(x))).join(', ')}]`;
}

function printAttrs(attrs: Readonly<Record<string, AttrValue | undefined>>): string[] {
  return Object.keys(attrs)
    .filter((k) => attrs[k] !== undefined)
    .sort()
    .map((k) => `${k}=${printAttrValue(attrs[k] as AttrValue)}`);
}

/** 32-bit FNV-1a of the bytes, as 8 hex digits. */
export function fnv1a(data: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const byte of data) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function printNode(node: GraphNode): string | null {
  switch (node.kind) {
    case 'var':
      return null;
    case 'constant':
      return `%${ident(node.name)} = constant(${printType(node.type)}, ${node.data.length} bytes, fnv1a=0x${fnv1a(node.data)});`;
    case 'call': {
      const callee = node.callee.kind === 'op' ? node.callee.op : `@${ident(node.callee.name)}`;
      const args = [...node.args.map((a) => `%${ident(a)}`), ...printAttrs(node.attrs)].join(', ');
      return `%${ident(node.name)} = ${callee}(${args}) : ${printType(node.type)};`;
    }
  }
}

function printFunctionAttrs(attrs: FunctionAttrs): string {
  const parts = printAttrs(attrs);
  return parts.length > 0 ? ` attrs(${parts.join(', ')})` : '';
}

export function printFunction(fn: GraphFunction): string {
  const byName = new Map(fn.nodes.map((n) => [n.name, n]));
  const typeOf = (name: string): string => {
    const n = byName.get(name);
    return n ? printType(n.type) : '?';
  };
  const params = fn.params.map((p) => `%${ident(p)}: ${typeOf(p)}`).join(', ');
  const ret = fn.outputs.length === 1 ? typeOf(fn.outputs[0]) : `(${fn.outputs.map(typeOf).join(', ')})`;
  const body = fn.nodes.map(printNode).filter((l): l is string => l !== null);
  const result = fn.outputs.length === 1 ? `%${ident(fn.outputs[0])}` : `(${fn.outputs.map((o) => `%${ident(o)}`).join(', ')})`;
  return [
    `def @${ident(fn.name)}(${params}) -> ${ret}${printFunctionAttrs(fn.attrs)} {`,
    ...body.map((l) => `  ${l}`),
    `  ${result}`,
    '}',
  ].join('\n');
}

/** The whole module, functions in name order, separated by blank lines, ending in a newline. */
export function printModule(module: IRModule): string {
  const names = [...module.functions.keys()].sort();
  return names.map((n) => printFunction(module.functions.get(n)!)).join('\n\n') + '\n';
}
