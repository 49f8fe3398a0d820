import { PoolConstraintError } from '../../src/errors';
import { Allocate, AllocateConst, ANN_CANDIDATE_POOLS, MAIN_PRIM_FUNC, Stmt, TirModule } from '../../src/ir/tir/nodes';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { PinningConstraints, NO_CONSTRAINTS } from '../../passes/poolPinning/constraints';
import { explainPools, formatExplanation } from '../../passes/poolPinning/explain';
import { runPoolPinning } from '../../passes/poolPinning/pass';
import { parsePins } from '../../passes/poolPinning/pinsFile';
import { ConstraintStep, solvePoolPinning, suggestFix } from '../../passes/poolPinning/solve';
import { OperandUse, TargetAccess, TracedBuffer } from '../../passes/poolPinning/traceOperands';
import { OperatorRecord } from '../../src/ir/tir/operators';
import { pool, seedModule, SEED_POOLS } from './seedModule';

const ACCEL_CONSTRAINTS: PinningConstraints = {
  operands: [
    { source: 'backend accel', op: 'accel.accel_input_fetcher', role: 'input', pools: ['l2_mem'] },
    { source: 'backend accel', op: 'accel.accel_input_fetcher', role: 'output', pools: ['act_mem'] },
    { source: 'backend accel', op: 'accel.accel_conv2d', role: 'input', index: 0, pools: ['act_mem'] },
    { source: 'backend accel', op: 'accel.accel_conv2d', role: 'output', pools: ['act_mem'] },
  ],
  tensors: [],
};

function candidates(m: TirModule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of m.functions) {
    postOrderVisit(f.body, (n) => {
      if (n.kind === 'Allocate' || n.kind === 'AllocateConst') {
        const s = n as Allocate | AllocateConst;
        out[`${name === MAIN_PRIM_FUNC ? 'main' : name}/${s.bufferVar.name}`] = s.annotations[ANN_CANDIDATE_POOLS];
      }
    });
  }
  return out;
}

