/**
 * What a backend's own code throws (a strategy, a pass, a codegen hook, a predicate) is that
 * backend's failure: one BackendHookError naming the backend, the hook and what it worked on,
 * never a raw TypeError out of uma-ts's internals. uma-ts's own code stays unwrapped.
 */
import * as path from 'path';
import { BackendRegistry, CodegenHooks, GraphPass, TirPass, UmaBackend } from '../../src/backend';
import { describeThrown, guardCodegenHooks, isThenable } from '../../src/backend/userCode';
import * as tir from '../../src/ir/tir/builder';
import { PrimFunc } from '../../src/ir/tir/nodes';
import { IRModule } from '../../src/ir/graph/types';
import { compileModel } from '../../src/driver/compile';
import { strategyLookup } from '../../src/driver/compileToTir';
import { BackendHookError, LoweringError } from '../../src/errors';
import { CPU_STRATEGIES } from '../../src/lower/cpu';
import { densePattern, vanillaCodegenHooks, vanillaDenseStrategy } from '../../backends/vanilla';

const HELLO = path.join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite');

function boom(): never {
  const nothing = undefined as unknown as { x: { y: number } };
  return nothing.x.y as never;
}

type Failing =
  | 'strategy'
  | 'strategyUmaError'
  | 'strategyPromise'
  | 'predicate'
  | 'supported'
  | 'graphPass'
  | 'graphPassNoModule'
  | 'tirPass'
  | 'globalTirPass'
  | 'includes'
  | 'runtimeSources'
  | 'strategyReturnsString'
  | 'tirPassOutOfRange'
  | 'tirPassDropsFunctions'
  | 'includesNumber'
  | 'runtimeSourcesNotArray'
  | 'runtimeSourcesNullEntry'
  | 'predicateString'
  | 'supportedString'
  | 'graphPassProxy'
  | 'tirPassRetargets'
  | 'graphPassDropsFunction'
  | 'graphPassDropsParams'
  | 'tirPassRenamesParam'
  | 'tirPassBreaksRecords'
  | 'strategyIgnoresOutput'
  | 'strategyClobbersInput'
  | 'tirPassDropsBody';

function failingPass<P extends GraphPass | TirPass>(name: string, phase: P['phase'], run: P['run']): P {
  return { name, phase, run } as P;
}

