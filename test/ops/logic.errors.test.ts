/**
 * Comparisons, logical operators and SELECT_V2 that TFLite Micro cannot run are rejected at
 * import with one-line errors naming operator, index and what is wrong; a model of supported
 * ones checks clean (what `uma-ts inspect` reports).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { UnsupportedOperatorError } from '../../src/errors';
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, WriterDType } from '../../src/frontend/tflite/writer';
import { errorOf } from '../helpers/errorOf';

interface T {
  readonly shape: number[];
  readonly dtype: WriterDType;
  readonly scale?: number;
  readonly zp?: number;
}

function tensor(name: string, t: T) {
  return { name, shape: t.shape, dtype: t.dtype, ...(t.scale !== undefined ? { quant: { scale: [t.scale], zeroPoint: [t.zp ?? 0] } } : {}) };
}

/** One model; each operator reads fresh inputs and yields an output of its own. */
function model(ops: readonly { op: string; inputs: T[]; output: T }[]): Uint8Array {
  const w = new TfliteWriter();
  ops.forEach((o, k) => {
    const ids = o.inputs.map((t, i) => w.addInput(tensor(`x${k}_${i}`, t)));
    const y = w.addTensor(tensor(`y${k}`, o.output));
    w.addOperator({ op: o.op, inputs: ids, outputs: [y] });
    w.markOutput(y);
  });
  return w.finish();
}

const messageOf = (op: string, inputs: T[], output: T): string => {
  const e = errorOf(() => importTflite(model([{ op, inputs, output }]), 'm.tflite'));
  expect(e).toBeInstanceOf(UnsupportedOperatorError);
  expect(e.message).not.toContain('\n');
  return e.message;
};

const b = (shape: number[]): T => ({ shape, dtype: 'bool' });
const f = (shape: number[]): T => ({ shape, dtype: 'float32' });

