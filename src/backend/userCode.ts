/**
 * The boundary between uma-ts and a backend's own code. Strategies, passes, codegen hooks and
 * pattern or operator predicates are user code (bundled backends are written the same way):
 * what they throw is the backend's failure, not a bug of uma-ts, so it becomes one
 * BackendHookError naming the backend, the hook and what it was working on. An UmaError they
 * throw (a deliberate LoweringError, ...) passes unchanged. Only the call into user code is
 * wrapped: a failure in uma-ts's own code around it keeps its stack.
 */
import { BackendHookError, ErrorContext, isUmaError } from '../errors';
import type { OperatorStrategy } from '../lower/strategy';
import type { CodegenHooks } from './codegen';
import type { GraphPass, TirPass } from './passes';

const MAX_DETAIL = 200;

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL)}...` : line;
}

/** What user code threw, on one line: `TypeError: x is undefined`, or the thrown value. */
export function describeThrown(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${firstLine(e.message)}`;
  return typeof e === 'string' ? JSON.stringify(firstLine(e)) : firstLine(String(e));
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Calls one hook of backend `target`; `hook` says which, and on what (`strategy for conv2d
 * (call 'conv_3')`). Hooks are synchronous: a returned promise is refused (and its rejection
 * silenced, as nobody would await it).
 */
export function callBackend<T>(target: string, hook: string, run: () => T, context: ErrorContext = {}): T {
  let result: T;
  try {
    result = run();
  } catch (e) {
    if (isUmaError(e)) throw e;
    throw new BackendHookError(`backend ${target}: ${hook} threw ${describeThrown(e)}`, { target, hook, ...context }, e);
  }
  if (isThenable(result)) {
    result.then(undefined, () => undefined);
    throw new BackendHookError(`backend ${target}: ${hook} returned a promise; uma-ts calls it synchronously, so it must return its result directly`, {
      target,
      hook,
      ...context,
    });
  }
  return result;
}

function checkedModule<M>(target: string, hook: string, result: M): M {
  if (typeof result !== 'object' || result === null || !((result as { functions?: unknown }).functions instanceof Map)) {
    const got = result === null ? 'null' : typeof result === 'object' ? 'an object without a functions Map' : typeof result;
    throw new BackendHookError(`backend ${target}: ${hook} returned ${got}, not a module`, { target, hook });
  }
  return result;
}

/** `pass` of backend `target`, its failures reported as that backend's. */
export function guardGraphPass(target: string, pass: GraphPass): GraphPass {
  const hook = `graph pass '${pass.name}' (${pass.phase})`;
  return { name: pass.name, phase: pass.phase, run: (module, ctx) => checkedModule(target, hook, callBackend(target, hook, () => pass.run(module, ctx))) };
}

export function guardTirPass(target: string, pass: TirPass): TirPass {
  const hook = `TIR pass '${pass.name}' (phase ${pass.phase})`;
  return { name: pass.name, phase: pass.phase, run: (module, ctx) => checkedModule(target, hook, callBackend(target, hook, () => pass.run(module, ctx))) };
}

/** The strategy backend `target` registered for `op`, its failures naming the call it lowered. */
export function guardStrategy(target: string, op: string, strategy: OperatorStrategy | undefined): OperatorStrategy | undefined {
  if (strategy === undefined) return undefined;
  return (input) => callBackend(target, `strategy for ${op} (call '${input.call.name}')`, () => strategy(input), { op, call: input.call.name });
}

/** Backend `target`'s codegen hooks, each call guarded. */
export function guardCodegenHooks(target: string, hooks: CodegenHooks): CodegenHooks {
  const { replaceCallExtern, runtimeSources, registerPool } = hooks;
  return {
    includes: () => callBackend(target, 'codegen includes()', () => hooks.includes()),
    ...(runtimeSources ? { runtimeSources: () => callBackend(target, 'codegen runtimeSources()', () => runtimeSources.call(hooks)) } : {}),
    ...(replaceCallExtern
      ? { replaceCallExtern: (name: string, args: readonly string[]) => callBackend(target, `codegen replaceCallExtern for '${name}'`, () => replaceCallExtern.call(hooks, name, args)) }
      : {}),
    ...(registerPool ? { registerPool: (pool) => callBackend(target, `codegen registerPool for pool '${pool.name}'`, () => registerPool.call(hooks, pool)) } : {}),
  };
}
