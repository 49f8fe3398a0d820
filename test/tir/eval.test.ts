import { multiplyByQuantizedMultiplier } from '../../src/arith/fixedpoint';
import { isUmaError } from '../../src/errors';
import {
  add,
  addressOf,
  allocate,
  and,
  binary,
  bufferLoad,
  bufferStore,
  call,
  callExtern,
  cast,
  evaluate,
  floatImm,
  floorDiv,
  floorMod,
  forLoop,
  ge,
  intImm,
  letStmt,
  lt,
  makeBuffer,
  makeVar,
  max,
  min,
  mul,
  primFunc,
  select,
  seq,
  stringImm,
  sub,
  tirModule,
} from '../../src/ir/tir/builder';
import {
  ExternFn,
  Pointer,
  TirEvalError,
  TirOutOfBoundsError,
  loadElement,
  runMain,
  runPrimFunc,
  storeElement,
} from '../../src/ir/tir/eval';
import { Expr, MAIN_PRIM_FUNC, PrimFunc, ScalarDType, Stmt } from '../../src/ir/tir/nodes';
import { smallModule } from './fixtures';

const wrap8 = (v: number): number => ((v + 128) & 0xff) - 128;

/** Evaluates a scalar expression by storing it into a one-element buffer. */
function evalScalar(e: Expr, dtype: ScalarDType = 'int32'): number {
  const out = makeBuffer('out', dtype, [1]);
  const f = primFunc({ params: [out.data], body: bufferStore(out, e, [0]) });
  const mem = new Uint8Array(8);
  runPrimFunc(tirModule([['f', f]]), 'f', [mem]);
  return loadElement({ mem, byteOffset: 0 }, dtype);
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

describe('TIR evaluator: scalar semantics match C', () => {
  it('integer division truncates, floor ops floor', () => {
    expect(evalScalar(binary('Div', -7, 2))).toBe(-3);
    expect(evalScalar(floorDiv(-7, 2))).toBe(-4);
    expect(evalScalar(floorMod(-7, 2))).toBe(1);
    expect(evalScalar(floorMod(7, -2))).toBe(-1);
    expect(() => evalScalar(binary('Div', 1, 0))).toThrow(TirEvalError);
  });

  it('int32 wraps around and casts to int8 wrap two\'s complement', () => {
    expect(evalScalar(add(2147483647, 1))).toBe(-2147483648);
    expect(evalScalar(mul(65536, 65536))).toBe(0);
    expect(evalScalar(mul(123456789, 1000))).toBe(Number(BigInt.asIntN(32, 123456789n * 1000n)));
    expect(evalScalar(cast('int8', 200), 'int8')).toBe(-56);
    expect(evalScalar(cast('uint8', -1), 'uint8')).toBe(255);
    expect(evalScalar(cast('int32', floatImm(-2.7)))).toBe(-2);
    expect(evalScalar(add(intImm(127, 'int8'), intImm(1, 'int8')), 'int8')).toBe(-128);
  });

  it('float32 rounds every operation to single precision', () => {
    expect(evalScalar(add(floatImm(0.1), floatImm(0.2)), 'float32')).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    expect(evalScalar(floorDiv(floatImm(-7), floatImm(2)), 'float32')).toBe(-4);
  });

  it('q_multiply_shift is TFLite MultiplyByQuantizedMultiplier', () => {
    for (const [x, m, s] of [
      [1000, 1518500250, -3],
      [-12345, 1073741824, 1],
      [7, 2147483647, 0],
    ]) {
      expect(evalScalar(call('tir.q_multiply_shift', 'int32', [x, m, s]))).toBe(multiplyByQuantizedMultiplier(x, m, s));
    }
  });

  it('if_then_else is lazy, Select is not', () => {
    const src = makeBuffer('src', 'int8', [4]);
    const dst = makeBuffer('dst', 'int8', [8]);
    const i = makeVar('i');
    const guarded = (e: Expr): PrimFunc =>
      primFunc({ params: [src.data, dst.data], body: forLoop(i, 0, 8, bufferStore(dst, e, [i])) });
    const src4 = new Uint8Array([1, 2, 3, 4]);
    const dst8 = new Uint8Array(8);
    const lazy = call('tir.if_then_else', 'int8', [lt(i, 4), bufferLoad(src, [i]), intImm(-1, 'int8')]);
    runPrimFunc(tirModule([['f', guarded(lazy)]]), 'f', [src4, dst8]);
    expect([...new Int8Array(dst8.buffer)]).toEqual([1, 2, 3, 4, -1, -1, -1, -1]);
    const eager = select(lt(i, 4), bufferLoad(src, [i]), intImm(-1, 'int8'));
    expect(() => runPrimFunc(tirModule([['f', guarded(eager)]]), 'f', [src4, new Uint8Array(8)])).toThrow(
      TirOutOfBoundsError,
    );
  });
});

describe('TIR evaluator: memory', () => {
  it('reports an out-of-bounds store naming the buffer and index', () => {
    const buf = makeBuffer('sid_7', 'int16', [2, 4]);
    const i = makeVar('i');
    const j = makeVar('j');
    const f = primFunc({
      params: [buf.data],
      // Off by one in the outer loop: row 2 does not exist.
      body: forLoop(i, 0, 3, forLoop(j, 0, 4, bufferStore(buf, add(i, j), [i, j]))),
    });
    const err = catchError(() => runPrimFunc(tirModule([['f', f]]), 'f', [new Uint8Array(16)]));
    expect(err).toBeInstanceOf(TirOutOfBoundsError);
    expect(isUmaError(err)).toBe(true);
    const e = err as TirOutOfBoundsError;
    expect(e.context.buffer).toBe('sid_7');
    expect(e.context.index).toEqual([2, 0]);
    expect(e.context.func).toBe('f');
    expect(e.message).toContain("'sid_7' at index [2, 0]");
  });

  it('flattens N-d indices row-major plus elemOffset, little-endian', () => {
    const data = makeVar('p', 'handle', 'int32');
    const view = { ...makeBuffer('v', 'int32', [2, 3], data), elemOffset: 1 };
    const f = primFunc({ params: [data], body: bufferStore(view, 0x01020304, [1, 2]) });
    const mem = new Uint8Array(4 * 7);
    runPrimFunc(tirModule([['f', f]]), 'f', [mem]);
    // element (1*3 + 2) + 1 = 6 -> bytes 24..27, least significant first
    expect([...mem.subarray(24)]).toEqual([4, 3, 2, 1]);
    expect(mem.subarray(0, 24).every((b) => b === 0)).toBe(true);
  });

  it('gives each Allocate a fresh zeroed region and rejects unbound vars before running', () => {
    const scratch = makeVar('scratch', 'handle', 'int32');
    const sb = makeBuffer('scratch', 'int32', [4], scratch);
    const out = makeBuffer('out', 'int32', [1]);
    const k = makeVar('k');
    const body = allocate({
      bufferVar: scratch,
      dtype: 'int32',
      extents: [4],
      body: seq([
        forLoop(k, 0, 4, bufferStore(sb, add(bufferLoad(sb, [k]), k), [k])),
        bufferStore(out, add(bufferLoad(sb, [3]), bufferLoad(sb, [0])), [0]),
      ]),
    });
    const mem = new Uint8Array(4);
    runPrimFunc(tirModule([['f', primFunc({ params: [out.data], body })]]), 'f', [mem]);
    expect(loadElement({ mem, byteOffset: 0 }, 'int32')).toBe(3);

    const stray = makeVar('stray');
    const bad = primFunc({ params: [out.data], body: bufferStore(out, stray, [0]) });
    expect(() => runPrimFunc(tirModule([['f', bad]]), 'f', [mem])).toThrow(/'stray'.*outside its scope/);
  });
});

describe('TIR evaluator: calls', () => {
  const addFirstWeight: ExternFn = (args) => {
    const [out, w, n] = args as [Pointer, Pointer, number];
    const bias = loadElement(w, 'int8', 0);
    for (let i = 0; i < n; i++) storeElement(out, 'int8', i, loadElement(out, 'int8', i) + bias);
    return 0;
  };

  it('runs main: calls into a PrimFunc twice, then an extern, through bufferMap views', () => {
    const input = Int8Array.from({ length: 64 }, (_, i) => i * 4 - 128);
    const [out] = runMain(smallModule(), [new Uint8Array(input.buffer)], {
      externs: new Map([['add_first_weight', addFirstWeight]]),
    });
    const got = [...new Int8Array(out.buffer)];
    expect(got).toEqual([...input].map((x) => wrap8(wrap8(wrap8(x + 1) + 1) + 5)));
    expect(got[63]).toBe(wrap8(124 + 7));
  });

  it('fails on an extern nobody registered, naming caller and callee', () => {
    const err = catchError(() => runMain(smallModule(), [new Uint8Array(64)]));
    expect(err).toBeInstanceOf(TirEvalError);
    expect((err as Error).message).toContain("'__tvm_main__' calls 'add_first_weight'");
  });

  it('checks input sizes against main\'s bufferMap', () => {
    expect(() => runMain(smallModule(), [new Uint8Array(63)])).toThrow(/63 bytes, expected 64/);
  });

  it('passes address_of and tvm_access_ptr pointers to externs', () => {
    const buf = makeBuffer('buf', 'int16', [8]);
    const seen: number[] = [];
    const peek: ExternFn = (args) => {
      const [p, tag] = args as [Pointer, string];
      seen.push(loadElement(p, 'int16', 0), tag.length);
      return 0;
    };
    const f = primFunc({
      params: [buf.data],
      body: seq([
        evaluate(callExtern('peek', [addressOf(bufferLoad(buf, [5])), stringImm('ab')])),
        evaluate(callExtern('peek', [call('tir.tvm_access_ptr', 'handle', [stringImm('int16'), buf.data, 2, 6, 3]), stringImm('abc')])),
      ]),
    });
    const mem = new Uint8Array(16);
    const view = new DataView(mem.buffer);
    view.setInt16(10, -300, true);
    view.setInt16(4, 777, true);
    runPrimFunc(tirModule([['f', f]]), 'f', [mem], { externs: new Map([['peek', peek]]) });
    expect(seen).toEqual([-300, 2, 777, 3]);
    // An access_ptr whose extent runs past the region is caught where it is made.
    const g = primFunc({
      params: [buf.data],
      body: evaluate(callExtern('peek', [call('tir.tvm_access_ptr', 'handle', [stringImm('int16'), buf.data, 4, 5, 3])])),
    });
    expect(() => runPrimFunc(tirModule([['g', g]]), 'g', [mem], { externs: new Map([['peek', peek]]) })).toThrow(
      TirOutOfBoundsError,
    );
  });

  it('binds <pool>_var params to supplied pools and resolves pool_ptr offsets', () => {
    // After USMP: main(input, output, act_mem_var) with sid_1 planned at offset 16.
    const m = smallModule();
    const main = m.functions.get(MAIN_PRIM_FUNC) as PrimFunc;
    const pool = makeVar('act_mem_var', 'handle', 'uint8');
    const rewrite = (s: Stmt): Stmt => {
      if (s.kind === 'AllocateConst') return { ...s, body: rewrite(s.body) };
      if (s.kind === 'Allocate') return letStmt(s.bufferVar, call('tir.pool_ptr', 'handle', [pool, 16]), s.body);
      return s;
    };
    const planned = tirModule([
      ...m.functions,
      [MAIN_PRIM_FUNC, { ...main, params: [...main.params, pool], body: rewrite(main.body) }],
    ]);
    const poolMem = new Uint8Array(80);
    const input = new Uint8Array(64).fill(10);
    const [out] = runMain(planned, [input], {
      pools: new Map([['act_mem', poolMem]]),
      externs: new Map([['add_first_weight', addFirstWeight]]),
    });
    expect([...out]).toEqual(new Array(64).fill(17));
    // The intermediate landed in the pool at bytes 16..79.
    expect([...poolMem.subarray(16)]).toEqual(new Array(64).fill(11));
    expect(poolMem.subarray(0, 16).every((b) => b === 0)).toBe(true);
    // A pool too small for the planned offset is an out-of-bounds error, not silent corruption.
    expect(() =>
      runMain(planned, [input], {
        pools: new Map([['act_mem', new Uint8Array(79)]]),
        externs: new Map([['add_first_weight', addFirstWeight]]),
      }),
    ).toThrow(TirOutOfBoundsError);
  });
});

/** NHWC int8 conv2d with zero points, padding via if_then_else, and requantization. */
function conv2dFunc(p: ConvParams): PrimFunc {
  const { H, W, C, O, K, pad, stride, inZp, outZp, mult, shift } = p;
  const OH = Math.floor((H + 2 * pad - K) / stride) + 1;
  const OW = Math.floor((W + 2 * pad - K) / stride) + 1;
  const inp = makeBuffer('input', 'int8', [1, H, W, C]);
  const wt = makeBuffer('weight', 'int8', [O, K, K, C]);
  const bias = makeBuffer('bias', 'int32', [O]);
  const out = makeBuffer('output', 'int8', [1, OH, OW, O]);
  const accVar = makeVar('acc', 'handle', 'int32');
  const acc = makeBuffer('acc', 'int32', [1], accVar, 'local');
  const [oh, ow, oc, kh, kw, ic] = ['oh', 'ow', 'oc', 'kh', 'kw', 'ic'].map((n) => makeVar(n));
  const ih = sub(add(mul(oh, stride), kh), pad);
  const iw = sub(add(mul(ow, stride), kw), pad);
  const inside = and(and(ge(ih, 0), lt(ih, H)), and(ge(iw, 0), lt(iw, W)));
  const x = call('tir.if_then_else', 'int32', [inside, cast('int32', bufferLoad(inp, [0, ih, iw, ic])), intImm(inZp)]);
  const term = mul(sub(x, inZp), cast('int32', bufferLoad(wt, [oc, kh, kw, ic])));
  const reduce = forLoop(kh, 0, K, forLoop(kw, 0, K, forLoop(ic, 0, C, bufferStore(acc, add(bufferLoad(acc, [0]), term), [0]))));
  const requant = add(call('tir.q_multiply_shift', 'int32', [bufferLoad(acc, [0]), mult, shift]), outZp);
  const body = forLoop(
    oh,
    0,
    OH,
    forLoop(
      ow,
      0,
      OW,
      forLoop(
        oc,
        0,
        O,
        allocate({
          bufferVar: accVar,
          dtype: 'int32',
          extents: [1],
          storageScope: 'local',
          body: seq([
            bufferStore(acc, bufferLoad(bias, [oc]), [0]),
            reduce,
            bufferStore(out, cast('int8', min(max(requant, -128), 127)), [0, oh, ow, oc]),
          ]),
        }),
      ),
    ),
  );
  return primFunc({
    params: [inp.data, wt.data, bias.data, out.data],
    body,
    attrs: { global_symbol: 'tvmgen_default_fused_nn_conv2d' },
  });
}

interface ConvParams {
  H: number;
  W: number;
  C: number;
  O: number;
  K: number;
  pad: number;
  stride: number;
  inZp: number;
  outZp: number;
  mult: number;
  shift: number;
}

function conv2dReference(p: ConvParams, input: Int8Array, weight: Int8Array, bias: Int32Array): Int8Array {
  const { H, W, C, O, K, pad, stride, inZp, outZp, mult, shift } = p;
  const OH = Math.floor((H + 2 * pad - K) / stride) + 1;
  const OW = Math.floor((W + 2 * pad - K) / stride) + 1;
  const out = new Int8Array(OH * OW * O);
  for (let y = 0; y < OH; y++)
    for (let x = 0; x < OW; x++)
      for (let o = 0; o < O; o++) {
        let acc = bias[o];
        for (let ky = 0; ky < K; ky++)
          for (let kx = 0; kx < K; kx++)
            for (let c = 0; c < C; c++) {
              const iy = y * stride + ky - pad;
              const ix = x * stride + kx - pad;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue; // padding contributes zero
              acc += (input[(iy * W + ix) * C + c] - inZp) * weight[((o * K + ky) * K + kx) * C + c];
            }
        const v = multiplyByQuantizedMultiplier(acc, mult, shift) + outZp;
        out[(y * OW + x) * O + o] = Math.min(127, Math.max(-128, v));
      }
  return out;
}

function pseudoRandomInt8(n: number, seed: number): Int8Array {
  let s = seed >>> 0;
  return Int8Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 24) - 128;
  });
}