/** A vanilla-like dense offload whose `fail` hook misbehaves. */
function hookyBackend(fail: Failing): new () => UmaBackend {
  return class Hooky extends UmaBackend {
    readonly targetName = 'hooky';
    constructor() {
      super();
      if (fail === 'supported' || fail === 'supportedString') {
        this.registerSupportedOp('dense', fail === 'supported' ? () => boom() : () => 'nope' as never);
      } else {
        const predicates: Partial<Record<Failing, () => boolean>> = { predicate: () => boom(), predicateString: () => 'no' as never };
        this.registerPattern('dense', densePattern(), predicates[fail]);
      }
      const strategies = {
        strategy: () => boom(),
        strategyUmaError: () => {
          throw new LoweringError('hooky: dense is too big');
        },
        strategyPromise: () => Promise.reject(new Error('later')) as never,
        strategyReturnsString: () => 'for (;;)' as never,
        // The dense loops, then a store into the activation it reads (another operator's output).
        strategyClobbersInput: (input: Parameters<typeof vanillaDenseStrategy>[0]) =>
          tir.seq([vanillaDenseStrategy(input), tir.bufferStore(input.args[0], 0, input.args[0].shape.map(() => 0))]),
        // A kernel handed the weights where its output goes: the output is never computed.
        strategyIgnoresOutput: (input: Parameters<typeof vanillaDenseStrategy>[0]) =>
          tir.evaluate(tir.callExtern('k', [input.args[0].data, input.args[1].data, input.args[1].data])),
      } as const;
      this.registerOperatorStrategy('dense', strategies[fail as keyof typeof strategies] ?? vanillaDenseStrategy);
      if (fail === 'graphPass') this.registerGraphPass('pre_partitioning', failingPass<GraphPass>('hooky.Break', 'pre_partitioning', () => boom()));
      if (fail === 'graphPassNoModule') {
        this.registerGraphPass('post_partitioning_0', failingPass<GraphPass>('hooky.Forgot', 'post_partitioning_0', () => undefined as never));
      }
      if (fail === 'tirPass') this.registerTirPass(2, failingPass<TirPass>('hooky.Tir', 2, () => boom()));
      if (fail === 'globalTirPass') this.registerGlobalTirPass(3, failingPass<TirPass>('hooky.Global', 3, () => boom()));
      if (fail === 'tirPassOutOfRange') {
        // A store far past the end of each function's first buffer parameter.
        const oob = (f: PrimFunc): PrimFunc => ({ ...f, body: tir.seq([f.body, tir.bufferStore(f.bufferMap[0][1], 0, [1_000_000])]) });
        this.registerTirPass(1, failingPass<TirPass>('hooky.Oob', 1, (m) => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, oob(f)])) })));
      }
      if (fail === 'graphPassProxy') {
        const trap = (m: object) => new Proxy(m, { get: (t, k) => (k === 'functions' ? (t as { functions: unknown }).functions : boom()) });
        this.registerGraphPass('pre_partitioning', failingPass<GraphPass>('hooky.Proxy', 'pre_partitioning', (m) => trap(m) as never));
      }
      if (fail === 'tirPassRetargets') {
        const ghost = (f: PrimFunc): PrimFunc => ({ ...f, attrs: { ...f.attrs, target: 'ghost' } });
        this.registerTirPass(1, failingPass<TirPass>('hooky.Ghost', 1, (m) => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, ghost(f)])) })));
      }
      if (fail === 'graphPassDropsFunction') {
        const onlyMain = (m: IRModule): IRModule => ({ ...m, functions: new Map([...m.functions].filter(([n]) => n === 'main')) });
        this.registerGraphPass('post_partitioning_1', failingPass<GraphPass>('hooky.DropFn', 'post_partitioning_1', onlyMain));
      }
      if (fail === 'graphPassDropsParams') {
        const noParams = (m: IRModule): IRModule => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, { ...f, params: [] }])) });
        this.registerGraphPass('pre_partitioning', failingPass<GraphPass>('hooky.NoParams', 'pre_partitioning', noParams));
      }
      if (fail === 'tirPassRenamesParam') {
        // The parameter keeps its variable but not its name: the operator records, which name
        // operands, no longer find it, so the pinning pass lost the constraints on it unseen.
        const renamed = (f: PrimFunc): PrimFunc => ({ ...f, params: f.params.map((p, i) => (i === 0 ? { ...p, name: `${p.name}_renamed` } : p)) });
        this.registerTirPass(1, failingPass<TirPass>('hooky.Rename', 1, (m) => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, renamed(f)])) })));
      }
      if (fail === 'tirPassBreaksRecords') {
        const broken = (f: PrimFunc): PrimFunc => ({ ...f, attrs: { ...f.attrs, 'uma.operators': '{not json' } });
        this.registerTirPass(1, failingPass<TirPass>('hooky.Records', 1, (m) => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, broken(f)])) })));
      }
      if (fail === 'tirPassDropsBody') {
        const emptied = (f: PrimFunc): PrimFunc => ({ ...f, body: tir.evaluate(0) });
        this.registerTirPass(1, failingPass<TirPass>('hooky.Empty', 1, (m) => ({ ...m, functions: new Map([...m.functions].map(([n, f]) => [n, emptied(f)])) })));
      }
      if (fail === 'tirPassDropsFunctions') this.registerTirPass(0, failingPass<TirPass>('hooky.Drop', 0, (m) => ({ ...m, functions: new Map() })));
      const sources: Partial<Record<Failing, CodegenHooks['runtimeSources']>> = {
        runtimeSources: () => {
          throw 'no kernels today';
        },
        runtimeSourcesNotArray: () => 'kernels.c' as never,
        runtimeSourcesNullEntry: () => [null] as never,
      };
      const codegen: CodegenHooks = {
        includes: fail === 'includes' ? () => boom() : fail === 'includesNumber' ? () => 42 as never : vanillaCodegenHooks.includes,
        ...(sources[fail] ? { runtimeSources: sources[fail] } : {}),
      };
      this.registerCodegen(codegen);
    }
  };
}

