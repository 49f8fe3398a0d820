import { makeBuffer, makeVar, primFunc, seq, tirModule } from '../../src/ir/tir/builder';
import { collectAllocates } from '../../src/ir/tir/analysis';
import { ANN_INPUT_TENSOR, ANN_OUTPUT_TENSOR, MAIN_PRIM_FUNC, PrimFunc, TirModule } from '../../src/ir/tir/nodes';
import { ATTR_NUM_INPUTS, createIoAllocates } from '../../src/usmp/ioAllocates';
import { callStmt } from './helpers';
import { aotModule } from './aotFixture';

function ioOf(m: TirModule) {
  const main = m.functions.get(MAIN_PRIM_FUNC)!;
  return collectAllocates(main.body).map((a) => [a.bufferVar.name, a.annotations[ANN_INPUT_TENSOR] ?? null, a.annotations[ANN_OUTPUT_TENSOR] ?? null, a.extents]);
}

describe('createIoAllocates', () => {
  it('turns the inputs read and the outputs written into annotated allocates and drops them from main', () => {
    const m = createIoAllocates(aotModule(false));
    const main = m.functions.get(MAIN_PRIM_FUNC)!;
    expect(main.params).toEqual([]);
    expect(main.bufferMap).toEqual([]);
    const io = ioOf(m).filter(([n]) => n === 'x' || n === 'y');
    expect(io).toEqual([
      ['x', 'x', null, [{ kind: 'IntImm', dtype: 'int32', value: 8 }]],
      ['y', null, 'y', [{ kind: 'IntImm', dtype: 'int32', value: 8 }]],
    ]);
  });

  it('treats the last argument of an external kernel call as its output', () => {
    const a = makeVar('a', 'handle', 'int8');
    const b = makeVar('b', 'handle', 'int8');
    const main: PrimFunc = primFunc({
      params: [a, b],
      bufferMap: [
        [a, makeBuffer('a', 'int8', [2, 3], makeVar('a_data', 'handle', 'int8'))],
        [b, makeBuffer('b', 'int8', [6], b)],
      ],
      body: seq([callStmt('my_kernel', [a, b])]),
    });
    const m = createIoAllocates(tirModule([[MAIN_PRIM_FUNC, main]]));
    expect(ioOf(m).map(([n, i, o]) => [n, i, o])).toEqual([
      ['a', 'a', null],
      ['b', null, 'b'],
    ]);
  });

  it('follows num_inputs when lowering states it', () => {
    const a = makeVar('a', 'handle', 'int8');
    const b = makeVar('b', 'handle', 'int8');
    const main = primFunc({
      params: [a, b],
      bufferMap: [
        [a, makeBuffer('a', 'int8', [1], a)],
        [b, makeBuffer('b', 'int8', [1], b)],
      ],
      body: callStmt('k', [b, a]),
      attrs: { [ATTR_NUM_INPUTS]: 1 },
    });
    const m = createIoAllocates(tirModule([[MAIN_PRIM_FUNC, main]]));
    expect(ioOf(m).map(([n, i, o]) => [n, i, o])).toEqual([
      ['a', 'a', null],
      ['b', null, 'b'],
    ]);
  });
});