describe('TIR evaluator: conv-like loop nest', () => {
  const bytes = (a: Int8Array | Int32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

  it.each([
    { H: 5, W: 6, C: 3, O: 4, K: 3, pad: 1, stride: 1, inZp: -3, outZp: 2, mult: 1518500250, shift: -7 },
    { H: 7, W: 7, C: 2, O: 3, K: 3, pad: 0, stride: 2, inZp: 0, outZp: -5, mult: 1288490189, shift: -6 },
  ])('matches a direct reference (%o)', (p) => {
    const OH = Math.floor((p.H + 2 * p.pad - p.K) / p.stride) + 1;
    const OW = Math.floor((p.W + 2 * p.pad - p.K) / p.stride) + 1;
    const input = pseudoRandomInt8(p.H * p.W * p.C, 1);
    const weight = pseudoRandomInt8(p.O * p.K * p.K * p.C, 2);
    const bias = Int32Array.from({ length: p.O }, (_, i) => (i - 1) * 300);
    const out = new Uint8Array(OH * OW * p.O);
    runPrimFunc(tirModule([['conv', conv2dFunc(p)]]), 'conv', [bytes(input), bytes(weight), bytes(bias), out]);
    const expected = conv2dReference(p, input, weight, bias);
    expect([...new Int8Array(out.buffer)]).toEqual([...expected]);
    // Saturation must be exercised for the clamp to mean anything.
    expect(expected.some((v) => v === 127 || v === -128)).toBe(true);
  });

  it('runs a person_detect-sized layer and matches the reference', () => {
    const p = { H: 48, W: 48, C: 8, O: 16, K: 3, pad: 1, stride: 1, inZp: -128, outZp: -128, mult: 1518500250, shift: -9 };
    const input = pseudoRandomInt8(p.H * p.W * p.C, 3);
    const weight = pseudoRandomInt8(p.O * p.K * p.K * p.C, 4);
    const bias = new Int32Array(p.O);
    const out = new Uint8Array(p.H * p.W * p.O);
    // ~2.6M multiply-accumulates: speed is a benchmark matter, correctness is checked here.
    runPrimFunc(tirModule([['conv', conv2dFunc(p)]]), 'conv', [bytes(input), bytes(weight), bytes(bias), out]);
    expect([...new Int8Array(out.buffer)]).toEqual([...conv2dReference(p, input, weight, bias)]);
  });
});
