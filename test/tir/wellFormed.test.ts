/**
 * The well-formedness check run on what strategies and TIR passes hand back (wellFormed.ts,
 * nodeShape.ts): each problem it reports, and the accesses it must leave alone.
 */
import {
  addressOf,
  allocate,
  allocateConst,
  binary,
  bufferLoad,
  bufferStore,
  call,
  callExtern,
  evaluate,
  forLoop,
  ifThenElse,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  primFunc,
  select,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { PrimFunc, Stmt, TirModule } from '../../src/ir/tir/nodes';
import { stmtShapeProblem } from '../../src/ir/tir/nodeShape';
import { firstTirProblem, MAX_ALLOCATION_BYTES } from '../../src/ir/tir/wellFormed';

/** One function allocating `elements` floats as `buf` around `body(buf)`. */
function withAllocation(elements: number, body: (b: ReturnType<typeof makeBuffer>) => Stmt): TirModule {
  const data = makeVar('buf', 'handle', 'float32');
  const buffer = makeBuffer('buf', 'float32', [elements], data);
  return tirModule([['f', primFunc({ params: [], body: allocate({ bufferVar: data, dtype: 'float32', extents: [elements], body: body(buffer) }) })]]);
}

/** for i in [0, extent): buf[index(i)] = 0 */
function loopStore(elements: number, extent: number, index: (i: ReturnType<typeof makeVar>) => Parameters<typeof bufferStore>[2][0]): TirModule {
  const i = makeVar('i');
  return withAllocation(elements, (b) => forLoop(i, 0, extent, bufferStore(b, 0, [index(i)])));
}

describe('well-formed TIR', () => {
  it('accepts accesses within their allocation, through loops, lets and multi-dimensional views', () => {
    expect(firstTirProblem(loopStore(16, 16, (i) => i))).toBeUndefined();
    expect(firstTirProblem(loopStore(16, 8, (i) => binary('Add', binary('Mul', i, 2), 1)))).toBeUndefined();
    const i = makeVar('i');
    const j = makeVar('j');
    const k = makeVar('k');
    const module = withAllocation(12, (b) => {
      const view = makeBuffer('view', 'float32', [3, 4], b.data);
      return forLoop(i, 0, 3, forLoop(j, 0, 4, letStmt(k, binary('Sub', 3, j), bufferStore(view, bufferLoad(view, [i, k]), [i, j]))));
    });
    expect(firstTirProblem(module)).toBeUndefined();
  });

  it('reports an always-run access past its allocation, with its index range', () => {
    expect(firstTirProblem(loopStore(1, 16, (i) => i))).toEqual({ func: 'f', message: 'stores to buf at elements 0..15, outside the 1 float32 elements of buf' });
    expect(firstTirProblem(loopStore(16, 1, () => -3))?.message).toBe('stores to buf at element -3, outside the 16 float32 elements of buf');
    // An int64 view of 4 floats holds 2 elements.
    const wide = withAllocation(4, (b) => bufferStore(makeBuffer('w', 'int64', [2], b.data), 0, [2]));
    expect(firstTirProblem(wide)?.message).toBe('stores to w at element 2, outside the 2 int64 elements of buf');
  });

  it('leaves guarded, lazily evaluated, address-taken and never-run accesses alone', () => {
    const i = makeVar('i');
    const guarded = withAllocation(4, (b) => forLoop(i, 0, 8, ifThenElse(binary('LT', i, 4), bufferStore(b, 0, [i]))));
    expect(firstTirProblem(guarded)).toBeUndefined();
    const lazy = withAllocation(4, (b) => forLoop(i, 0, 8, bufferStore(b, call('tir.if_then_else', 'float32', [binary('LT', i, 4), bufferLoad(b, [i]), 0]), [0])));
    expect(firstTirProblem(lazy)).toBeUndefined();
    const selected = withAllocation(4, (b) => forLoop(i, 0, 8, bufferStore(b, select(binary('LT', i, 4), bufferLoad(b, [i]), 0), [0])));
    expect(firstTirProblem(selected)).toBeUndefined();
    const pointer = withAllocation(4, (b) => evaluate(callExtern('consume', [addressOf(bufferLoad(b, [4]))])));
    expect(firstTirProblem(pointer)).toBeUndefined();
    expect(firstTirProblem(loopStore(1, 0, (x) => binary('Add', x, 100)))).toBeUndefined();
    // Data-dependent indices are not bounded: no claim either way.
    expect(firstTirProblem(withAllocation(4, (b) => bufferStore(b, 0, [bufferLoad(b, [0])])))).toBeUndefined();
  });

  it('reports variables used outside their definition and parameters listed twice', () => {
    const ghost = makeVar('ghost');
    expect(firstTirProblem(withAllocation(4, (b) => bufferStore(b, 0, [ghost])))?.message).toBe(`variable ghost (#${ghost.id}) is used outside its definition`);
    const i = makeVar('i');
    const afterLoop = withAllocation(4, (b) => seq([forLoop(i, 0, 4, bufferStore(b, 0, [i])), bufferStore(b, 0, [i])]));
    expect(firstTirProblem(afterLoop)?.message).toBe(`variable i (#${i.id}) is used outside its definition`);
    const p = makeVar('p', 'handle', 'float32');
    const twice = tirModule([['f', primFunc({ params: [p, p], body: evaluate(0) })]]);
    expect(firstTirProblem(twice)?.message).toBe(`parameter p (#${p.id}) is listed twice`);
  });

  it('reports allocations larger than a 32-bit target can address', () => {
    const data = makeVar('huge', 'handle', 'int8');
    const module = tirModule([['f', primFunc({ params: [], body: allocate({ bufferVar: data, dtype: 'int8', extents: [2 ** 40], body: evaluate(0) }) })]]);
    expect(firstTirProblem(module)?.message).toBe(`allocation huge (#${data.id}) holds ${2 ** 40} bytes, more than the ${MAX_ALLOCATION_BYTES} one array may hold on a 32-bit target`);
  });

  describe('calls between functions', () => {
    /** `callee(out)` storing `elements` floats into its one parameter. */
    function callee(elements: number): PrimFunc {
      const out = makeVar('out', 'handle', 'float32');
      const buffer = makeBuffer('out', 'float32', [elements], out);
      const i = makeVar('i');
      return primFunc({ params: [out], bufferMap: [[out, buffer]], body: forLoop(i, 0, elements, bufferStore(buffer, 1, [i])) });
    }
    function caller(body: (v: ReturnType<typeof makeVar>) => Stmt, constant = false, elements = 4): PrimFunc {
      const v = makeVar('t', 'handle', 'float32');
      const inner = body(v);
      return primFunc({
        params: [],
        body: constant
          ? allocateConst({ bufferVar: v, dtype: 'float32', extents: [elements], data: new Uint8Array(4 * elements), body: inner })
          : allocate({ bufferVar: v, dtype: 'float32', extents: [elements], body: inner }),
      });
    }

    it('checks the argument count, the callee still being there, and the buffers handed over', () => {
      const good = tirModule([['main', caller((v) => evaluate(callExtern('g', [v])))], ['g', callee(4)]]);
      expect(firstTirProblem(good)).toBeUndefined();
      const extra = tirModule([['main', caller((v) => evaluate(callExtern('g', [v, v])))], ['g', callee(4)]]);
      expect(firstTirProblem(extra)).toEqual({ func: 'main', message: 'calls g with 2 arguments; it takes 1' });
      const removed = tirModule([['main', caller((v) => evaluate(callExtern('g', [v])))]]);
      // An unknown callee is a C function, unless the module had it before the pass.
      expect(firstTirProblem(removed)).toBeUndefined();
      expect(firstTirProblem(removed, good)).toEqual({ func: 'main', message: 'calls g, which is no longer in the module' });
      const small = tirModule([['main', caller((v) => evaluate(callExtern('g', [v])), false, 1)], ['g', callee(4)]]);
      expect(firstTirProblem(small)).toEqual({ func: 'main', message: 'passes t (4 bytes) to g, whose parameter 0 (out) is a buffer of 16 bytes' });
    });

    it('blames a function that stores into a constant it is given', () => {
      const module = tirModule([['main', caller((v) => evaluate(callExtern('g', [v])), true)], ['g', callee(4)]]);
      expect(firstTirProblem(module)).toEqual({ func: 'g', message: 'stores into its parameter 0, to which main passes the constant t' });
    });
  });

  it('reports what is not TIR at all, with its path', () => {
    expect(stmtShapeProblem(undefined)).toEqual({ path: '', message: 'undefined, not a statement' });
    expect(stmtShapeProblem('for (;;)')).toEqual({ path: '', message: 'the string "for (;;)", not a statement' });
    const i = makeVar('i');
    const bogus = forLoop(i, 0, 4, seq([evaluate(0), { kind: 'Bogus' } as unknown as Stmt]));
    expect(stmtShapeProblem(bogus)).toEqual({ path: 'body.seq[1]', message: "a node of kind 'Bogus', not a statement" });
    const badIndex = { ...bufferStore(makeBuffer('b', 'int8', [4]), 0, [0]), indices: [undefined] } as unknown as Stmt;
    expect(stmtShapeProblem(badIndex)).toEqual({ path: 'indices[0]', message: 'undefined, not an expression' });
    const module = tirModule([['f', { ...primFunc({ params: [], body: evaluate(0) }), params: [intImm(3)] } as unknown as PrimFunc]]);
    expect(firstTirProblem(module)).toEqual({ func: 'f', message: "params[0] is a node of kind 'IntImm', not a Var" });
  });
});
