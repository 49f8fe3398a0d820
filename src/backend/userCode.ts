/**
 * The boundary between uma-ts and a backend's own code. Strategies, passes, codegen hooks and
 * pattern or operator predicates are user code (bundled backends are written the same way):
 * what they throw is the backend's failure, not a bug of uma-ts, so it becomes one
 * BackendHookError naming the backend, the hook and what it was working on. An UmaError they
 * throw (a deliberate LoweringError, ...) passes unchanged. Only the call into user code is
 * wrapped: a failure in uma-ts's own code around it keeps its stack.
 */
import { BackendHookError, ErrorContext, isUmaError } from '../errors';
import type { CodegenHooks } from './codegen';
import type { GraphPass, TirPass } from './passes';
import { stmtShapeProblem } from '../ir/tir/nodeShape';
import { firstTirProblem } from '../ir/tir/wellFormed';
import { mayWriteBuffers, storedBuffers } from '../ir/tir/analysis';
import { clobberedInput } from './clobberedInputs';
import { operatorRecordsProblem } from '../ir/tir/operators';
import { HOST_TARGET, OperatorStrategy } from '../lower/strategy';
import { describeThrown, firstLine, isThenable } from '../util/thrown';

export { describeThrown, isThenable } from '../util/thrown';

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

/**
 * A predicate of backend `target` (a pattern's, a supported operator's): what it returns must be
 * a boolean, as a string such as 'no' would otherwise count as yes.
 */
export function callPredicate(target: string, hook: string, run: () => unknown, context: ErrorContext = {}): boolean {
  const answer = callBackend(target, hook, run, context);
  if (typeof answer !== 'boolean') {
    throw new BackendHookError(`backend ${target}: ${hook} returned ${describeReturned(answer)}, not a boolean`, { target, hook, ...context });
  }
  return answer;
}

/**
 * The module a pass returned, as a plain copy of its fields: what later stages read of it is
 * read here, once, so an object that throws when read (a Proxy) fails as the pass's mistake.
 */
function checkedModule<M>(target: string, hook: string, result: M): M {
  let copy: M = result;
  if (typeof result === 'object' && result !== null) {
    try {
      copy = { ...result };
    } catch (e) {
      throw new BackendHookError(`backend ${target}: ${hook} returned a module whose fields cannot be read: ${describeThrown(e)}`, { target, hook });
    }
  }
  if (typeof copy !== 'object' || copy === null || !((copy as { functions?: unknown }).functions instanceof Map)) {
    const got = copy === null ? 'null' : typeof copy === 'object' ? 'an object without a functions Map' : typeof copy;
    throw new BackendHookError(`backend ${target}: ${hook} returned ${got}, not a module`, { target, hook });
  }
  return copy;
}

/** `pass` of backend `target`, its failures reported as that backend's. */
export function guardGraphPass(target: string, pass: GraphPass): GraphPass {
  const hook = `graph pass '${pass.name}' (${pass.phase})`;
  return { name: pass.name, phase: pass.phase, run: (module, ctx) => checkedModule(target, hook, callBackend(target, hook, () => pass.run(module, ctx))) };
}

const tirPassHook = (pass: TirPass) => `TIR pass '${pass.name}' (phase ${pass.phase})`;

export function guardTirPass(target: string, pass: TirPass): TirPass {
  const hook = tirPassHook(pass);
  return { name: pass.name, phase: pass.phase, run: (module, ctx) => checkedModule(target, hook, callBackend(target, hook, () => pass.run(module, ctx))) };
}

/**
 * `pass` of backend `target`, whose result must be a well-formed module (wellFormed.ts), else
 * the error names the pass: an out-of-range store it left would otherwise compile to a plan
 * whose buffers overlap. Wraps the pass as the pipeline runs it (a target's own passes see its
 * functions only, but what they change must still fit the callers).
 */
export function checkTirPassResult(target: string, pass: TirPass, knownTargets: readonly string[]): TirPass {
  const hook = tirPassHook(pass);
  const fail = (func: string, message: string) => new BackendHookError(`backend ${target}: ${hook} left ${func} ${message}`, { target, hook, func });
  return {
    name: pass.name,
    phase: pass.phase,
    run: (module, ctx) => {
      const out = pass.run(module, ctx);
      const problem = firstTirProblem(out, module);
      if (problem) throw fail(problem.func, `ill-formed: ${problem.message}`);
      for (const [name, f] of out.functions) {
        // Only what the pass changed: records it never touched stay the lowering's.
        if (module.functions.get(name) === f) continue;
        const records = operatorRecordsProblem(f, module.functions.get(name));
        if (records !== undefined) throw fail(name, `with ${records}`);
      }
      // A function's target decides its pools and its codegen: one the pass set must be one
      // uma-ts knows.
      for (const [name, f] of out.functions) {
        const t = f.attrs.target;
        if (t === undefined || t === HOST_TARGET || knownTargets.includes(t) || module.functions.get(name)?.attrs.target === t) continue;
        throw fail(name, `with target '${String(t)}', which no backend registers`);
      }
      // As a strategy may not (guardStrategy), a pass may not make a function overwrite an
      // input that is read after it: pinning finds the buffer a writable pool, so only a
      // comparison of outputs would show the readers' wrong bytes.
      const clobbered = clobberedInput(module, out);
      if (clobbered) {
        const { func, param, caller, argument, reader } = clobbered;
        throw fail(
          func,
          `storing into its parameter '${param}', which it only read before the pass: ${caller} hands it '${argument}', which ${reader}, so that reader would see the changed bytes (write the output or a scratch buffer instead)`,
        );
      }
      return out;
    },
  };
}

