/**
 * AnnotateTarget: decides which calls of main run on the target. A call is annotated when
 * it calls a composite of this target, or it is an operator the backend registered with
 * `registerSupportedOp` and that operator's predicate (if any) accepts it.
 */
import { UmaBackend } from '../backend/umaBackend';
import { callPredicate } from '../backend/userCode';
import { IRModule } from '../ir/graph/types';
import { mainOf } from './moduleEdit';

export interface TargetAnnotation {
  readonly target: string;
  /** Names of the main calls that run on the target. */
  readonly nodes: ReadonlySet<string>;
}

export function annotateTarget(module: IRModule, backend: UmaBackend): TargetAnnotation {
  const target = backend.targetName;
  const main = mainOf(module, 'AnnotateTarget');
  const supported = backend.supportedOps();
  const prefix = `${target}.`;
  const nodes = new Set<string>();
  for (const n of main.nodes) {
    if (n.kind !== 'call') continue;
    if (n.callee.kind === 'function') {
      const composite = module.functions.get(n.callee.name)?.attrs.Composite;
      if (typeof composite === 'string' && composite.startsWith(prefix)) nodes.add(n.name);
    } else if (supported.has(n.callee.op)) {
      const predicate = supported.get(n.callee.op);
      const op = n.callee.op;
      if (predicate === undefined || callPredicate(target, `supported-operator predicate for ${op} (call '${n.name}')`, () => predicate(n, main), { op })) nodes.add(n.name);
    }
  }
  return { target, nodes };
}
