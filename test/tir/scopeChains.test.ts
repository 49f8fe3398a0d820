/**
 * Chains of scope statements (a large model's main nests one Allocate per tensor) are walked
 * with loops, not recursion: every traversal takes a chain far deeper than Node's stack, and
 * the visitor's and mutator's scope protocol (bodies after `visit<Kind>`, `leaveStmt` after the
 * body, `mutate<Kind>(s, body)` from the inside out) keeps the order recursion had.
 */
import {
  allocate,
  allocateConst,
  bufferStore,
  callExtern,
  evaluate,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { structuralEqual } from '../../src/ir/tir/equal';
import { runPrimFunc } from '../../src/ir/tir/eval';
import { StmtExprMutator } from '../../src/ir/tir/mutator';
import { primFuncShapeProblem } from '../../src/ir/tir/nodeShape';
import { Allocate, LetStmt, PrimFunc, Stmt } from '../../src/ir/tir/nodes';
import { printPrimFunc } from '../../src/ir/tir/printer';
import { scopeChain } from '../../src/ir/tir/scope';
import { postOrderVisit, StmtExprVisitor } from '../../src/ir/tir/visitor';
import { firstTirProblem } from '../../src/ir/tir/wellFormed';

const DEPTH = 50_000;

/** out[0] = DEPTH after DEPTH nested allocates and lets, each let adding one. */
function deepFunc(): PrimFunc {
  const out = makeVar('out', 'handle', 'int32');
  const outBuf = makeBuffer('out_buf', 'int32', [1], out);
  const lets = Array.from({ length: DEPTH }, (_, i) => makeVar(`v${i}`, 'int32'));
  let body: Stmt = bufferStore(outBuf, lets[DEPTH - 1], [0]);
  for (let i = DEPTH - 1; i >= 0; i--) {
    body = letStmt(lets[i], i === 0 ? intImm(1) : { kind: 'BinaryOp', op: 'Add', dtype: 'int32', a: lets[i - 1], b: intImm(1) }, body);
    body = allocate({ bufferVar: makeVar(`sid_${i}`, 'handle', 'int8'), dtype: 'int8', extents: [4], body });
  }
  body = allocateConst({ bufferVar: makeVar('constant_0', 'handle', 'int8'), dtype: 'int8', extents: [1], data: new Uint8Array([7]), body });
  return primFunc({ params: [out], bufferMap: [[out, outBuf]], body });
}

describe('a chain of 100,000 scope statements', () => {
  const f = deepFunc();

  it('is checked, printed, compared, rewritten and evaluated', () => {
    expect(scopeChain(f.body).scopes).toHaveLength(2 * DEPTH + 1);
    expect(primFuncShapeProblem(f)).toBeUndefined();
    expect(firstTirProblem(tirModule([['deep', f]]))).toBeUndefined();
    expect(printPrimFunc(f, 'deep').split('\n').length).toBeGreaterThan(2 * DEPTH);
    expect(structuralEqual(f, deepFunc())).toBe(true);
    let statements = 0;
    postOrderVisit(f, (n) => {
      if (n.kind === 'Allocate' || n.kind === 'LetStmt') statements++;
    });
    expect(statements).toBe(2 * DEPTH);
    const renamed = new (class extends StmtExprMutator {
      override mutateAllocate(s: Allocate, body: Stmt): Stmt {
        return super.mutateAllocate({ ...s, annotations: { seen: 1 } }, body);
      }
    })().mutatePrimFunc(f);
    expect(scopeChain(renamed.body).scopes.filter((s) => s.kind === 'Allocate' && s.annotations.seen === 1)).toHaveLength(DEPTH);
    const out = new Uint8Array(4);
    runPrimFunc(tirModule([['deep', f]]), 'deep', [out]);
    expect(new Int32Array(out.buffer)[0]).toBe(DEPTH);
  });

  it('a shape problem deep in the chain is named by its path', () => {
    const bad = { ...f, body: withInnermost(f.body, { kind: 'Bogus' } as unknown as Stmt) };
    const problem = primFuncShapeProblem(bad);
    expect(problem?.message).toBe("a node of kind 'Bogus', not a statement");
    expect(problem?.path).toBe(`body${'.body'.repeat(2 * DEPTH + 1)}`);
  });
});

/** `s` with the statement under its scope chain replaced. */
function withInnermost(s: Stmt, inner: Stmt): Stmt {
  const { scopes } = scopeChain(s);
  let body = inner;
  for (let i = scopes.length - 1; i >= 0; i--) body = { ...scopes[i], body } as Stmt;
  return body;
}

describe('the scope protocol keeps the order of a recursive walk', () => {
  const a = makeVar('a', 'handle', 'int8');
  const b = makeVar('b', 'handle', 'int8');
  const x = makeVar('x', 'int32');
  const call = evaluate(callExtern('f', [a, b, x]));
  const body = allocate({ bufferVar: a, dtype: 'int8', extents: [1], body: letStmt(x, 3, allocate({ bufferVar: b, dtype: 'int8', extents: [1], body: seq([call, call]) })) });

  it('enterStmt outside in, the body, then leaveStmt inside out', () => {
    const events: string[] = [];
    const name = (s: Stmt): string => (s.kind === 'Allocate' ? s.bufferVar.name : s.kind === 'LetStmt' ? s.var.name : s.kind);
    new (class extends StmtExprVisitor {
      override enterStmt(s: Stmt): void {
        events.push(`enter ${name(s)}`);
      }
      override leaveStmt(s: Stmt): void {
        events.push(`leave ${name(s)}`);
      }
      override visitLetStmt(s: LetStmt): void {
        events.push(`let ${s.var.name}`);
        super.visitLetStmt(s);
      }
    })().visitStmt(body);
    expect(events).toEqual([
      'enter a',
      'enter x',
      'let x',
      'enter b',
      'enter SeqStmt',
      'enter Evaluate',
      'leave Evaluate',
      'enter Evaluate',
      'leave Evaluate',
      'leave SeqStmt',
      'leave b',
      'leave x',
      'leave a',
    ]);
  });

  it('mutate<Kind>(s, body) runs inside out with the body rewritten; returning body drops the scope', () => {
    const order: string[] = [];
    const out = new (class extends StmtExprMutator {
      override mutateAllocate(s: Allocate, inner: Stmt): Stmt {
        order.push(s.bufferVar.name);
        return s.bufferVar === b ? inner : super.mutateAllocate(s, inner);
      }
    })().mutateStmt(body);
    expect(order).toEqual(['b', 'a']);
    expect(scopeChain(out).scopes.map((s) => s.kind)).toEqual(['Allocate', 'LetStmt']);
  });
});