describe('pool pinning on the seed network', () => {
  it('pins the fetcher input to l2_mem and every accelerator operand to act_mem, main included', () => {
    const { module } = runPoolPinning(seedModule(), SEED_POOLS, ACCEL_CONSTRAINTS);
    expect(candidates(module)).toEqual({
      'main/constant_0': ['wei_mem'],
      'main/sid_1': ['l2_mem'],
      'main/sid_3': ['act_mem'],
      'tvmgen_default_accel_main_0/input_fetcher': ['act_mem'],
    });
  });

  it('without operand constraints, target access alone keeps accel outputs out of CPU-only pools', () => {
    const { module } = runPoolPinning(seedModule(), SEED_POOLS, NO_CONSTRAINTS);
    const c = candidates(module);
    // sid_3 is written by the accelerator: l2_mem is read-only for it.
    expect(c['main/sid_3']).toEqual(['act_mem']);
    // sid_1 is only read by the accelerator, so both pools remain, in the user's order.
    expect(c['main/sid_1']).toEqual(['l2_mem', 'act_mem']);
  });

  it('orders candidates by the pins file preference', () => {
    const pins = parsePins(JSON.stringify({ poolPreference: ['act_mem'] }), 'p.json');
    const { module } = runPoolPinning(seedModule(), SEED_POOLS, pins);
    expect(candidates(module)['main/sid_1']).toEqual(['act_mem', 'l2_mem']);
  });

  it('reports an unsatisfiable constraint with the buffer, each constraint, its pools and a fix', () => {
    const pools = [pool('l2_mem', { c: 'rw' }), pool('act_mem', { c: 'rw', accel: 'rw' }), SEED_POOLS[2]];
    let err: unknown;
    try {
      runPoolPinning(seedModule(), pools, ACCEL_CONSTRAINTS);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PoolConstraintError);
    const msg = (err as Error).message;
    expect(msg).toContain("no memory pool satisfies every constraint on buffer 'sid_1' (256 bytes, allocated in __tvm_main__, tensor 'transposed')");
    expect(msg).toContain('read by tvmgen_default_accel_main_0 (target accel): allows {act_mem}');
    expect(msg).toContain("backend accel: input 0 of accel.accel_input_fetcher 'fetch' must be in {l2_mem}: allows {l2_mem}");
    expect(msg).toContain("fix: give target 'accel' read access to 'l2_mem' (pools config)");
  });

  it('suggests a copy operator when two operators disagree on one buffer', () => {
    const constraints: PinningConstraints = {
      operands: [
        ...ACCEL_CONSTRAINTS.operands,
        { source: 'backend accel', op: 'layout_transform', role: 'output', pools: ['act_mem'] },
      ],
      tensors: [],
    };
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, constraints)).toThrow(
      /fix: insert a copy operator between 'layout_transform' and accel.accel_input_fetcher 'fetch'/,
    );
  });

  it('rejects contradictory user pins, unknown pools and pins that match nothing', () => {
    const contradictory = parsePins(
      JSON.stringify({ pins: [{ tensor: 'conv_out', pools: ['act_mem'] }, { operator: 'strided_slice', operand: 'input:0', pools: ['l2_mem'] }] }),
      'pins.json',
    );
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, contradictory)).toThrow(
      /buffer 'sid_3'[\s\S]*pins pins.json #0: tensor 'conv_out' pinned to \{act_mem\}[\s\S]*pins pins.json #1: input 0 of 'strided_slice' must be in \{l2_mem\}/,
    );
    const unknown = parsePins(JSON.stringify({ pins: [{ tensor: 'conv_out', pools: ['sram'] }] }), 'pins.json');
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, unknown)).toThrow(
      "pins pins.json #0: unknown pool 'sram'; pools are: l2_mem, act_mem, wei_mem",
    );
    const nothing = parsePins(JSON.stringify({ pins: [{ tensor: 'no_such_tensor', pools: ['act_mem'] }] }), 'pins.json');
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, nothing)).toThrow(/matches no buffer/);
    // TFLite's name for an operator is not the program's: say which names it could use.
    const tflite = parsePins(JSON.stringify({ pins: [{ operator: 'STRIDED_SLICE', pools: ['act_mem'] }] }), 'pins.json');
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, tflite)).toThrow(
      /^pins pins.json #0: operator pin 'STRIDED_SLICE' \(every operand\) matches no operand of the program; did you mean 'strided_slice'\? \(operators here: [^)]*strided_slice[^)]*; or a node name\)$/,
    );
  });

  it('names what a pins file got wrong in the kind of pin it wrote (fuzzed: an empty operator was told it lacked a tensor)', () => {
    const parse = (pins: unknown) => () => parsePins(JSON.stringify({ pins }), 'pins.json');
    expect(parse([{ operator: '', pools: ['act_mem'] }])).toThrow('pins.json: /pins/0/operator: must NOT have fewer than 1 characters');
    expect(parse([{ tensor: 'x', pools: [] }])).toThrow('pins.json: /pins/0/pools: must NOT have fewer than 1 items');
    // An index rounded by the double it was read into is refused, not echoed as 1e20.
    expect(parse([{ operator: '*', operand: 'input:99999999999999999999', pools: ['act_mem'] }])).toThrow(
      "pins.json: /pins/0/operand: invalid operand 'input:99999999999999999999': expected input, output, scratch or any, optionally ':k' with an index k up to 2^53-1",
    );
  });

  it("rejects a backend constraint naming an operand its operator does not have, and accepts one whose operator is absent", () => {
    const beyond: PinningConstraints = {
      operands: [{ source: 'backend accel', op: 'accel.accel_conv2d', role: 'input', index: 7, pools: ['act_mem'] }],
      tensors: [],
    };
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, beyond)).toThrow(
      /^backend accel: operand constraint on 'accel\.accel_conv2d' names input 7, but accel\.accel_conv2d '[^']+' has \d inputs$/,
    );
    // The same index, declared optional (a bias an instance may lack): no error.
    const optional: PinningConstraints = { ...beyond, operands: [{ ...beyond.operands[0], optional: true }] };
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, optional)).not.toThrow();
    const absent: PinningConstraints = {
      operands: [{ source: 'backend accel', op: 'accel.accel_pool', role: 'input', index: 7, pools: ['act_mem'] }],
      tensors: [],
    };
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, absent)).not.toThrow();
  });

  it('rejects a pin to a pool the accessing target cannot reach', () => {
    const pins = parsePins(JSON.stringify({ pins: [{ tensor: 'conv_out', pools: ['l2_mem'] }] }), 'pins.json');
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, pins)).toThrow(
      /written by tvmgen_default_accel_main_0 \(target accel\): allows \{act_mem\}[\s\S]*fix: give target 'accel' read-write access to 'l2_mem' \(it has ro\) \(pools config\)/,
    );
  });

  it("names the pins file of a poolPreference with an unknown pool", () => {
    const pins = parsePins(JSON.stringify({ pins: [], poolPreference: ['act_mem', 'nosuch'] }), 'my-pins.json');
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, pins)).toThrow(/^pins my-pins\.json \/poolPreference: unknown pool 'nosuch'; pools are: /);
  });

  it('points at the JSON path of a broken pins file', () => {
    expect(() => parsePins(JSON.stringify({ pins: [{ tensor: 'x', pools: [] }] }), 'pins.json')).toThrow(/pins.json: \/pins\/0/);
    expect(() => parsePins('{"pins": [', 'pins.json')).toThrow(/pins.json: not valid JSON/);
    expect(() => parsePins(JSON.stringify({ pinz: [] }), 'pins.json')).toThrow('pins.json: /pinz: is not an allowed property');
  });

  it('explains which constraint removed each pool', () => {
    const { solution } = runPoolPinning(seedModule(), SEED_POOLS, ACCEL_CONSTRAINTS);
    const rows = explainPools(solution, SEED_POOLS);
    const sid3 = rows.find((r) => r.buffer === 'sid_3')!;
    expect(sid3.candidates).toEqual(['act_mem']);
    expect(sid3.removed).toEqual([
      { pool: 'l2_mem', by: 'written by tvmgen_default_accel_main_0 (target accel)' },
      { pool: 'wei_mem', by: 'workspace pools' },
    ]);
    const text = formatExplanation(rows, solution.external.map((b) => b.name));
    expect(text).toContain('__tvm_main__/sid_3 (tensor conv_out) 256 B: used by accel, c');
    expect(text).toContain('data: model I/O owned by the application (not planned)');
  });
});

