/**
 * BROADCAST_ARGS on damaged and unusual models (TfliteWriter): operands that are constants,
 * model inputs, SHAPE outputs or another BROADCAST_ARGS (folded at import); wrong dtypes, ranks
 * other than 1, wrong output lengths, negative and huge dimensions, int64 values past int32;
 * results read by FILL or handed out as model outputs. `uma-ts inspect` and `compile` end
 * cleanly (a complete output or one `error:` line).
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, WriterDType } from '../../src/frontend/tflite/writer';
import { MAIN_FUNCTION } from '../../src/ir/graph/types';
import { assertCleanOutcome, FUZZ_SEED, runCli } from './harness';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-bargs-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Kind = 'const' | 'input' | 'shape' | 'chain';
const DIM = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, -7, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 + 3, 2 ** 40, 65536) },
);
const operand = fc.record({
  kind: fc.constantFrom<Kind>('const', 'const', 'input', 'shape', 'chain'),
  values: fc.array(DIM, { maxLength: 4 }),
  rank: fc.oneof({ weight: 8, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constantFrom(0, 2) }),
  /** A dtype other than the case's (a damaged model), mostly none. */
  dtype: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom<WriterDType>('int32', 'int64', 'int8', 'float32') }),
});
const modelCase = fc
  .record({
  dtype: fc.constantFrom<WriterDType>('int32', 'int64'),
  a: operand,
  b: operand,
  outDtype: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom<WriterDType>('int32', 'int64', 'float32') }),
  outLengthDelta: fc.constantFrom(0, 0, 0, 0, 1, -1),
  consumer: fc.constantFrom('output', 'fill', 'fill', 'both'),
  outConstant: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
})
  .map(({ dtype, a, b, ...rest }) => ({ ...rest, a: { ...a, dtype: a.dtype ?? dtype }, b: { ...b, dtype: b.dtype ?? dtype } }));
type Case = typeof modelCase extends fc.Arbitrary<infer T> ? T : never;

const fits = (v: number, dtype: WriterDType): boolean => dtype === 'int64' || (dtype === 'int32' ? v >= -(2 ** 31) && v < 2 ** 31 : dtype === 'int8' ? v >= -128 && v < 128 : true);

function build(c: Case): Uint8Array {
  const w = new TfliteWriter();
  const base = c.a.dtype;
  const make = (o: Case['a'], name: string): { t: number; length: number } => {
    const values = o.values.filter((v) => fits(v, o.dtype));
    const shape = o.rank === 1 ? [values.length] : o.rank === 0 ? [] : [1, values.length];
    const data = o.rank === 0 ? values.slice(0, 1).concat(values.length === 0 ? [1] : []) : values;
    const length = o.rank === 0 ? 1 : values.length;
    switch (o.kind) {
      case 'const':
        return { t: w.addConstant({ name, shape: o.rank === 0 ? [] : shape, dtype: o.dtype, data }), length };
      case 'input':
        return { t: w.addInput({ name, shape, dtype: o.dtype }), length };
      case 'shape': {
        const x = w.addInput({ name: `${name}_x`, shape: values.map((v) => Math.min(Math.max(v, 0), 3)), dtype: 'float32' });
        const y = w.addTensor({ name, shape: [values.length], dtype: o.dtype });
        w.addOperator({ op: 'SHAPE', inputs: [x], outputs: [y] });
        return { t: y, length: values.length };
      }
      case 'chain': {
        const p = w.addConstant({ name: `${name}_p`, shape, dtype: o.dtype, data });
        const q = w.addConstant({ name: `${name}_q`, shape: [1], dtype: o.dtype, data: [1] });
        const y = w.addTensor({ name, shape: [Math.max(length, 1)], dtype: o.dtype });
        w.addOperator({ op: 'BROADCAST_ARGS', inputs: [p, q], outputs: [y] });
        return { t: y, length: Math.max(length, 1) };
      }
    }
  };
  const a = make(c.a, 's1');
  const b = make(c.b, 's2');
  const length = Math.max(0, Math.max(a.length, b.length) + c.outLengthDelta);
  // A damaged model: the output tensor holds data in the file (a constant FILL would read).
  const outType = { name: 'shape_out', shape: [length], dtype: c.outDtype ?? base };
  const out = c.outConstant ? w.addConstant({ ...outType, data: Array.from({ length }, () => 2) }) : w.addTensor(outType);
  w.addOperator({ op: 'BROADCAST_ARGS', inputs: [a.t, b.t], outputs: [out] });
  if (c.consumer !== 'fill') w.markOutput(out);
  if (c.consumer !== 'output') {
    // FILL's declared shape: the broadcast of small non-negative constants, else a guess.
    const guess = [...c.a.values, ...c.b.values].filter((v) => v >= 0 && v <= 5).slice(0, length);
    const value = w.addConstant({ name: 'v', shape: [], dtype: 'float32', data: [0.5] });
    const y = w.addTensor({ name: 'filled', shape: guess, dtype: 'float32' });
    w.addOperator({ op: 'FILL', inputs: [out, value], outputs: [y] });
    w.markOutput(y);
  }
  return w.finish();
}