function compileFailure(fail: Failing): unknown {
  const registry = new BackendRegistry();
  registry.register(hookyBackend(fail));
  try {
    compileModel(HELLO, { backend: 'hooky', registry });
  } catch (e) {
    return e;
  }
  throw new Error('the compile succeeded');
}

const TYPE_ERROR = "TypeError: Cannot read properties of undefined (reading 'x')";

describe('a backend hook that throws', () => {
  it.each<[Failing, RegExp]>([
    ['strategy', /^backend hooky: strategy for dense \(call '[^']+'\) threw TypeError: Cannot read properties of undefined \(reading 'x'\)$/],
    ['predicate', /^backend hooky: predicate of pattern 'dense' \(at '[^']+'\) threw TypeError: /],
    ['supported', /^backend hooky: supported-operator predicate for dense \(call '[^']+'\) threw TypeError: /],
    ['graphPass', /^backend hooky: graph pass 'hooky\.Break' \(pre_partitioning\) threw TypeError: /],
    ['tirPass', /^backend hooky: TIR pass 'hooky\.Tir' \(phase 2\) threw TypeError: /],
    ['globalTirPass', /^backend hooky: TIR pass 'hooky\.Global' \(phase 3\) threw TypeError: /],
    ['includes', /^backend hooky: codegen includes\(\) threw TypeError: /],
    ['runtimeSources', /^backend hooky: codegen runtimeSources\(\) threw "no kernels today"$/],
  ])('%s: a BackendHookError naming backend, hook and operator or pass', (fail, message) => {
    const e = compileFailure(fail);
    expect(e).toBeInstanceOf(BackendHookError);
    expect((e as BackendHookError).message).toMatch(message);
    expect((e as BackendHookError).context.target).toBe('hooky');
    // What was thrown stays reachable, stack included, for whoever debugs the backend.
    if (fail !== 'runtimeSources') expect(String(((e as BackendHookError).cause as Error).stack)).toContain(TYPE_ERROR.split(':')[0]);
  });

  it('names the operator in the context of a strategy failure', () => {
    expect((compileFailure('strategy') as BackendHookError).context).toMatchObject({ target: 'hooky', op: 'dense' });
  });

  it("passes the backend's own UmaError through unchanged", () => {
    const e = compileFailure('strategyUmaError');
    expect(e).toBeInstanceOf(LoweringError);
    expect((e as LoweringError).message).toMatch(/: hooky: dense is too big$/);
  });

  it('refuses a hook that returns a promise, and one that returns no module', () => {
    expect((compileFailure('strategyPromise') as Error).message).toMatch(
      /^backend hooky: strategy for dense \(call '[^']+'\) returned a promise; uma-ts calls it synchronously/,
    );
    expect((compileFailure('graphPassNoModule') as Error).message).toBe("backend hooky: graph pass 'hooky.Forgot' (post_partitioning_0) returned undefined, not a module");
  });

  it.each<[Failing, RegExp]>([
    ['strategyReturnsString', /^backend hooky: strategy for dense \(call '[^']+'\) returned the string "for \(;;\)", not a statement$/],
    ['tirPassOutOfRange', /^backend hooky: TIR pass 'hooky\.Oob' \(phase 1\) left hooky_main_0 ill-formed: stores to \S+ at element 1000000, outside the \d+ int8 elements of \S+$/],
    ['tirPassDropsFunctions', /^backend hooky: TIR pass 'hooky\.Drop' \(phase 0\) left __tvm_main__ ill-formed: calls hooky_main_0, which is no longer in the module$/],
    [
      'strategyIgnoresOutput',
      /^backend hooky: strategy for dense \(call '[^']+'\) returned a statement that never writes its output '\w+': no store into it, and no call is given it$/,
    ],
    [
      'strategyClobbersInput',
      /^backend hooky: strategy for dense \(call '[^']+'\) returned a statement that stores into its input 0 '\w+', which it may only read: write the output \(or a scratch buffer\) instead$/,
    ],
    ['tirPassDropsBody', /^backend hooky: TIR pass 'hooky\.Empty' \(phase 1\) left hooky_main_0 with output 0 '\w+' of hooky\.dense '[^']+' never written any more: no store into it, and no call is given it$/],
    ['tirPassBreaksRecords', /^backend hooky: TIR pass 'hooky\.Records' \(phase 1\) left hooky_main_0 with attribute 'uma\.operators' that is not JSON \(.+\)$/],
    ['tirPassRetargets', /^backend hooky: TIR pass 'hooky\.Ghost' \(phase 1\) left hooky_main_0 with target 'ghost', which no backend registers$/],
    [
      'tirPassRenamesParam',
      /^backend hooky: TIR pass 'hooky\.Rename' \(phase 1\) left hooky_main_0 with an operator record naming input 0 'serving_default_dense_input_0' of hooky.dense '[^']+', which the pass renamed 'serving_default_dense_input_0_renamed': operand constraints and pins on it would bind nothing \(keep the buffer's name, or update the records with withOperatorRecords, attribute 'uma\.operators'\)$/,
    ],
    ['graphPassDropsFunction', /^backend hooky: graph pass 'hooky\.DropFn' \(post_partitioning_1\) left main ill-formed: '[^']+' calls 'hooky_main_0', which the module does not hold$/],
    ['graphPassDropsParams', /^backend hooky: graph pass 'hooky\.NoParams' \(pre_partitioning\) left main ill-formed: variable '[^']+' is not a parameter$/],
    ['includesNumber', /^backend hooky: codegen includes\(\) returned 42, not a string of C$/],
    ['runtimeSourcesNotArray', /^backend hooky: codegen runtimeSources\(\) returned the string "kernels.c", not an array of \{ name, content \} files$/],
    ['runtimeSourcesNullEntry', /^backend hooky: codegen runtimeSources\(\) returned null as entry 0 of its array, not a \{ name, content \} file$/],
    ['predicateString', /^backend hooky: predicate of pattern 'dense' \(at '[^']+'\) returned the string "no", not a boolean$/],
    ['supportedString', /^backend hooky: supported-operator predicate for dense \(call '[^']+'\) returned the string "nope", not a boolean$/],
    ['graphPassProxy', /^backend hooky: graph pass 'hooky\.Proxy' \(pre_partitioning\) returned a module whose fields cannot be read: TypeError: /],
  ])('%s: what a hook returns must be what it is for, or the error names the hook', (fail, message) => {
    const e = compileFailure(fail);
    expect(e).toBeInstanceOf(BackendHookError);
    expect((e as BackendHookError).message).toMatch(message);
  });

  it('describes a thrown value even when describing it throws', () => {
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeThrown(hostile)).toBe('a value that cannot be printed');
    const trap = new Proxy({}, { get: () => boom() });
    expect(isThenable(trap)).toBe(false);
  });

  it('guards every codegen hook', () => {
    const hooks = guardCodegenHooks('hooky', {
      includes: () => '#include "k.h"',
      replaceCallExtern(name) {
        if (name === 'bad') boom();
        return undefined;
      },
      registerPool: () => boom(),
    });
    expect(hooks.includes()).toBe('#include "k.h"');
    expect(hooks.replaceCallExtern?.('fine', [])).toBeUndefined();
    expect(() => hooks.replaceCallExtern?.('bad', [])).toThrow(`backend hooky: codegen replaceCallExtern for 'bad' threw ${TYPE_ERROR}`);
    expect(() => hooks.registerPool?.({ name: 'sram', kind: 'workspace', base: 'p', sizeBytes: 1, access: 'rw' })).toThrow(
      `backend hooky: codegen registerPool for pool 'sram' threw ${TYPE_ERROR}`,
    );
    const wrong = guardCodegenHooks('hooky', { includes: () => '', replaceCallExtern: () => 42 as never, registerPool: () => undefined as never });
    expect(() => wrong.replaceCallExtern?.('k', [])).toThrow("backend hooky: codegen replaceCallExtern for 'k' returned 42, not a string of C or undefined");
    expect(() => wrong.registerPool?.({ name: 'sram', kind: 'workspace', base: 'p', sizeBytes: 1, access: 'rw' })).toThrow(
      "backend hooky: codegen registerPool for pool 'sram' returned undefined, not a C expression string",
    );
  });

  it("leaves uma-ts's own host strategies unwrapped (their bugs keep their stack)", () => {
    const registry = new BackendRegistry();
    registry.register(hookyBackend('strategy'));
    expect(strategyLookup(registry)('c', 'dense')).toBe(CPU_STRATEGIES.get('dense'));
  });
});
