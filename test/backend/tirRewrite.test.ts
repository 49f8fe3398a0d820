import { nestBuffers, nestLoops, replaceLoopNestWithCallExtern } from '../../src/backend';
import {
  add,
  addressOf,
  bufferLoad,
  bufferStore,
  callExtern,
  forLoop,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
} from '../../src/ir/tir/builder';
import { Call, Evaluate, For, PrimFunc, SeqStmt, Stmt, StringImm } from '../../src/ir/tir/nodes';

/** out = a + b (a 4x8 loop nest), then out2 = out copied (a 32 loop) — two separate nests. */
function twoNests(): { func: PrimFunc; addNest: For; copyNest: For } {
  const a = makeBuffer('a', 'int8', [4, 8]);
  const b = makeBuffer('b', 'int8', [4, 8]);
  const out = makeBuffer('out', 'int8', [4, 8]);
  const flat = makeBuffer('flat', 'int8', [32]);
  const i = makeVar('i');
  const j = makeVar('j');
  const addNest = forLoop(
    i,
    0,
    4,
    forLoop(j, 0, 8, bufferStore(out, add(bufferLoad(a, [i, j]), bufferLoad(b, [i, j])), [i, j]), 'serial', {
      kernel: 'elementwise_add',
    }),
  );
  const k = makeVar('k');
  const copyNest = forLoop(k, 0, 32, bufferStore(flat, bufferLoad(flat, [k]), [k]));
  const func = primFunc({
    params: [a.data, b.data, out.data, flat.data],
    bufferMap: [
      [a.data, a],
      [b.data, b],
      [out.data, out],
      [flat.data, flat],
    ],
    body: seq([addNest, copyNest]),
    attrs: { target: 'accel' },
  });
  return { func, addNest, copyNest };
}

describe('replaceLoopNestWithCallExtern', () => {
  it('replaces the matching nest with a call_extern on its buffers and keeps the rest', () => {
    const { func, copyNest } = twoNests();
    const out = replaceLoopNestWithCallExtern(
      func,
      (nest) => {
        const inner = nestLoops(nest);
        return inner.some((l) => l.annotations.kernel === 'elementwise_add') ? inner.length : undefined;
      },
      (nest, depth) => {
        const { reads, writes } = nestBuffers(nest);
        return callExtern(`accel_add_${depth}d`, [...reads, ...writes].map((buf) => addressOf(bufferLoad(buf, buf.shape.map(() => 0)))));
      },
    );
    const body = out.body as SeqStmt;
    expect(body.seq).toHaveLength(2);
    const ev = body.seq[0] as Evaluate;
    expect(ev.kind).toBe('Evaluate');
    const call = ev.value as Call;
    expect(call.op).toBe('tir.call_extern');
    expect((call.args[0] as StringImm).value).toBe('accel_add_2d');
    const argBuffers = call.args.slice(1).map((arg) => ((arg as Call).args[0] as { buffer: { name: string } }).buffer.name);
    expect(argBuffers).toEqual(['a', 'b', 'out']);
    // The copy nest is the very same object: untouched subtrees are shared.
    expect(body.seq[1]).toBe(copyNest);
    expect(out.params).toBe(func.params);
  });

  it('returns the function itself when nothing matches, and does not descend into a replaced nest', () => {
    const { func } = twoNests();
    expect(replaceLoopNestWithCallExtern(func, () => undefined, () => callExtern('never', []))).toBe(func);
    const visited: string[] = [];
    replaceLoopNestWithCallExtern(
      func,
      (nest) => {
        visited.push(nest.loopVar.name);
        return nest.loopVar.name === 'i';
      },
      (): Stmt => seq([]),
    );
    // i matched (its inner j is never offered), k is offered and rejected.
    expect(visited).toEqual(['i', 'k']);
  });

  it('collects reads and writes by buffer identity', () => {
    const { addNest, copyNest } = twoNests();
    expect(nestBuffers(addNest).reads.map((b) => b.name)).toEqual(['a', 'b']);
    expect(nestBuffers(addNest).writes.map((b) => b.name)).toEqual(['out']);
    expect(nestBuffers(copyNest).reads.map((b) => b.name)).toEqual(['flat']);
    expect(nestBuffers(copyNest).writes.map((b) => b.name)).toEqual(['flat']);
  });
});
