import {
  add,
  allocate,
  bufferLoad,
  bufferStore,
  callExtern,
  evaluate,
  forLoop,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  seq,
} from '../../src/ir/tir/builder';
import {
  collectAllocateConsts,
  collectAllocates,
  collectCallExterns,
  countStatements,
  freeVars,
} from '../../src/ir/tir/analysis';
import { structuralEqual } from '../../src/ir/tir/equal';
import { MAIN_PRIM_FUNC, PrimFunc } from '../../src/ir/tir/nodes';
import { fusedAdd, smallModule } from './fixtures';

describe('structuralEqual', () => {
  it('equates independently built functions (different var ids)', () => {
    const f = fusedAdd();
    const g = fusedAdd();
    expect(f.params[0].id).not.toBe(g.params[0].id);
    expect(structuralEqual(f, g)).toBe(true);
    expect(structuralEqual(smallModule(), smallModule())).toBe(true);
  });

  it('tells apart different extents, dtypes, annotations and constants', () => {
    expect(structuralEqual(fusedAdd(64), fusedAdd(32))).toBe(false);
    const m1 = smallModule();
    const main = m1.functions.get(MAIN_PRIM_FUNC) as PrimFunc;
    const c = main.body;
    if (c.kind !== 'AllocateConst' || c.body.kind !== 'Allocate') throw new Error('fixture shape changed');
    const otherData = { ...main, body: { ...c, data: new Uint8Array([5, 6, 7, 9]) } };
    expect(structuralEqual(main, otherData)).toBe(false);
    const otherPools = { ...main, body: { ...c, body: { ...c.body, annotations: { candidate_memory_pools: ['l2'] } } } };
    expect(structuralEqual(main, otherPools)).toBe(false);
  });

  it('maps vars as a bijection by binding position', () => {
    const buf = makeBuffer('x', 'int32', [4]);
    const i = makeVar('i');
    const j = makeVar('j');
    const k = makeVar('k');
    // for i: for j: x[i] = j   vs   for i: for j: x[j] = j
    const a = forLoop(i, 0, 4, forLoop(j, 0, 4, bufferStore(buf, j, [i])));
    const b = forLoop(i, 0, 4, forLoop(j, 0, 4, bufferStore(buf, j, [j])));
    expect(structuralEqual(a, b)).toBe(false);
    // Renaming the loop vars keeps equality; names are ignored unless asked for.
    const c = forLoop(k, 0, 4, forLoop(makeVar('m'), 0, 4, bufferStore(buf, 0, [k])));
    const d = forLoop(j, 0, 4, forLoop(i, 0, 4, bufferStore(buf, 0, [j])));
    expect(structuralEqual(c, d)).toBe(true);
    expect(structuralEqual(c, d, { compareNames: true })).toBe(false);
  });

  it('compares var dtypes and node kinds', () => {
    expect(structuralEqual(makeVar('a', 'int32'), makeVar('a', 'int8'))).toBe(false);
    expect(structuralEqual(intImm(1), intImm(1, 'int8'))).toBe(false);
    expect(structuralEqual(evaluate(0), intImm(0))).toBe(false);
    expect(structuralEqual(add(1, 2), add(1, 2))).toBe(true);
  });
});

describe('TIR analysis helpers', () => {
  it('collects allocates, constants and extern calls of main', () => {
    const main = smallModule().functions.get(MAIN_PRIM_FUNC) as PrimFunc;
    expect(collectAllocates(main).map((a) => a.bufferVar.name)).toEqual(['sid_1']);
    expect(collectAllocateConsts(main).map((a) => a.data.length)).toEqual([4]);
    const calls = collectCallExterns(main);
    expect(calls.map((c) => [c.op, c.name, c.args.length])).toEqual([
      ['tir.tvm_call_cpacked', 'tvmgen_default_fused_add', 2],
      ['tir.call_extern', 'tvmgen_default_fused_add', 2],
      ['tir.call_extern', 'add_first_weight', 3],
    ]);
    expect(calls[2].args[2]).toEqual(intImm(64));
  });

  it('finds free vars and respects scopes', () => {
    const n = makeVar('n');
    const p = makeVar('p', 'handle', 'int8');
    const buf = makeBuffer('b', 'int8', [16], p);
    const i = makeVar('i');
    const t = makeVar('t');
    const s = seq([
      forLoop(i, 0, n, letStmt(t, add(i, 1), bufferStore(buf, t, [i]))),
      evaluate(callExtern('k', [i])),
    ]);
    // n and p are never bound; i escapes its loop in the second statement.
    expect(freeVars(s).map((v) => v.name)).toEqual(['n', 'p', 'i']);
    expect(freeVars(fusedAdd())).toEqual([]);
    const scratch = makeVar('scratch', 'handle', 'int8');
    const withAlloc = allocate({
      bufferVar: scratch,
      dtype: 'int8',
      extents: [4],
      body: evaluate(bufferLoad(makeBuffer('s', 'int8', [4], scratch), [0])),
    });
    expect(freeVars(withAlloc)).toEqual([]);
  });

  it('counts statements without SeqStmt containers', () => {
    // For + BufferStore
    expect(countStatements(fusedAdd())).toBe(2);
    // AllocateConst, Allocate, 3 Evaluates
    expect(countStatements(smallModule().functions.get(MAIN_PRIM_FUNC) as PrimFunc)).toBe(5);
  });
});
