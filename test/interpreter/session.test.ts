/**
 * Interpreter sessions: variable tensors (SVDF state) carry over between invocations, as
 * TFLite Micro's state does between `Invoke()` calls, while `interpret` stays one-shot.
 */
import { loadTfliteFile } from '../../src/frontend/tflite';
import { IRModule, tensorBytes } from '../../src/ir/graph/types';
import { createSession, interpret } from '../../src/interpreter';
import { seededRandom } from '../../src/util/random';
import { f32, tinySvdf, withSvdfOutputs } from './tinySvdf';

const asFloats = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));

describe('session on a hand-sized SVDF', () => {
  test('each output contracts weights_time with the features of the last two invocations', () => {
    const session = createSession(tinySvdf(true));
    // features: [1,1]·[1,2] = 3, then [2,0] -> 2, then [0,1] -> 2; out = 3*older + 5*newer
    expect(asFloats(session.invoke([f32(1, 1)])[0])).toEqual([5 * 3]);
    expect(asFloats(session.invoke([f32(2, 0)])[0])).toEqual([3 * 3 + 5 * 2]);
    expect(asFloats(session.invoke([f32(0, 1)])[0])).toEqual([3 * 2 + 5 * 2]);
    expect(asFloats(session.state().get('main/state')!)).toEqual([2, 2]);
  });

  test('interpret starts from the initial state every time', () => {
    const m = tinySvdf(true);
    interpret(m, [f32(1, 1)]);
    expect(asFloats(interpret(m, [f32(2, 0)])[0])).toEqual([5 * 2]);
  });

  test('reset forgets the state', () => {
    const session = createSession(tinySvdf(true));
    session.invoke([f32(1, 1)]);
    session.reset();
    expect(asFloats(session.invoke([f32(2, 0)])[0])).toEqual([5 * 2]);
  });

  test('a plain constant state is read-only: no carry-over, module data untouched', () => {
    const m = tinySvdf(false);
    const session = createSession(m);
    session.invoke([f32(1, 1)]);
    expect(asFloats(session.invoke([f32(2, 0)])[0])).toEqual([5 * 2]);
    const state = m.functions.get('main')!.nodes.find((n) => n.name === 'state');
    expect(state?.kind === 'constant' && Array.from(state.data).every((b) => b === 0)).toBe(true);
    expect(session.state().size).toBe(0);
  });
});



/** Inputs of about ±1 real (scale 0.000625): speech-like features, not saturating noise. */
const AMPLITUDE = 1600;
function int16Input(module: IRModule, seed: number): Uint8Array {
  const main = module.functions.get('main')!;
  const type = main.nodes.find((n) => n.name === main.params[0])!.type;
  const random = seededRandom(seed);
  const v = new Int16Array(tensorBytes(type) / 2);
  for (let i = 0; i < v.length; i++) v[i] = Math.floor(random() * 2 * AMPLITUDE) - AMPLITUDE;
  return new Uint8Array(v.buffer);
}


describe.each(['keyword_scrambled', 'keyword_scrambled_8bit'])('session on %s', (model) => {
  const module = withSvdfOutputs(loadTfliteFile(`models/${model}.tflite`));
  const inputs = [1, 2, 3].map((seed) => int16Input(module, seed));
  const session = createSession(module);
  const states: Map<string, Uint8Array>[] = [];
  const outputs = inputs.map((x) => {
    const out = session.invoke([x]);
    states.push(session.state());
    return out;
  });

  test('every SVDF state is a variable of the session', () => {
    const svdfs = module.functions.get('main')!.nodes.filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'svdf');
    expect(svdfs.length).toBeGreaterThan(0);
    expect(states[0].size).toBe(svdfs.length);
  });

  test('the first invocation is the one-shot run; later ones carry the history in the state', () => {
    const flat = (bs: Uint8Array[]): number[][] => bs.map((b) => Array.from(b));
    expect(flat(outputs[0])).toEqual(flat(interpret(module, [inputs[0]])));
    // The scrambled weights saturate every SVDF output (bias-dominated for any input), so
    // the history shows in the state: a fresh run of the same input reaches another one.
    for (const k of [1, 2]) {
      const fresh = createSession(module);
      fresh.invoke([inputs[k]]);
      const oneShot = [...fresh.state().values()].map((b) => Array.from(b));
      expect([...states[k].values()].map((b) => Array.from(b))).not.toEqual(oneShot);
    }
  });

  test('state shifts by one element per invocation (each filter keeps its history)', () => {
    const [key, first] = [...states[0]][0];
    const second = states[1].get(key)!;
    const type = module.functions.get('main')!.nodes.find((n) => `main/${n.name}` === key)!.type;
    const dtype = type.dtype;
    // TFLite Micro resets int8 state to its zero point, int16 state to 0.
    const initial = dtype === 'int8' ? (type.quant?.zeroPoint[0] ?? 0) : 0;
    const elems = (b: Uint8Array): number[] => Array.from(dtype === 'int16' ? new Int16Array(b.slice().buffer) : new Int8Array(b.slice().buffer));
    const s1 = elems(first);
    const s2 = elems(second);
    const memory = 8; // weights_time of the first SVDF is [64, 8]
    // From the reset value, one invocation fills only each filter's newest slot.
    s1.forEach((v, i) => {
      if (i % memory !== memory - 1) expect(v).toBe(initial);
    });
    expect(s1.some((v) => v !== initial)).toBe(true);
    // The next one moves it one slot older.
    for (let f = 0; f < s1.length / memory; f++) expect(s2[f * memory + memory - 2]).toBe(s1[f * memory + memory - 1]);
  });
});