/** The operand's value as the model holds it, when known at import; as TFLite Micro's C int. */
function knownValue(o: Case['a']): number[] | null {
  const values = o.values.filter((v) => fits(v, o.dtype)).map((v) => Number(BigInt.asIntN(32, BigInt(v))));
  if (o.kind === 'input') return null;
  if (o.kind === 'shape') return values.map((v) => Math.min(Math.max(v, 0), 3));
  if (o.kind === 'chain' && values.length === 0) return [1];
  return values;
}

/** TFLite's rule, written out here: aligned at the last dimension, a missing one is 1, 1 gives way. */
function broadcast(a: readonly number[], b: readonly number[]): number[] | null {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return null;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** A compiled model whose shapes were both known: the folded constant is their broadcast. */
function checkFolded(c: Case, model: Uint8Array): boolean {
  const left = knownValue(c.a);
  const right = knownValue(c.b);
  if (left === null || right === null) return false;
  const expected = broadcast(left, right);
  const node = importTflite(model, 'm.tflite').functions.get(MAIN_FUNCTION)!.nodes.find((n) => n.name === 'shape_out');
  if (node?.kind !== 'constant') throw new Error(`shape_out not folded: ${JSON.stringify(c)}`);
  const data = node.data.slice();
  const got = node.type.dtype === 'int64' ? Array.from(new BigInt64Array(data.buffer), Number) : Array.from(new Int32Array(data.buffer));
  expect({ case: c, got }).toEqual({ case: c, got: expected });
  return true;
}

describe('fuzz: BROADCAST_ARGS', () => {
  it('inspect and compile end cleanly on damaged and unusual shape operands', async () => {
    const seen = new Set<number>();
    let folded = 0;
    await fc.assert(
      fc.asyncProperty(modelCase, async (c) => {
        counter += 1;
        const file = path.join(dir, `m${counter}.tflite`);
        const out = path.join(dir, `o${counter}`);
        fs.writeFileSync(file, build(c));
        assertCleanOutcome(await runCli(['inspect', file]));
        const r = await runCli(['compile', file, '--backend', 'vanilla', '--out', out]);
        assertCleanOutcome(r, out);
        seen.add(r.code);
        // Written into a constant: readers would disagree on its value.
        if (c.outConstant) expect(r.code).toBe(1);
        if (r.code === 0 && checkFolded(c, fs.readFileSync(file))) folded += 1;
        fs.rmSync(out, { recursive: true, force: true });
      }),
      { seed: FUZZ_SEED + 41, numRuns: 150 },
    );
    expect([...seen].sort()).toEqual([0, 1]);
    expect(folded).toBeGreaterThan(5);
  });
});