describe('backend constraints naming pools the user did not define', () => {
  it('says which pool to define', () => {
    const constraints: PinningConstraints = {
      operands: [{ source: 'backend accel', op: 'accel.accel_conv2d', role: 'output', pools: ['act_mem'] }],
      tensors: [],
    };
    expect(() => runPoolPinning(seedModule(), [pool('sram', { c: 'rw', accel: 'rw' })], constraints)).toThrow(
      "backend accel: unknown pool 'act_mem'; pools are: sram (the backend's constraints name 'act_mem': define a pool with that name)",
    );
  });
});

describe('suggestFix', () => {
  const pools = [pool('a', { c: 'rw', npu: 'rw' }), pool('b', { c: 'rw', npu: 'ro' }), pool('c', { c: 'rw' })];
  const step = (kind: ConstraintStep['kind'], allowed: string[], extra: Partial<ConstraintStep> = {}): ConstraintStep => ({
    kind,
    description: `${kind} ${allowed.join('/')}`,
    allowed,
    ...extra,
  });

  it('never suggests access a target already has, and names what is missing', () => {
    const steps = [step('target-access', ['a'], { target: 'npu', needs: 'rw' }), step('pin', ['b'])];
    expect(suggestFix(steps, pools)).toBe("give target 'npu' read-write access to 'b' (it has ro) (pools config)");
  });

  it('looks past the first conflicting pair: access would not help when two pins disagree', () => {
    // The first disjoint pair is (access, pin b), but granting access to b leaves pin c unmet.
    const steps = [step('target-access', ['a'], { target: 'npu', needs: 'ro' }), step('pin', ['b']), step('operand', ['c'])];
    expect(suggestFix(steps, pools)).toBe('remove one of the contradictory constraints ("pin b" / "operand c")');
  });

  it('blames a backend constraint, not a pin, when it names only pools of the wrong kind', () => {
    const kinds = [pool('act', { c: 'rw', npu: 'rw' }), pool('wei', { c: 'ro', npu: 'ro' }, 'constant')];
    const steps = [step('pool-kind', ['act'], { description: 'workspace pools' }), step('operand', ['wei'], { description: 'input 0 of npu.fc must be in {wei}' })];
    expect(suggestFix(steps, kinds)).toBe('"input 0 of npu.fc must be in {wei}" allows only pools of the wrong kind (\'wei\' is a constant pool; this buffer needs workspace pools)');
    expect(suggestFix([steps[0], step('pin', ['wei'])], kinds)).toBe("pin this buffer to a pool of the right kind ('wei' is a constant pool)");
  });

  it('grants every target that lacks access, when only access excludes a pool', () => {
    const steps = [
      step('target-access', ['a'], { target: 'npu', needs: 'ro' }),
      step('target-access', ['a', 'b'], { target: 'dsp', needs: 'rw' }),
      step('pin', ['c']),
    ];
    expect(suggestFix(steps, pools)).toBe("give target 'npu' read access to 'c' and target 'dsp' read-write access to 'c' (pools config)");
  });
});


describe('pool pinning of a buffer shared along a long chain', () => {
  // Regression: a chain of in-place operators keeps one buffer (compiling 10,000 chained RELUs:
  // 10,000 accesses and 20,000 operands of sid_1), and every access filtered all of its
  // operands, after every buffer had filtered all accesses and operands: 18 s of the compile.
  it('20,000 functions reading and writing one buffer are solved in well under a second', () => {
    const buffer: TracedBuffer = { key: '__tvm_main__/1', name: 'sid_1', func: '__tvm_main__', origin: 'allocate', varId: 1, sizeBytes: 16 };
    const n = 20000;
    const accesses: TargetAccess[] = [];
    const operands: OperandUse[] = [];
    for (let i = 0; i < n; i++) {
      const func = `relu_${i}`;
      accesses.push({ buffer, func, target: 'c' });
      const operator = { name: `t${i}`, op: 'relu' } as OperatorRecord;
      operands.push({ buffer, func, target: 'c', operator, role: 'input', index: 0 }, { buffer, func, target: 'c', operator, role: 'output', index: 0 });
    }
    const t0 = Date.now();
    const solution = solvePoolPinning({ buffers: [buffer], accesses, operands }, [pool('ws', { c: 'rw' }), pool('ro', { c: 'ro' })], NO_CONSTRAINTS);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(solution.decisions).toHaveLength(1);
    // Written by every function: the read-only pool is out.
    expect(solution.decisions[0].candidates).toEqual(['ws']);
    expect(solution.decisions[0].steps).toHaveLength(1 + n);
  });
});