/** The strategy backend `target` registered for `op`, its failures naming the call it lowered. */
export function guardStrategy(target: string, op: string, strategy: OperatorStrategy | undefined): OperatorStrategy | undefined {
  if (strategy === undefined) return undefined;
  return (input) => {
    const hook = `strategy for ${op} (call '${input.call.name}')`;
    const body = callBackend(target, hook, () => strategy(input), { op, call: input.call.name });
    const problem = stmtShapeProblem(body);
    if (problem) {
      const what = problem.path === '' ? problem.message : `a statement whose ${problem.path} is ${problem.message}`;
      throw new BackendHookError(`backend ${target}: ${hook} returned ${what}`, { target, hook, op });
    }
    // A body that neither stores into its output nor hands it to any call never computes it
    // (a kernel given the weights as its output pointer, say): the output would stay whatever
    // the pool held, and a write through the wrong pointer may be to memory it cannot write.
    const inPlace = input.args.some((a) => a.data.id === input.out.data.id);
    if (!inPlace && !mayWriteBuffers(body).has(input.out.data.id)) {
      throw new BackendHookError(
        `backend ${target}: ${hook} returned a statement that never writes its output '${input.out.name}': no store into it, and no call is given it`,
        { target, hook, op },
      );
    }
    // An input is the producer's output, which other operators may read after this one: a
    // store into it changes what they see (and needs write access where a read would do).
    const stored = storedBuffers(body);
    const clobbered = input.args.findIndex((a) => a.data.id !== input.out.data.id && stored.has(a.data.id));
    if (clobbered >= 0) {
      throw new BackendHookError(
        `backend ${target}: ${hook} returned a statement that stores into its input ${clobbered} '${input.args[clobbered].name}', which it may only read: write the output (or a scratch buffer) instead`,
        { target, hook, op },
      );
    }
    return body;
  };
}

/** A returned value as an error names it: `42`, `undefined`, `an array`, `an object`. */
function describeReturned(v: unknown): string {
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return `the string ${JSON.stringify(firstLine(v))}`;
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/** `value` when `ok` says it is what `hook` must return, else the backend's error saying what came back. */
function checkedReturn<T>(target: string, hook: string, value: unknown, ok: (v: unknown) => boolean, expected: string): T {
  if (!ok(value)) throw new BackendHookError(`backend ${target}: ${hook} returned ${describeReturned(value)}, not ${expected}`, { target, hook });
  return value as T;
}

const isString = (v: unknown) => typeof v === 'string';

/** runtimeSources()'s list: each entry a name and a content string, else the error names the entry. */
function checkedSources(target: string, hook: string, value: unknown): ReturnType<NonNullable<CodegenHooks['runtimeSources']>> {
  const list = checkedReturn<unknown[]>(target, hook, value, Array.isArray, 'an array of { name, content } files');
  list.forEach((entry, i) => {
    const file = entry as { name?: unknown; content?: unknown } | null;
    const what = `entry ${i} of its array`;
    if (typeof file !== 'object' || file === null) throw new BackendHookError(`backend ${target}: ${hook} returned ${describeReturned(file)} as ${what}, not a { name, content } file`, { target, hook });
    if (!isString(file.name)) throw new BackendHookError(`backend ${target}: ${hook} returned ${what} with name ${describeReturned(file.name)}, not a string`, { target, hook });
    if (!isString(file.content)) {
      throw new BackendHookError(`backend ${target}: ${hook} returned ${JSON.stringify(file.name)} with content ${describeReturned(file.content)}, not a string`, { target, hook });
    }
  });
  return list as ReturnType<NonNullable<CodegenHooks['runtimeSources']>>;
}

/** Backend `target`'s codegen hooks, each call guarded and its result checked. */
export function guardCodegenHooks(target: string, hooks: CodegenHooks): CodegenHooks {
  const { replaceCallExtern, runtimeSources, registerPool } = hooks;
  const includes = 'codegen includes()';
  const sources = 'codegen runtimeSources()';
  return {
    includes: () => checkedReturn(target, includes, callBackend(target, includes, () => hooks.includes()), isString, 'a string of C'),
    ...(runtimeSources ? { runtimeSources: () => checkedSources(target, sources, callBackend(target, sources, () => runtimeSources.call(hooks))) } : {}),
    ...(replaceCallExtern
      ? {
          replaceCallExtern: (name: string, args: readonly string[]) => {
            const hook = `codegen replaceCallExtern for '${name}'`;
            const c = callBackend(target, hook, () => replaceCallExtern.call(hooks, name, args));
            return checkedReturn(target, hook, c, (v) => v === undefined || isString(v), 'a string of C or undefined');
          },
        }
      : {}),
    ...(registerPool
      ? {
          registerPool: (pool) => {
            const hook = `codegen registerPool for pool '${pool.name}'`;
            return checkedReturn(target, hook, callBackend(target, hook, () => registerPool.call(hooks, pool)), isString, 'a C expression string');
          },
        }
      : {}),
  };
}
