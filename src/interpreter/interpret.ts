/**
 * The reference interpreter: runs a graph function node by node with TFLite Micro
 * reference-kernel semantics. Calls of other functions (composites, partitioned external
 * functions) recurse, so a partitioned module computes exactly what the original does.
 */
import { InterpreterError } from '../errors';
import { ConstantNode, GraphFunction, IRModule, MAIN_FUNCTION, tensorBytes } from '../ir/graph/types';
import { KernelContext } from './kernel';
import { KERNELS } from './kernels';
import { Tensor, tensorFromBytes, tensorToBytes } from './tensor';

/** Decoded constants, shared across runs of the same module. */
const constantCache = new WeakMap<ConstantNode, Tensor>();

function constantValue(node: ConstantNode, func: string): Tensor {
  let t = constantCache.get(node);
  if (!t) {
    if (node.data.byteLength < tensorBytes(node.type)) {
      throw new InterpreterError(
        `constant '${node.name}' holds ${node.data.byteLength} bytes, its type needs ${tensorBytes(node.type)}`,
        { func },
      );
    }
    t = tensorFromBytes(node.type, node.data);
    constantCache.set(node, t);
  }
  return t;
}

function lookupFunction(module: IRModule, name: string, caller?: string): GraphFunction {
  const fn = module.functions.get(name);
  if (!fn) {
    throw new InterpreterError(`function '${name}' not found in module`, caller ? { func: caller } : {});
  }
  return fn;
}

/** Runs `fn` on tensor arguments (one per param) and returns its outputs. */
export function runFunction(module: IRModule, fn: GraphFunction, args: readonly Tensor[], depth = 0): Tensor[] {
  if (depth > 64) throw new InterpreterError(`call depth exceeded (recursive functions?)`, { func: fn.name });
  if (args.length !== fn.params.length) {
    throw new InterpreterError(`function '${fn.name}' takes ${fn.params.length} arguments, got ${args.length}`, {
      func: fn.name,
    });
  }
  const env = new Map<string, Tensor>();
  fn.params.forEach((p, i) => env.set(p, args[i]));
  for (const node of fn.nodes) {
    if (node.kind === 'var') {
      if (!env.has(node.name)) {
        throw new InterpreterError(`var '${node.name}' is not a parameter of '${fn.name}'`, { func: fn.name });
      }
      continue;
    }
    if (node.kind === 'constant') {
      env.set(node.name, constantValue(node, fn.name));
      continue;
    }
    const argValues = node.args.map((a) => {
      if (a === '') return undefined; // an omitted optional argument
      const v = env.get(a);
      if (!v) {
        throw new InterpreterError(`'${node.name}' uses '${a}' before it is defined`, { func: fn.name, op: node.name });
      }
      return v;
    });
    if (node.callee.kind === 'function') {
      const callee = lookupFunction(module, node.callee.name, fn.name);
      if (callee.outputs.length !== 1) {
        throw new InterpreterError(`call '${node.name}' of '${callee.name}' expects one output, it has ${callee.outputs.length}`, {
          func: fn.name,
        });
      }
      const present = argValues.filter((v): v is Tensor => v !== undefined);
      env.set(node.name, runFunction(module, callee, present, depth + 1)[0]);
      continue;
    }
    const kernel = KERNELS.get(node.callee.op);
    if (!kernel) {
      throw new InterpreterError(`no reference kernel for operator '${node.callee.op}' (node '${node.name}')`, {
        func: fn.name,
        op: node.callee.op,
      });
    }
    const data = kernel(new KernelContext(node, argValues, fn.name));
    env.set(node.name, { type: node.type, data });
  }
  return fn.outputs.map((o) => {
    const v = env.get(o);
    if (!v) throw new InterpreterError(`output '${o}' is never computed`, { func: fn.name });
    return v;
  });
}

/**
 * Runs function `fnName` of `module` on raw little-endian input bytes (one buffer per
 * param, in order) and returns the raw bytes of each output.
 */
export function interpret(module: IRModule, inputs: readonly Uint8Array[], fnName: string = MAIN_FUNCTION): Uint8Array[] {
  const fn = lookupFunction(module, fnName);
  if (inputs.length !== fn.params.length) {
    throw new InterpreterError(`'${fnName}' takes ${fn.params.length} inputs, got ${inputs.length}`, { func: fnName });
  }
  const args = fn.params.map((p, i) => {
    const node = fn.nodes.find((n) => n.name === p);
    if (!node || node.kind !== 'var') {
      throw new InterpreterError(`parameter '${p}' has no var node`, { func: fnName });
    }
    const need = tensorBytes(node.type);
    if (inputs[i].byteLength !== need) {
      throw new InterpreterError(`input ${i} ('${p}') has ${inputs[i].byteLength} bytes, expected ${need}`, {
        func: fnName,
      });
    }
    return tensorFromBytes(node.type, inputs[i]);
  });
  return runFunction(module, fn, args).map(tensorToBytes);
}