describe('comparisons, logical ops, SELECT_V2: bad input', () => {
  it('an operand type without a TFLite Micro kernel names operator, index and type', () => {
    const i16 = { shape: [4], dtype: 'int16' as const, scale: 0.01 };
    expect(messageOf('LESS', [i16, i16], b([4]))).toBe(
      'unsupported input 0 dtype int16 (supported: float32, int8, int32, int64) on LESS at operator #0 in m.tflite',
    );
    const u8 = { shape: [4], dtype: 'uint8' as const, scale: 0.5, zp: 128 };
    expect(messageOf('EQUAL', [u8, u8], b([4]))).toMatch(/^unsupported input 0 dtype uint8 \(supported: float32, int8, int32, int64, bool\) on EQUAL at operator #0/);
    expect(messageOf('GREATER', [b([4]), b([4])], b([4]))).toMatch(/^unsupported input 0 dtype bool .* on GREATER at operator #0/);
    expect(messageOf('EQUAL', [f([4]), { shape: [4], dtype: 'int32' }], b([4]))).toBe(
      'unsupported input 1 dtype int32 with input 0 dtype float32 on EQUAL at operator #0 in m.tflite',
    );
    expect(messageOf('LOGICAL_AND', [b([4]), { shape: [4], dtype: 'int8', scale: 0.1 }], b([4]))).toMatch(/^unsupported input 1 dtype int8 \(supported: bool\) on LOGICAL_AND/);
    expect(messageOf('LOGICAL_NOT', [f([4])], f([4]))).toMatch(/^unsupported input 0 dtype float32 \(supported: bool\) on LOGICAL_NOT/);
    const i32 = { shape: [4], dtype: 'int32' as const };
    expect(messageOf('SELECT_V2', [b([4]), i32, i32], i32)).toBe(
      "unsupported input 1 dtype int32 (supported: float32, int8, int16) on SELECT_V2 at operator #0 in m.tflite: TFLite Micro's SELECT_V2 kernel (select.cc) does not support int32 inputs",
    );
    expect(messageOf('SELECT_V2', [f([4]), f([4]), f([4])], f([4]))).toMatch(/^unsupported condition dtype float32 \(supported: bool\) on SELECT_V2/);
  });

  it('a quantized comparison with a scale TFLite Micro cannot turn into a multiplier below one', () => {
    const big = { shape: [4], dtype: 'int8' as const, scale: 1.5 };
    const ok = { shape: [4], dtype: 'int8' as const, scale: 0.5 };
    expect(messageOf('GREATER_EQUAL', [ok, big], b([4]))).toBe(
      'unsupported input 1 scale 1.5 (a quantized comparison needs 0 < scale < 1) on GREATER_EQUAL at operator #0 in m.tflite',
    );
  });

  it('a broadcast past the rank TFLite Micro broadcasts over', () => {
    expect(messageOf('LOGICAL_OR', [b([2, 1, 1, 1, 3]), b([3])], b([2, 1, 1, 1, 3]))).toBe(
      'unsupported broadcast over 5 axes (TFLite Micro broadcasts at most 4) on LOGICAL_OR at operator #0 in m.tflite',
    );
    expect(messageOf('SELECT_V2', [b([1, 1, 1, 1, 1, 2]), f([2]), f([3, 1, 1, 1, 1, 1])], f([3, 1, 1, 1, 1, 2]))).toMatch(
      /^unsupported broadcast over 6 axes \(TFLite Micro broadcasts at most 5\) on SELECT_V2/,
    );
    // Equal shapes run flat in TFLite Micro: any rank.
    expect(() => importTflite(model([{ op: 'LOGICAL_OR', inputs: [b([1, 2, 1, 1, 3]), b([1, 2, 1, 1, 3])], output: b([1, 2, 1, 1, 3]) }]))).not.toThrow();
  });

  it('the checker lists every bad operator of a model and passes the supported ones', () => {
    const i16 = { shape: [4], dtype: 'int16' as const, scale: 0.01 };
    const c = checkTflite(
      model([
        { op: 'LESS', inputs: [i16, i16], output: b([4]) },
        { op: 'EQUAL', inputs: [f([2, 3]), f([3])], output: b([2, 3]) },
        { op: 'LOGICAL_NOT', inputs: [f([4])], output: f([4]) },
        { op: 'SELECT_V2', inputs: [b([4]), f([4]), f([1])], output: f([4]) },
        { op: 'GREATER', inputs: [i16, i16], output: b([4]) },
      ]),
    );
    expect(c.unsupported.map((u) => [u.operator, u.index])).toEqual([
      ['LESS', 0],
      ['LOGICAL_NOT', 2],
    ]);
    const clean = checkTflite(
      model([
        { op: 'EQUAL', inputs: [{ shape: [4], dtype: 'int64' }, { shape: [1], dtype: 'int64' }], output: b([4]) },
        { op: 'LOGICAL_AND', inputs: [b([2, 4]), b([4])], output: b([2, 4]) },
        { op: 'SELECT_V2', inputs: [b([4]), i16, i16], output: i16 },
      ]),
    );
    expect(clean.unsupported).toEqual([]);
    expect(clean.module).not.toBeNull();
  });
});

describe('uma-ts inspect', () => {
  it('lists only the unsupported uses among comparisons, logical ops and SELECT_V2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-logic-'));
    try {
      const i16 = { shape: [4], dtype: 'int16' as const, scale: 0.01 };
      const path = join(dir, 'logic.tflite');
      writeFileSync(
        path,
        model([
          { op: 'GREATER', inputs: [i16, i16], output: b([4]) },
          { op: 'LOGICAL_OR', inputs: [b([2, 4]), b([4])], output: b([2, 4]) },
          { op: 'SELECT_V2', inputs: [b([4]), f([4]), f([4])], output: f([4]) },
          { op: 'LESS_EQUAL', inputs: [i16, i16], output: b([4]) },
        ]),
      );
      const io = memoryIO();
      await main(['node', 'uma-ts', 'inspect', path], io);
      const out = [...io.stdout, ...io.stderr].join('\n');
      expect(out).toMatch(/^\s*0\s+GREATER\s+y0\s+\[4\]\s+bool\s*$/m);
      expect(out).toMatch(/^\s*1\s+LOGICAL_OR\s+y1\s+\[2, 4\]\s+bool\s*$/m);
      expect(out).toMatch(/^\s*2\s+SELECT_V2\s+y2\s+\[4\]\s+float32\s*$/m);
      expect(out).toMatch(/^\s*3\s+LESS_EQUAL\s+y3\s+\[4\]\s+bool\s+unsupported\s*$/m);
      expect(out).toContain('unsupported operators (1 in 1 kind)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
