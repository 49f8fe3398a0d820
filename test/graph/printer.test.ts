import { join } from 'path';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { FunctionBuilder, moduleOf, tensorType as tt } from '../../src/ir/graph/builder';
import { fnv1a, printModule, printType } from '../../src/ir/graph/printer';

function small(data = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])) {
  const b = new FunctionBuilder();
  b.param('x', tt([1, 4], 'int8', { scale: [0.5], zeroPoint: [-1], axis: 0 }));
  b.constant('w', tt([3, 4], 'int8'), data);
  b.call('my/out:0', 'dense', ['x', 'w'], tt([1, 3], 'int8'), { keep_num_dims: false, activation: 'RELU' });
  return b.build(['my/out:0']);
}

describe('printModule', () => {
  it('prints a Relay-like function with sorted attributes and quoted odd names', () => {
    const text = printModule(moduleOf([small()]));
    expect(text).toBe(
      [
        'def @main(%x: Tensor[(1, 4), int8, q(0.5, -1)]) -> Tensor[(1, 3), int8] {',
        `  %w = constant(Tensor[(3, 4), int8], 12 bytes, fnv1a=0x${fnv1a(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))});`,
        '  %"my/out:0" = dense(%x, %w, activation="RELU", keep_num_dims=false) : Tensor[(1, 3), int8];',
        '  %"my/out:0"',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('FNV-1a matches the published test vectors', () => {
    expect(fnv1a(new Uint8Array([]))).toBe('811c9dc5');
    expect(fnv1a(new TextEncoder().encode('a'))).toBe('e40c292c');
    expect(fnv1a(new TextEncoder().encode('foobar'))).toBe('bf9cf968');
  });

  it('is stable: function insertion order does not matter; constant bytes do', () => {
    const main = small();
    const other = { ...small(), name: 'aux', attrs: { Compiler: 'ethos', global_symbol: 'ethos_main_0' } };
    const a = printModule(moduleOf([main, other]));
    const b = printModule(moduleOf([other, main]));
    expect(a).toBe(b);
    expect(a.indexOf('def @aux')).toBeLessThan(a.indexOf('def @main'));
    expect(a).toContain('def @aux(%x: Tensor[(1, 4), int8, q(0.5, -1)]) -> Tensor[(1, 3), int8] attrs(Compiler="ethos", global_symbol="ethos_main_0") {');
    const changed = printModule(moduleOf([small(new Uint8Array(12))]));
    expect(changed).not.toBe(printModule(moduleOf([main])));
  });

  it('prints per-channel quantization, 1-d shapes and scalars', () => {
    expect(printType(tt([2], 'int32', { scale: [0.25, 0.5], zeroPoint: [0, 0], axis: 0 }))).toBe(
      'Tensor[(2,), int32, q(axis=0, scale=[0.25, 0.5], zp=[0, 0])]',
    );
    expect(printType(tt([], 'float32'))).toBe('Tensor[(), float32]');
  });

  it('prints an imported model deterministically, one line per node', () => {
    const path = join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite');
    const m = loadTfliteFile(path);
    const text = printModule(m);
    expect(printModule(loadTfliteFile(path))).toBe(text);
    const fn = m.functions.get('main')!;
    // def line + non-param nodes + result line + closing brace.
    expect(text.trimEnd().split('\n')).toHaveLength(1 + fn.nodes.length - fn.params.length + 2);
    expect(text.match(/= dense\(/g)).toHaveLength(3);
  });
});
