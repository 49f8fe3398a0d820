/**
 * A backend with a codegen hook declares the kernels its functions call (the hook's includes
 * and runtime sources); codegen then emits no prototype of its own. A `call_extern` to a name
 * the backend does not declare would surface only as an implicit-declaration or link error in
 * the user's C build, far from its cause, so it is rejected here, naming function, target
 * and kernel.
 */
import { CodegenError } from '../../errors';
import { PrimFunc } from '../../ir/tir/nodes';
import { postOrderVisit } from '../../ir/tir/visitor';
import { BackendCodegenHook } from '../types';
import { readRuntimeHeader, RUNTIME_KERNELS } from './runtimeFiles';

function stripComments(c: string): string {
  return c.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when C text (comments aside) names `identifier` followed by `(`: a declaration or macro. */
export function declaresFunction(cText: string, identifier: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(identifier)}\\s*\\(`).test(stripComments(cText));
}

/** `call_extern` callee names in a function, in first-use order, with their argument counts. */
function externCalls(f: PrimFunc): Map<string, number> {
  const calls = new Map<string, number>();
  postOrderVisit(f, (n) => {
    if (n.kind !== 'Call' || n.op !== 'tir.call_extern') return;
    const head = n.args[0];
    if (head?.kind === 'StringImm' && !calls.has(head.value)) calls.set(head.value, n.args.length - 1);
  });
  return calls;
}

function isModuleFunction(functions: ReadonlyMap<string, PrimFunc>, callee: string): boolean {
  if (functions.has(callee)) return true;
  return [...functions.values()].some((f) => f.attrs.global_symbol === callee);
}

/** All C text a hook ships: the includes and every runtime source. */
function hookText(hook: BackendCodegenHook): string {
  return [hook.includes, ...(hook.runtimeSources ?? []).map((s) => s.content)].join('\n');
}

/**
 * Throws a CodegenError for the first `call_extern` in a hooked target's function whose callee
 * is neither declared by the hook, nor a function of the module, nor a uma runtime helper.
 * A hook that writes its own C for a call (`replaceCallExtern`) provides that call.
 */
export function checkBackendExterns(
  functions: ReadonlyMap<string, PrimFunc>,
  hooks: readonly BackendCodegenHook[],
  targetOf: (f: PrimFunc) => string,
): void {
  const byTarget = new Map(hooks.map((h) => [h.target, h]));
  const texts = new Map<string, string>();
  let runtimeHeader: string | undefined;
  for (const [name, f] of functions) {
    const target = targetOf(f);
    const hook = byTarget.get(target);
    if (hook === undefined) continue;
    for (const [callee, arity] of externCalls(f)) {
      if (isModuleFunction(functions, callee) || RUNTIME_KERNELS.has(callee)) continue;
      if (hook.replaceCallExtern?.(callee, Array.from({ length: arity }, (_, i) => `arg${i}`)) !== undefined) continue;
      if (!texts.has(target)) texts.set(target, hookText(hook));
      if (declaresFunction(texts.get(target) as string, callee)) continue;
      runtimeHeader ??= readRuntimeHeader();
      if (declaresFunction(runtimeHeader, callee)) continue;
      throw new CodegenError(
        `function ${name} (target ${target}) calls kernel '${callee}' that backend ${target} does not provide ` +
          '(not declared in its includes or runtime sources)',
        { func: name, target, op: callee },
      );
    }
  }
}
