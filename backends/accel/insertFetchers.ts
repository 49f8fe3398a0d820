/**
 * The accel's pre-partitioning pass (the seed's "relay pass that adds custom operations"):
 * every conv2d the accelerator will run gets an `accel_input_fetcher` copy in front of it,
 * named `<conv>_fetch`, because the accelerator reads host data only through the fetcher;
 * a conv whose input another accel conv produced reads it in act_mem directly.
 */
import { CallNode, GraphFunction, GraphNode, GraphPass, IRModule, MAIN_FUNCTION, withFunction } from '../../src/index';
import { FETCHER_KIND } from './names';
import { isOffloadableConv } from './offloadableConv';

export const INSERT_FETCHERS_PASS = 'accel.InsertInputFetchers';

function isFetcher(node: GraphNode | undefined): boolean {
  return node !== undefined && node.kind === 'call' && node.callee.kind === 'op' && node.callee.op === 'copy' && node.attrs.kind === FETCHER_KIND;
}

function freshName(taken: Set<string>, base: string): string {
  let name = base;
  for (let k = 1; taken.has(name); k++) name = `${base}_${k}`;
  taken.add(name);
  return name;
}

export function insertInputFetchers(fn: GraphFunction): GraphFunction {
  const byName = new Map(fn.nodes.map((n) => [n.name, n] as const));
  const taken = new Set(byName.keys());
  const nodes: GraphNode[] = [];
  let changed = false;
  for (const node of fn.nodes) {
    // Already fetched (the pass ran before): leave it alone. A conv fed by another accel
    // conv needs no fetcher either: its input is already in act_mem, where the accelerator
    // wrote it (fetching from l2_mem would force a copy the other way).
    const producer = node.kind === 'call' ? byName.get(node.args[0]) : undefined;
    if (!isOffloadableConv(node, fn) || isFetcher(producer) || (producer !== undefined && isOffloadableConv(producer, fn))) {
      nodes.push(node);
      continue;
    }
    const conv = node as CallNode;
    const source = byName.get(conv.args[0]) as GraphNode;
    const fetch: CallNode = {
      kind: 'call',
      name: freshName(taken, `${conv.name}_fetch`),
      callee: { kind: 'op', op: 'copy' },
      args: [conv.args[0]],
      attrs: { kind: FETCHER_KIND },
      type: source.type,
    };
    nodes.push(fetch, { ...conv, args: [fetch.name, ...conv.args.slice(1)] });
    changed = true;
  }
  return changed ? { ...fn, nodes } : fn;
}

export const insertFetchersPass: GraphPass = {
  name: INSERT_FETCHERS_PASS,
  phase: 'pre_partitioning',
  run(module: IRModule): IRModule {
    const main = module.functions.get(MAIN_FUNCTION);
    return main ? withFunction(module, insertInputFetchers(main)) : module;
  },
};
