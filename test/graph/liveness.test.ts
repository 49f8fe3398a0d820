import { join } from 'path';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { FunctionBuilder, tensorType as tt } from '../../src/ir/graph/builder';
import { activationLiveness, tensorLowerBound } from '../../src/ir/graph/liveness';
import { GraphFunction } from '../../src/ir/graph/types';

describe('activationLiveness', () => {
  it('a chain keeps only producer and consumer live', () => {
    // x(100 B) -> a(200 B) -> b(50 B) -> c(10 B, output); the 1000 B weight is not an activation.
    const b = new FunctionBuilder();
    b.param('x', tt([100], 'int8'));
    b.constant('w', tt([1000], 'int8'));
    b.call('a', 'reshape', ['x'], tt([200], 'int8'));
    b.call('b', 'reshape', ['a'], tt([50], 'int8'));
    b.call('c', 'reshape', ['b'], tt([10], 'int8'));
    const r = activationLiveness(b.build(['c']));
    expect(r.steps.map((s) => s.liveBytes)).toEqual([300, 250, 60]);
    expect(r.maxLiveBytes).toBe(300);
    expect(r.peakStep).toBe(0);
    expect(r.steps[0].live).toEqual(['x', 'a']);
    expect(r.intervals.find((i) => i.name === 'w')).toBeUndefined();
  });

  it('a skip connection keeps the early tensor live until its last use; outputs live to the end', () => {
    // s0: a = f(x); s1: b = f(a); s2: c = add(a, b); s3: d = f(c); outputs [b, d].
    const b = new FunctionBuilder();
    b.param('x', tt([4], 'int32')); // 16 B
    b.call('a', 'reshape', ['x'], tt([4], 'int32')); // 16 B
    b.call('b', 'reshape', ['a'], tt([2, 2], 'int32')); // 16 B
    b.call('c', 'add', ['a', 'a'], tt([4], 'int32')); // 16 B
    b.call('d', 'reshape', ['c'], tt([8], 'int8')); // 8 B
    const r = activationLiveness(b.build(['b', 'd']));
    const byName = new Map(r.intervals.map((i) => [i.name, i]));
    expect(byName.get('x')).toEqual({ name: 'x', bytes: 16, start: 0, end: 0 });
    expect(byName.get('a')).toMatchObject({ start: 0, end: 2 });
    expect(byName.get('b')).toMatchObject({ start: 1, end: 3 }); // output: to the last step
    expect(byName.get('d')).toMatchObject({ start: 3, end: 3 });
    // s0: x+a = 32; s1: a+b = 32; s2: a+b+c = 48; s3: b+c+d = 40.
    expect(r.steps.map((s) => s.liveBytes)).toEqual([32, 32, 48, 40]);
    expect(r.maxLiveBytes).toBe(48);
    expect(r.peakStep).toBe(2);
  });

  it('an unused param still occupies step 0', () => {
    const b = new FunctionBuilder();
    b.param('x', tt([10], 'int8'));
    b.param('unused', tt([7], 'int8'));
    b.call('y', 'reshape', ['x'], tt([10], 'int8'));
    expect(activationLiveness(b.build(['y'])).maxLiveBytes).toBe(27);
  });

  it('hello_world_int8: the peak is the two 16-byte hidden layers', () => {
    const fn = loadTfliteFile(join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite')).functions.get('main')!;
    const r = activationLiveness(fn);
    // input 1 B, hidden [1,16] int8 twice, output 1 B: steps 1+16, 16+16, 16+1.
    expect(r.steps.map((s) => s.liveBytes)).toEqual([17, 32, 17]);
    expect(r.maxLiveBytes).toBe(32);
  });

  it("a resource variable's ordering-only argument is no use: a read dies at its last data consumer", () => {
    // s0: r = read_variable(v); s1: a = reshape(r); s2: b = reshape(a); s3: assign_variable(v, b, after = r).
    const v = tt([64], 'int8');
    const fn: GraphFunction = {
      name: 'main',
      params: [],
      nodes: [
        { kind: 'constant', name: 'v', type: v, data: new Uint8Array(64), variable: true },
        { kind: 'call', name: 'r', callee: { kind: 'op', op: 'read_variable' }, args: ['v'], attrs: {}, type: v },
        { kind: 'call', name: 'a', callee: { kind: 'op', op: 'reshape' }, args: ['r'], attrs: {}, type: tt([8, 8], 'int8') },
        { kind: 'call', name: 'b', callee: { kind: 'op', op: 'reshape' }, args: ['a'], attrs: {}, type: v },
        { kind: 'call', name: 'v_assign', callee: { kind: 'op', op: 'assign_variable' }, args: ['v', 'b', 'r'], attrs: {}, type: v },
      ],
      outputs: [],
      attrs: {},
    };
    const r = activationLiveness(fn);
    expect(r.intervals.find((i) => i.name === 'r')).toMatchObject({ start: 0, end: 1 });
    // s0: r; s1: r + a; s2: a + b; s3: b (the assignment is the variable, no activation).
    expect(r.steps.map((s) => s.liveBytes)).toEqual([64, 128, 128, 64]);
  });
});

describe('tensorLowerBound', () => {
  // x(100 B, input) -> a(200 B) -> b(50 B) -> c(10 B, output)
  function chain() {
    const b = new FunctionBuilder();
    b.param('x', tt([100], 'int8'));
    b.call('a', 'reshape', ['x'], tt([200], 'int8'));
    b.call('b', 'reshape', ['a'], tt([50], 'int8'));
    b.call('c', 'reshape', ['b'], tt([10], 'int8'));
    return b.build(['c']);
  }

  it('counts every tensor aligned to 16 (TFLite Micro arena), model I/O only when asked', () => {
    // With I/O: a: 112 + 208 = 320; b: 208 + 64 = 272; c: 64 + 16 = 80.
    expect(tensorLowerBound(chain(), { includeIo: true })).toEqual({ bytes: 320, operator: 'a', ioCounted: true, alignment: 16 });
    // Without: a: 208; b: 208 + 64 = 272; c: 64.
    expect(tensorLowerBound(chain(), { includeIo: false })).toEqual({ bytes: 272, operator: 'b', ioCounted: false, alignment: 16 });
    expect(tensorLowerBound(chain(), { includeIo: true, alignment: 1 }).bytes).toBe(300);
  });

  it('person_detect: 55,296 bytes with I/O, the TFLite Micro arena of the model', () => {
    const fn = loadTfliteFile(join(__dirname, '..', '..', 'models', 'person_detect.tflite')).functions.get('main')!;
    expect(tensorLowerBound(fn, { includeIo: true }).bytes).toBe(55296);
  });
});

describe('liveness of long operator chains', () => {
  // Regression: every step filtered every interval, so `uma-ts inspect` of a chain of 10,000
  // RELUs (an 840 KB model) took 10 s in liveness alone, 40,000 took 53 s.
  it('30,000 chained calls: per-step live sets and the bound in well under a second each', () => {
    const n = 30000;
    const b = new FunctionBuilder();
    b.param('t0', tt([4], 'int8'));
    for (let i = 1; i <= n; i++) b.call(`t${i}`, 'reshape', [`t${i - 1}`], tt([4], 'int8'));
    const fn = b.build([`t${n}`]);
    let t0 = Date.now();
    const r = activationLiveness(fn);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.steps).toHaveLength(n);
    expect(r.steps[0].live).toEqual(['t0', 't1']);
    expect(r.steps[n - 1].live).toEqual([`t${n - 1}`, `t${n}`]);
    expect(r.maxLiveBytes).toBe(8);
    t0 = Date.now();
    const bound = tensorLowerBound(fn, { includeIo: true });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(bound).toEqual({ bytes: 32, operator: 't1', ioCounted: true, alignment: 16 });
    expect(tensorLowerBound(fn, { includeIo: false }).bytes).toBe(32);
  });

  // Regression: every step listed every tensor live there, so 5,000 inputs each with an output
  // live to the end (a 700 KB model) made 25M names: \`uma-ts inspect\` took 16 s and 1.8 GB.
  it('8,000 outputs live to the end: live bytes per step at once, names listed only when asked', () => {
    const n = 8000;
    const b = new FunctionBuilder();
    for (let i = 0; i < n; i++) b.param(`x${i}`, tt([4], 'int8'));
    for (let i = 0; i < n; i++) b.call(`y${i}`, 'reshape', [`x${i}`], tt([4], 'int8'));
    const t0 = Date.now();
    const r = activationLiveness(b.build(Array.from({ length: n }, (_, i) => `y${i}`)));
    expect(r.steps.map((s) => s.liveBytes).reduce((a, x) => Math.max(a, x), 0)).toBe(r.maxLiveBytes);
    expect(Date.now() - t0).toBeLessThan(2000);
    // Every param lives at step 0 (params start there), each output from its step to the end.
    expect(r.steps[0].liveBytes).toBe(4 * n + 4);
    expect(r.steps[n - 1].liveBytes).toBe(4 * n + 4);
    expect(r.steps[n - 1].live).toHaveLength(n + 1);
    expect(r.steps[n - 1].live.slice(0, 2)).toEqual([`x${n - 1}`, 'y0']);
  });
});
