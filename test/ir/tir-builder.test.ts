import { allocate, bufferLoad, bufferStore, evaluate, forLoop, intImm, makeBuffer, makeVar, seq } from '../../src/ir/tir/builder';
import { StmtExprMutator } from '../../src/ir/tir/mutator';
import { Expr, Stmt } from '../../src/ir/tir/nodes';
import { StmtExprVisitor } from '../../src/ir/tir/visitor';

function smallLoop(): { stmt: Stmt; i: ReturnType<typeof makeVar> } {
  const a = makeBuffer('a', 'int8', [4]);
  const b = makeBuffer('b', 'int8', [4]);
  const i = makeVar('i');
  const body = forLoop(i, 0, 4, bufferStore(b, bufferLoad(a, [i]), [i]));
  return { stmt: allocate({ bufferVar: b.data, dtype: 'int8', extents: [4], body }), i };
}

describe('TIR visitor and mutator', () => {
  it('visits every loop variable use', () => {
    const { stmt, i } = smallLoop();
    let uses = 0;
    new (class extends StmtExprVisitor {
      override visitVar(v: typeof i): void {
        if (v.id === i.id) uses++;
      }
    })().visitStmt(stmt);
    // loop var itself, store index, load index
    expect(uses).toBe(3);
  });

  it('shares untouched subtrees and rebuilds changed ones', () => {
    const { stmt } = smallLoop();
    const identity = new StmtExprMutator().mutateStmt(stmt);
    expect(identity).toBe(stmt);
    const bump = new (class extends StmtExprMutator {
      override mutateExpr(e: Expr): Expr {
        if (e.kind === 'IntImm' && e.value === 4) return intImm(8);
        return super.mutateExpr(e);
      }
    })().mutateStmt(stmt);
    expect(bump).not.toBe(stmt);
    expect(bump.kind === 'Allocate' && bump.extents[0]).toEqual(intImm(8));
  });

  it('flattens nested sequences', () => {
    const e = evaluate(0);
    const s = seq([e, seq([e, e])]);
    expect(s.kind === 'SeqStmt' && s.seq.length).toBe(3);
    expect(seq([e])).toBe(e);
  });
});
