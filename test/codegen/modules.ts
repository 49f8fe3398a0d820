/** Hand-built TIR modules for the codegen tests, with the values they must compute. */
import {
  add,
  allocate,
  allocateConst,
  bufferLoad,
  bufferStore,
  call,
  callExtern,
  cast,
  evaluate,
  forLoop,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  max,
  min,
  mul,
  primFunc,
  seq,
  sub,
} from '../../src/ir/tir/builder';
import { Buffer, PrimFunc, Stmt, Var } from '../../src/ir/tir/nodes';

export function int8Bytes(values: readonly number[]): Uint8Array {
  return Uint8Array.from(values.map((v) => v & 0xff));
}

export function int32Bytes(values: readonly number[]): Uint8Array {
  const b = new Uint8Array(values.length * 4);
  const view = new DataView(b.buffer);
  values.forEach((v, i) => view.setInt32(i * 4, v, true));
  return b;
}

/** A PrimFunc over tensors: one handle param + N-d buffer per tensor. */
export function opFunc(tensors: readonly Buffer[], body: (bufs: readonly Buffer[]) => Stmt, attrs = {}): PrimFunc {
  return primFunc({
    params: tensors.map((b) => b.data),
    bufferMap: tensors.map((b) => [b.data, b] as const),
    body: body(tensors),
    attrs,
  });
}

export const N = 8;
export const WEIGHTS = [3, -7, 100, -128, 127, 0, 55, -55];

/** op1: out(int32) = in + w; op2: out(int8) = clamp(in * 2 - 5, -128, 127). */
export function aotModule(io = { input: 'x', output: 'y' }): { functions: [string, PrimFunc][]; expected: (x: readonly number[]) => number[] } {
  const add1 = opFunc(
    [makeBuffer('a', 'int8', [1, N]), makeBuffer('w', 'int8', [N]), makeBuffer('out', 'int32', [1, N])],
    ([a, w, out]) => {
      const i = makeVar('i');
      return forLoop(i, 0, N, bufferStore(out, add(cast('int32', bufferLoad(a, [0, i])), cast('int32', bufferLoad(w, [i]))), [0, i]));
    },
  );
  const scale = opFunc([makeBuffer('in', 'int32', [N]), makeBuffer('out', 'int8', [1, N])], ([inp, out]) => {
    const i = makeVar('i');
    const v = sub(mul(bufferLoad(inp, [i]), 2), 5);
    return forLoop(i, 0, N, bufferStore(out, cast('int8', min(max(v, -128), 127)), [0, i]));
  });
  const x = makeVar(io.input, 'handle', 'int8');
  const y = makeVar(io.output, 'handle', 'int8');
  const w = makeVar('w', 'handle', 'int8');
  const sid = makeVar('sid_1', 'handle', 'int32');
  const body = allocateConst({
    bufferVar: w,
    dtype: 'int8',
    extents: [N],
    data: int8Bytes(WEIGHTS),
    body: allocate({
      bufferVar: sid,
      dtype: 'int32',
      extents: [N],
      body: seq([
        evaluate(callExtern('tvmgen_default_fused_add', [x, w, sid])),
        evaluate(callExtern('tvmgen_default_fused_scale', [sid, y])),
      ]),
    }),
  });
  const main = primFunc({ params: [x, y], body, attrs: { runner_function: true } });
  return {
    functions: [
      ['__tvm_main__', main],
      ['tvmgen_default_fused_add', add1],
      ['tvmgen_default_fused_scale', scale],
    ],
    expected: (xs) => xs.map((v, i) => Math.max(-128, Math.min(127, (v + WEIGHTS[i]) * 2 - 5))),
  };
}

/** Unused handle for tests that need a second, distinct var of the same name. */
export function shadowVar(name: string): Var {
  return makeVar(name, 'handle', 'int8');
}

export { call, intImm, letStmt };
