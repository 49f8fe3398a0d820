import {
  add,
  allocate,
  bufferLoad,
  bufferStore,
  call,
  evaluate,
  floorDiv,
  forLoop,
  ifThenElse,
  intImm,
  letStmt,
  lt,
  makeBuffer,
  makeVar,
  mul,
  seq,
  sub,
} from '../../src/ir/tir/builder';
import { printExpr, printModule, printPrimFunc, printStmt } from '../../src/ir/tir/printer';
import { fusedAdd, smallModule } from './fixtures';

describe('TIR printer', () => {
  it('prints an operator PrimFunc with attrs, matched buffers and a serial loop', () => {
    expect(printPrimFunc(fusedAdd())).toBe(
      [
        '@T.prim_func',
        'def tvmgen_default_fused_add(a: T.handle("int8"), b: T.handle("int8")):',
        '    T.func_attr({"global_symbol": "tvmgen_default_fused_add", "target": "accel"})',
        '    a_buf = T.match_buffer(a, [64], "int8")',
        '    b_buf = T.match_buffer(b, [64], "int8")',
        '    for i in T.serial(0, 64):',
        '        b_buf[i] = a_buf[i] + T.int8(1)',
        '',
      ].join('\n'),
    );
  });

  it('prints main with allocate annotations, constant size and both call kinds', () => {
    const text = printModule(smallModule());
    const main = `${text.split('\n\n')[0]}\n`;
    expect(main).toBe(
      [
        '@T.prim_func',
        'def __tvm_main__(input: T.handle("int8"), output: T.handle("int8")):',
        '    T.func_attr({"global_symbol": "__tvm_main__", "runner_function": True})',
        '    input_buf = T.match_buffer(input, [64], "int8")',
        '    output_buf = T.match_buffer(output, [64], "int8")',
        // FNV-1a of bytes 5,6,7,8 computed independently.
        '    weights = T.allocate_const([4], "int8", nbytes=4, checksum="9e285025")',
        '    sid_1 = T.allocate([64], "int8", "global", annotations={"candidate_memory_pools": ["act_mem"]})',
        '    T.tvm_call_cpacked("tvmgen_default_fused_add", input, sid_1)',
        '    T.call_extern("int32", "tvmgen_default_fused_add", sid_1, output)',
        '    T.call_extern("int32", "add_first_weight", output, weights, 64)',
        '',
      ].join('\n'),
    );
    // Functions are sorted by name: main's double underscore sorts before letters.
    expect(text.indexOf('def __tvm_main__')).toBeLessThan(text.indexOf('def tvmgen_default_fused_add'));
  });

  it('names by first appearance, never by var id', () => {
    const build = (): string => {
      const buf = makeBuffer('x', 'int32', [8]);
      const i1 = makeVar('i');
      const i2 = makeVar('i');
      return printStmt(
        seq([forLoop(i1, 0, 8, bufferStore(buf, i1, [i1])), forLoop(i2, 0, 8, bufferStore(buf, i2, [i2]), 'unrolled')]),
      );
    };
    const text = build();
    expect(text).toBe(
      [
        'for i in T.serial(0, 8):',
        '    x = T.Buffer([8], "int32")',
        '    x[i] = i',
        'for i_1 in T.unrolled(0, 8):',
        '    x[i_1] = i_1',
        '',
      ].join('\n'),
    );
    // Fresh vars (new ids) give the same text.
    expect(build()).toBe(text);
  });

  it('prints LetStmt with pool_ptr, an explicit buffer view and if/else', () => {
    const pool = makeVar('act_mem_var', 'handle', 'uint8');
    const p = makeVar('sid_3', 'handle', 'int8');
    const view = makeBuffer('sid_3_buf', 'int8', [2, 4], p);
    const j = makeVar('j');
    const body = forLoop(
      j,
      1,
      3,
      ifThenElse(lt(j, 2), bufferStore(view, intImm(0, 'int8'), [0, j]), evaluate(call('tir.q_multiply_shift', 'int32', [j, 1073741824, -1]))),
    );
    expect(printStmt(letStmt(p, call('tir.pool_ptr', 'handle', [pool, 96]), body))).toBe(
      [
        'sid_3: T.handle("int8") = T.pool_ptr(act_mem_var, 96)',
        'for j in T.serial(1, 4):',
        '    if j < 2:',
        '        sid_3_buf = T.Buffer([2, 4], "int8", data=sid_3)',
        '        sid_3_buf[0, j] = T.int8(0)',
        '    else:',
        '        T.q_multiply_shift(j, 1073741824, -1)',
        '',
      ].join('\n'),
    );
  });

  it('parenthesises only where precedence needs it', () => {
    const a = makeVar('a');
    const b = makeVar('b');
    const c = makeVar('c');
    expect(printExpr(mul(add(a, b), c))).toBe('(a + b) * c');
    expect(printExpr(add(a, mul(b, c)))).toBe('a + b * c');
    expect(printExpr(sub(a, sub(b, c)))).toBe('a - (b - c)');
    expect(printExpr(sub(sub(a, b), c))).toBe('a - b - c');
    expect(printExpr(floorDiv(a, 4))).toBe('a // 4');
  });

  it('shows allocate scope, condition-free form and nested allocates in order', () => {
    const v = makeVar('scratch', 'handle', 'int16');
    const buf = makeBuffer('scratch', 'int16', [16], v);
    const i = makeVar('k');
    const s = allocate({
      bufferVar: v,
      dtype: 'int16',
      extents: [16],
      storageScope: 'local',
      body: forLoop(i, 0, 16, bufferStore(buf, bufferLoad(buf, [i]), [i]), 'parallel', { pragma: 'x' }),
    });
    expect(printStmt(s)).toBe(
      [
        'scratch = T.allocate([16], "int16", "local")',
        'for k in T.parallel(0, 16, annotations={"pragma": "x"}):',
        '    scratch_1 = T.Buffer([16], "int16", data=scratch)',
        '    scratch_1[k] = scratch_1[k]',
        '',
      ].join('\n'),
    );
  });
});

describe('names of many same-named vars', () => {
  // Regression: each fresh name counted its suffix up from 1, so a function with thousands of
  // vars of one name was quadratic (5,000 model inputs: 8 of the 14 s of a compile printing TIR).
  it('20,000 vars of one name get x, x_1 ... x_19999 in well under a second', () => {
    const n = 20000;
    const vars = Array.from({ length: n }, () => makeVar('x'));
    const body = seq(vars.map((v) => evaluate(call('tir.noop', 'int32', [v]))));
    const t0 = Date.now();
    const lines = printStmt(body).split('\n');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(lines[0]).toBe('T.noop(x)');
    expect(lines[1]).toBe('T.noop(x_1)');
    expect(lines[n - 1]).toBe(`T.noop(x_${n - 1})`);
  });

  it('a stem whose suffixed name is already taken skips it, as before', () => {
    const a = makeVar('a');
    const a1 = makeVar('a_1');
    const a2 = makeVar('a');
    const a3 = makeVar('a');
    const s = letStmt(a, intImm(0, 'int32'), letStmt(a1, intImm(1, 'int32'), letStmt(a2, intImm(2, 'int32'), letStmt(a3, intImm(3, 'int32'), evaluate(call('tir.noop', 'int32', [a3]))))));
    expect(printStmt(s).split('\n').slice(0, 4)).toEqual(['a: T.int32 = 0', 'a_1: T.int32 = 1', 'a_2: T.int32 = 2', 'a_3: T.int32 = 3']);
  });
});
