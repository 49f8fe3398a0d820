/**
 * What partitioning and lowering assume of a graph module, checked after each backend graph
 * pass so a broken module is blamed on the pass that made it (not on a later stage's "uses X
 * before it is computed"): parameters are the variables of their function, node names are unique,
 * every argument names an earlier node, outputs name nodes, a called function exists and takes
 * as many arguments as it is given. (Types are left to type inference: hand-built modules
 * omit attributes their stage does not read.)
 */
import { GraphFunction, IRModule } from './types';

export interface GraphProblem {
  readonly func: string;
  readonly message: string;
}

function functionProblem(fn: GraphFunction, module: IRModule): string | undefined {
  const defined = new Set<string>();
  for (const node of fn.nodes) {
    if (defined.has(node.name)) return `node '${node.name}' is defined twice`;
    if (node.kind === 'call') {
      const missing = node.args.find((a) => !defined.has(a));
      if (missing !== undefined) return `'${node.name}' uses '${missing}', which no earlier node defines`;
      if (node.callee.kind === 'function') {
        const callee = module.functions.get(node.callee.name);
        if (!callee) return `'${node.name}' calls '${node.callee.name}', which the module does not hold`;
        if (callee.params.length !== node.args.length) {
          return `'${node.name}' calls '${node.callee.name}' with ${node.args.length} arguments; it takes ${callee.params.length}`;
        }
      }
    }
    defined.add(node.name);
  }
  const vars = new Set(fn.nodes.filter((n) => n.kind === 'var').map((n) => n.name));
  const notVar = fn.params.find((p) => !vars.has(p));
  if (notVar !== undefined) return `parameter '${notVar}' is not a variable of the function`;
  const params = new Set(fn.params);
  const free = [...vars].find((v) => !params.has(v));
  if (free !== undefined) return `variable '${free}' is not a parameter`;
  const undefinedOutput = fn.outputs.find((o) => !defined.has(o));
  return undefinedOutput === undefined ? undefined : `output '${undefinedOutput}' names no node`;
}

/** The first problem of `module`, or undefined. */
export function firstGraphProblem(module: IRModule): GraphProblem | undefined {
  for (const [name, fn] of module.functions) {
    const message = functionProblem(fn, module);
    if (message !== undefined) return { func: name, message };
  }
  return undefined;
}
