/**
 * The reference interpreter: runs a graph function node by node with TFLite Micro
 * reference-kernel semantics. Calls of other functions (composites, partitioned external
 * functions) recurse, so a partitioned module computes exactly what the original does.
 *
 * Variable tensors (ConstantNodes marked `variable`, e.g. SVDF state) live in a
 * `VariableStore`: `interpret` starts each run from a fresh one (TFLite Micro's state right
 * after allocation), a session (`createSession`) keeps one across invocations.
 */
import { InterpreterError } from '../errors';
import { ConstantNode, GraphFunction, IRModule, MAIN_FUNCTION, tensorBytes } from '../ir/graph/types';
import { KernelContext } from './kernel';
import { KERNELS } from './kernels';
import { Tensor, tensorFromBytes, tensorToBytes } from './tensor';
import { VariableStore } from './variables';

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

/**
 * Runs `fn` on tensor arguments (one per param) and returns its outputs. Variable tensors
 * are read from and written back to `variables` (a fresh store when omitted).
 */
export function runFunction(
  module: IRModule,
  fn: GraphFunction,
  args: readonly Tensor[],
  depth = 0,
  variables: VariableStore = new VariableStore(),
): Tensor[] {
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
      env.set(node.name, node.variable ? variables.value(node, fn.name) : constantValue(node, fn.name));
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
      env.set(node.name, runFunction(module, callee, present, depth + 1, variables)[0]);
      continue;
    }
    const kernel = KERNELS.get(node.callee.op);
    if (!kernel) {
      throw new InterpreterError(`no reference kernel for operator '${node.callee.op}' (node '${node.name}')`, {
        func: fn.name,
        op: node.callee.op,
      });
    }
    const data = kernel(new KernelContext(node, argValues, fn.name, variables));
    env.set(node.name, { type: node.type, data });
  }
  return fn.outputs.map((o) => {
    const v = env.get(o);
    if (!v) throw new InterpreterError(`output '${o}' is never computed`, { func: fn.name });
    return v;
  });
}

/** Decodes one input buffer per param of `fn`, checking count and sizes. */
function decodeInputs(fn: GraphFunction, inputs: readonly Uint8Array[]): Tensor[] {
  const fnName = fn.name;
  if (inputs.length !== fn.params.length) {
    throw new InterpreterError(`'${fnName}' takes ${fn.params.length} inputs, got ${inputs.length}`, { func: fnName });
  }
  return fn.params.map((p, i) => {
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
}

/**
 * Runs function `fnName` of `module` on raw little-endian input bytes (one buffer per
 * param, in order) and returns the raw bytes of each output. One invocation from fresh
 * state: variable tensors hold their initial data.
 */
export function interpret(module: IRModule, inputs: readonly Uint8Array[], fnName: string = MAIN_FUNCTION): Uint8Array[] {
  const fn = lookupFunction(module, fnName);
  return runFunction(module, fn, decodeInputs(fn, inputs)).map(tensorToBytes);
}

/** Successive invocations of one function that share variable tensors (streaming models). */
export interface InterpreterSession {
  /** One invocation on raw input bytes; variable tensors keep the values it leaves. */
  invoke(inputs: readonly Uint8Array[]): Uint8Array[];
  /** Raw bytes of each variable tensor touched so far, keyed `<function>/<node name>`. */
  state(): Map<string, Uint8Array>;
  /** Forgets all state: the next invocation starts as the first one did. */
  reset(): void;
}

/**
 * A session over function `fnName` of `module`: like TFLite Micro's `Invoke()` on one
 * interpreter, each invocation starts from the variable tensors the previous one left.
 */
export function createSession(module: IRModule, fnName: string = MAIN_FUNCTION): InterpreterSession {
  const fn = lookupFunction(module, fnName);
  let variables = new VariableStore();
  return {
    invoke: (inputs) => runFunction(module, fn, decodeInputs(fn, inputs), 0, variables).map(tensorToBytes),
    state: () => variables.snapshot(),
    reset: () => {
      variables = new VariableStore();
    },
  };
}
