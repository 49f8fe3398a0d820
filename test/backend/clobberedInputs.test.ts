/**
 * A TIR pass that makes a function store into an input still read after it. Pinning gives such
 * a buffer a pool the target can write (test/passes/storesIntoInput.test.ts), which is right
 * where nothing reads it afterwards; where something does, it would read the changed bytes, a
 * silently wrong result. The compile names the pass, the function, the buffer and the reader.
 */
import { BackendHookError, BackendRegistry, compileModel, GraphFunctionBuilder, moduleOf, PoolInfo, tensorType, tir } from '../../src';
import { clobberedInput } from '../../src/backend/clobberedInputs';
import { addBackend } from '../helpers/clobberingBackend';
import { errorOf } from '../helpers/errorOf';

const POOLS: PoolInfo[] = [{ name: 'shared', kind: 'workspace', targetAccess: { c: 'rw', npu: 'rw' }, alignment: 16, internal: true }];

/** s = add(relu(x), relu(x)), the second operand `z` also read by `readers` (after the add). */
function compileWith(readers: 'none' | 'later operator' | 'model output') {
  const t = tensorType([8], 'float32');
  const b = new GraphFunctionBuilder();
  const x = b.param('x', t);
  const y = b.call('y', 'relu', [x], t);
  const z = b.call('z', 'relu', [x], t);
  const s = b.call('s', 'add', [y, z], t);
  const outputs = readers === 'later operator' ? [s, b.call('w', 'relu', [z], t)] : readers === 'model output' ? [s, z] : [s];
  const registry = new BackendRegistry();
  registry.register(addBackend(true));
  return () => compileModel(moduleOf([b.build(outputs)]), { backend: 'npu', registry, pools: POOLS });
}

describe('a TIR pass that makes a function overwrite an input', () => {
  it('compiles where nothing reads the input after the function', () => {
    expect(compileWith('none')().access.violations).toEqual([]);
  });

  it('is refused where a later operator reads the input, naming the pass, function, buffer and reader', () => {
    const e = errorOf(compileWith('later operator')) as BackendHookError;
    expect(e).toBeInstanceOf(BackendHookError);
    expect(e.message).toMatch(
      /^backend npu: TIR pass 'npu\.Clobber' \(phase 0\) left npu_main_0 storing into its parameter '\w+', which it only read before the pass: __tvm_main__ hands it '\w+', which \w+ reads afterwards, so that reader would see the changed bytes \(write the output or a scratch buffer instead\)$/,
    );
    expect(e.context).toMatchObject({ target: 'npu', func: 'npu_main_0' });
  });

  it('is refused where the input is also a model output, which the application reads', () => {
    expect(errorOf(compileWith('model output'))).toBeInstanceOf(BackendHookError);
    expect(errorOf(compileWith('model output')).message).toMatch(/hands it '\w+', which the application reads as a model output, so that reader/);
  });
});

describe('clobberedInput', () => {
  const { makeVar, makeBuffer, bufferLoad, bufferStore, primFunc, tirModule, seq, evaluate, callExtern, allocate, addressOf } = tir;

  /** f(a, out): out[0] = a[0]; with `clobber`, also a[0] = 0. */
  function kernel(clobber: boolean) {
    const a = makeVar('a', 'handle', 'float32');
    const out = makeVar('out', 'handle', 'float32');
    const A = makeBuffer('a', 'float32', [4], a);
    const O = makeBuffer('out', 'float32', [4], out);
    const copy = bufferStore(O, bufferLoad(A, [0]), [0]);
    return primFunc({ params: [a, out], bufferMap: [[a, A], [out, O]], body: clobber ? seq([copy, bufferStore(A, 0, [0])]) : copy, attrs: { target: 'npu' } });
  }

  /** main: a persistent `state` (or a plain buffer), f(state, t) then, with `readAgain`, g(state, u). */
  function mainOf(scope: string, readAgain: boolean, pointer = false) {
    const state = makeVar('state', 'handle', 'float32');
    const t = makeVar('t', 'handle', 'float32');
    const u = makeVar('u', 'handle', 'float32');
    const arg = pointer ? addressOf(bufferLoad(makeBuffer('state', 'float32', [4], state), [0])) : state;
    const calls = [evaluate(callExtern('f', [arg, t])), ...(readAgain ? [evaluate(callExtern('g', [state, u]))] : [])];
    const body = [state, t, u].reduceRight(
      (inner, v) => allocate({ bufferVar: v, dtype: 'float32', extents: [4], storageScope: v === state ? scope : 'global', body: inner }),
      seq(calls),
    );
    return primFunc({ params: [], body, attrs: { num_inputs: 0 } });
  }

  const moduleWith = (main: ReturnType<typeof mainOf>, f: ReturnType<typeof kernel>) => tirModule([['__tvm_main__', main], ['f', f], ['g', kernel(false)]]);

  it('finds persistent state the next invocation reads', () => {
    const main = mainOf('persistent', false);
    const before = moduleWith(main, kernel(false));
    const after = moduleWith(main, kernel(true));
    expect(clobberedInput(before, after)).toEqual({ func: 'f', param: 'a', caller: '__tvm_main__', argument: 'state', reader: 'the next invocation reads (persistent state)' });
  });

  it('finds a later call, also through a pointer argument', () => {
    const main = mainOf('global', true, true);
    expect(clobberedInput(moduleWith(main, kernel(false)), moduleWith(main, kernel(true)))).toMatchObject({ func: 'f', argument: 'state', reader: 'g reads afterwards' });
  });

  it('finds nothing where no one reads the buffer afterwards, or the function wrote it before', () => {
    const main = mainOf('global', false);
    expect(clobberedInput(moduleWith(main, kernel(false)), moduleWith(main, kernel(true)))).toBeUndefined();
    const readAgain = mainOf('global', true);
    expect(clobberedInput(moduleWith(readAgain, kernel(true)), moduleWith(readAgain, { ...kernel(true) }))).toBeUndefined();
  });

  it('follows a parameter a caller hands on to the overwriting function', () => {
    // main: region(state, t) then g(state, u); region(p, q) calls f(p, q).
    const p = makeVar('p', 'handle', 'float32');
    const q = makeVar('q', 'handle', 'float32');
    const region = primFunc({ params: [p, q], body: evaluate(callExtern('f', [p, q])), attrs: { target: 'npu' } });
    const state = makeVar('state', 'handle', 'float32');
    const t = makeVar('t', 'handle', 'float32');
    const u = makeVar('u', 'handle', 'float32');
    const body = [state, t, u].reduceRight(
      (inner, v) => allocate({ bufferVar: v, dtype: 'float32', extents: [4], body: inner }),
      seq([evaluate(callExtern('region', [state, t])), evaluate(callExtern('g', [state, u]))]),
    );
    const main = primFunc({ params: [], body, attrs: { num_inputs: 0 } });
    const of = (f: ReturnType<typeof kernel>) => tirModule([['__tvm_main__', main], ['region', region], ['f', f], ['g', kernel(false)]]);
    expect(clobberedInput(of(kernel(false)), of(kernel(true)))).toMatchObject({ func: 'region', param: 'p', caller: '__tvm_main__', argument: 'state', reader: 'g reads afterwards' });
  });
});
