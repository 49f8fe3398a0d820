/**
 * In-place reuse: which outputs may share an input's buffer (graph analysis), and what
 * lowering makes of it (one Allocate, no reshape call, an elementwise op writing over its
 * input), checked byte for byte against the interpreter.
 */
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { inplaceAliases } from '../../src/ir/graph/inplace';
import { collectAllocates } from '../../src/ir/tir/analysis';
import { Call, MAIN_PRIM_FUNC, PrimFunc } from '../../src/ir/tir/nodes';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { lowerToTir } from '../../src/lower/lowerModule';
import { cpuStrategyFor, i8, lowerForCpu, q, randomTensor, rng, runBoth } from './helpers';

const I8 = (shape: number[], scale = 0.05, zp = 0) => i8(shape, scale, zp);
const NO_ACT = { activation: 'NONE' };

/** x -> a = add(x, x) -> r = reshape(a) -> s = add(r, r) -> out = reshape(s), with variations. */
function chain(outputs: string[] = ['out'], extraReaderOfA = false) {
  const b = new FunctionBuilder();
  b.param('x', I8([1, 4, 4, 2]));
  b.call('a', 'add', ['x', 'x'], I8([1, 4, 4, 2], 0.1), NO_ACT);
  b.call('r', 'reshape', ['a'], I8([1, 32], 0.1));
  b.call('s', 'add', ['r', 'r'], I8([1, 32], 0.2), NO_ACT);
  b.call('out', 'reshape', [extraReaderOfA ? 'a' : 's'], I8([32], 0.2));
  if (extraReaderOfA) b.call('t', 'add', ['s', 's'], I8([1, 32], 0.3), NO_ACT);
  return b.build(outputs);
}

describe('inplaceAliases', () => {
  it('aliases a reshape of a dying intermediate and an elementwise op over one; never a parameter or a function output', () => {
    // a reads the parameter x (never overwritten); out is the function output (the application's).
    expect(inplaceAliases(chain())).toEqual([
      { tensor: 'r', input: 'a', kind: 'view' },
      { tensor: 's', input: 'r', kind: 'elementwise' },
    ]);
  });

  it('does not alias an input that is read later', () => {
    // a is read again by `out`, so r cannot take its buffer; s still takes r's.
    expect(inplaceAliases(chain(['out', 't'], true))).toEqual([{ tensor: 's', input: 'r', kind: 'elementwise' }]);
  });

  it('takes only an operand of the output shape and dtype (not a broadcast one, not another dtype)', () => {
    const b = new FunctionBuilder();
    b.param('x', I8([1, 4]));
    b.call('small', 'reshape', ['x'], I8([1, 1, 4]));
    b.call('big', 'add', ['x', 'x'], I8([1, 3, 4]), NO_ACT);
    // small [1,1,4] broadcasts to [1,3,4] and dies here; big has the shape but is read later.
    b.call('sum', 'add', ['small', 'big'], I8([1, 3, 4]), NO_ACT);
    b.call('again', 'add', ['big', 'sum'], I8([1, 3, 4]), NO_ACT);
    b.call('wide', 'quantize', ['again'], tensorType([1, 3, 4], 'int16', q(0.001)));
    b.call('narrow', 'quantize', ['wide'], I8([1, 3, 4]));
    b.call('out', 'add', ['narrow', 'narrow'], I8([1, 3, 4]), NO_ACT);
    expect(inplaceAliases(b.build(['out']))).toEqual([
      // sum: small is broadcast, big is read by `again` -> none. again: big and sum both die; the first wins.
      { tensor: 'again', input: 'big', kind: 'elementwise' },
      // int8 -> int16 and int16 -> int8 requantizes change the element size: no alias.
    ]);
  });

  it('aliases a same-type requantize (int8 -> int8)', () => {
    const b = new FunctionBuilder();
    b.param('x', I8([8]));
    b.call('a', 'add', ['x', 'x'], I8([8], 0.1), NO_ACT);
    b.call('y', 'quantize', ['a'], I8([8], 0.07, 3));
    b.call('out', 'add', ['y', 'y'], I8([8], 0.2), NO_ACT);
    expect(inplaceAliases(b.build(['out']))).toEqual([{ tensor: 'y', input: 'a', kind: 'elementwise' }]);
  });
});

function externCallees(f: PrimFunc): string[] {
  const names: string[] = [];
  postOrderVisit(f, (n) => {
    const c = n as Call;
    if (c.kind === 'Call' && c.op === 'tir.call_extern' && c.args[0].kind === 'StringImm') names.push(c.args[0].value);
  });
  return names;
}

describe('lowering with in-place reuse', () => {
  it('one buffer holds a, r and s: no reshape call, the add writes over its input, same bytes as the interpreter', () => {
    const module = moduleOf([chain()]);
    const x = randomTensor(rng(3), I8([1, 4, 4, 2]));
    const { lowered, reference, tir } = runBoth(module, [x]);
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    const main = tir.functions.get(MAIN_PRIM_FUNC)!;
    const allocs = collectAllocates(main);
    expect(allocs.map((a) => [a.bufferVar.name, a.annotations['uma.tensor'], a.annotations['uma.tensor_aliases']])).toEqual([
      ['sid_1', 'a', ['r', 's']],
    ]);
    // add(x, x) -> sid_1; add(sid_1, sid_1) -> sid_1 (in place); reshape(sid_1) -> out is a copy
    // into the application's output buffer.
    expect(externCallees(main)).toEqual(['tvmgen_default_fused_add', 'tvmgen_default_fused_add_1', 'tvmgen_default_fused_reshape']);
  });

  it('unary and binary elementwise ops opt in with the flag: a chain of them runs in one buffer', () => {
    const b = new FunctionBuilder();
    b.param('x', I8([2, 3, 4], 0.05, 3));
    b.call('a', 'add', ['x', 'x'], I8([2, 3, 4], 0.1, -2), NO_ACT);
    b.call('r', 'relu', ['a'], I8([2, 3, 4], 0.1, -128));
    b.call('m', 'mul', ['r', 'x'], I8([2, 3, 4], 0.02, 1), NO_ACT);
    b.call('s', 'sub', ['m', 'x'], I8([2, 3, 4], 0.06, 0), NO_ACT);
    b.call('out', 'tanh', ['s'], i8([2, 3, 4], 1 / 128, 0));
    const module = moduleOf([b.build(['out'])]);
    expect(inplaceAliases(module.functions.get('main')!).map((a) => [a.tensor, a.input])).toEqual([
      ['r', 'a'],
      ['m', 'r'],
      ['s', 'm'],
    ]);
    const x = randomTensor(rng(9), I8([2, 3, 4]));
    const { lowered, reference, tir } = runBoth(module, [x]);
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    expect(collectAllocates(tir.functions.get(MAIN_PRIM_FUNC)!).map((a) => a.annotations['uma.tensor_aliases'])).toEqual([['r', 'm', 's']]);
  });

  it('can be turned off (inplace: false): one Allocate per intermediate, every call kept', () => {
    const module = moduleOf([chain()]);
    const tir = lowerToTir(module, { strategyFor: cpuStrategyFor, inplace: false });
    expect(collectAllocates(tir.functions.get(MAIN_PRIM_FUNC)!).map((a) => a.bufferVar.name)).toEqual(['sid_1', 'sid_2', 'sid_3']);
    expect(lowerForCpu(module).functions.size).toBeLessThan(tir.functions.size);
  });
});
