import { PoolConstraintError } from '../../src/errors';
import { Allocate, AllocateConst, ANN_CANDIDATE_POOLS, MAIN_PRIM_FUNC, TirModule } from '../../src/ir/tir/nodes';
import { readOperatorRecords } from '../../src/ir/tir/operators';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { ArgValue, runPrimFunc } from '../../src/ir/tir/eval';
import { PinningConstraints } from '../../passes/poolPinning/constraints';
import { formatInsertedCopy, insertCopiesForPinning } from '../../passes/poolPinning/insertCopies';
import { runPoolPinning } from '../../passes/poolPinning/pass';
import { parsePins } from '../../passes/poolPinning/pinsFile';
import { pool, seedModule, SEED_POOLS } from './seedModule';
import { errorOf } from '../helpers/errorOf';

const ACCEL: PinningConstraints['operands'] = [
  { source: 'backend accel', op: 'accel.accel_input_fetcher', role: 'input', pools: ['l2_mem'] },
  { source: 'backend accel', op: 'accel.accel_input_fetcher', role: 'output', pools: ['act_mem'] },
  { source: 'backend accel', op: 'accel.accel_conv2d', role: 'input', index: 0, pools: ['act_mem'] },
  { source: 'backend accel', op: 'accel.accel_conv2d', role: 'output', pools: ['act_mem'] },
];

/** The seed's constraints plus operators that want the fetcher input / the conv output elsewhere. */
function conflicting(...extra: PinningConstraints['operands']): PinningConstraints {
  return { operands: [...ACCEL, ...extra], tensors: [] };
}

// layout_transform (CPU) writes sid_1 and must put it in act_mem; the fetcher reads it from l2_mem only.
const PRODUCER_WANTS_ACT = conflicting({ source: 'pins p.json #0', op: 'layout_transform', role: 'output', pools: ['act_mem'] });
// The accelerator writes sid_3 in act_mem; strided_slice (CPU) reads it from l2_mem only.
const CONSUMER_WANTS_L2 = conflicting({ source: 'pins p.json #1', op: 'strided_slice', role: 'input', pools: ['l2_mem'] });

/** Main's calls in program order: callee and argument names. */
function mainCalls(m: TirModule): { callee: string; args: string[] }[] {
  const calls: { callee: string; args: string[] }[] = [];
  postOrderVisit(m.functions.get(MAIN_PRIM_FUNC)!.body, (n) => {
    if (n.kind !== 'Call' || n.op !== 'tir.call_extern') return;
    const [name, ...args] = n.args;
    calls.push({
      callee: name.kind === 'StringImm' ? name.value : '?',
      args: args.map((a) => (a.kind === 'Var' ? a.name : '?')),
    });
  });
  return calls;
}

function candidates(m: TirModule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  postOrderVisit(m.functions.get(MAIN_PRIM_FUNC)!.body, (n) => {
    if (n.kind === 'Allocate' || n.kind === 'AllocateConst') {
      const s = n as Allocate | AllocateConst;
      out[s.bufferVar.name] = s.annotations[ANN_CANDIDATE_POOLS];
    }
  });
  return out;
}

describe('insertCopiesForPinning', () => {
  it('leaves a satisfiable program untouched', () => {
    const m = seedModule();
    const { module, inserted } = insertCopiesForPinning(m, SEED_POOLS, conflicting());
    expect(inserted).toEqual([]);
    expect(module).toBe(m);
  });

  it('without copies the producer/consumer conflict is an error; with one the program pins', () => {
    expect(() => runPoolPinning(seedModule(), SEED_POOLS, PRODUCER_WANTS_ACT)).toThrow(PoolConstraintError);

    const { module, inserted } = insertCopiesForPinning(seedModule(), SEED_POOLS, PRODUCER_WANTS_ACT);
    expect(inserted).toEqual([
      {
        buffer: 'sid_1',
        tensor: 'transposed',
        copy: 'sid_1_copy',
        func: 'tvmgen_default_copy_0',
        from: ['act_mem'],
        to: ['l2_mem'],
        producer: 'tvmgen_default_fused_layout_transform',
        consumers: ['tvmgen_default_accel_main_0'],
      },
    ]);
    // The copy runs right after the producer; the accelerator reads the copy.
    expect(mainCalls(module)).toEqual([
      { callee: 'tvmgen_default_fused_layout_transform', args: ['data', 'sid_1'] },
      { callee: 'tvmgen_default_copy_0', args: ['sid_1', 'sid_1_copy'] },
      { callee: 'tvmgen_default_accel_main_0', args: ['sid_1_copy', 'constant_0', 'sid_3'] },
      { callee: 'tvmgen_default_fused_strided_slice', args: ['sid_3', 'output'] },
    ]);
    const pinned = runPoolPinning(module, SEED_POOLS, PRODUCER_WANTS_ACT).module;
    expect(candidates(pinned)).toMatchObject({ sid_1: ['act_mem'], sid_1_copy: ['l2_mem'], sid_3: ['act_mem'] });
  });

  it('builds the copy as a host byte-copy function with a copy operator record', () => {
    const { module } = insertCopiesForPinning(seedModule(64), SEED_POOLS, PRODUCER_WANTS_ACT);
    const f = module.functions.get('tvmgen_default_copy_0')!;
    expect(f.attrs.target).toBe('c');
    expect(f.params.map((p) => p.name)).toEqual(['src', 'dst']);
    expect(readOperatorRecords(f)).toEqual([
      { name: 'transposed_copy', op: 'copy', target: 'c', inputs: ['src'], outputs: ['dst'], scratch: [] },
    ]);
    expect(f.body.kind).toBe('For');
    expect(f.body.kind === 'For' && f.body.extent.kind === 'IntImm' && f.body.extent.value).toBe(64);
  });

  it('copies an accelerator output for a CPU reader that wants another pool', () => {
    const { module, inserted } = insertCopiesForPinning(seedModule(), SEED_POOLS, CONSUMER_WANTS_L2);
    expect(inserted.map((c) => [c.buffer, c.copy, c.from, c.to, c.producer, c.consumers])).toEqual([
      ['sid_3', 'sid_3_copy', ['act_mem'], ['l2_mem'], 'tvmgen_default_accel_main_0', ['tvmgen_default_fused_strided_slice']],
    ]);
    expect(mainCalls(module).map((c) => c.callee)).toEqual([
      'tvmgen_default_fused_layout_transform',
      'tvmgen_default_accel_main_0',
      'tvmgen_default_copy_0',
      'tvmgen_default_fused_strided_slice',
    ]);
    expect(mainCalls(module)[3].args).toEqual(['sid_3_copy', 'output']);
    expect(formatInsertedCopy(inserted[0])).toBe(
      'inserted tvmgen_default_copy_0: copies sid_3 (tensor conv_out) {act_mem} written by tvmgen_default_accel_main_0 ' +
        'into sid_3_copy {l2_mem} read by tvmgen_default_fused_strided_slice',
    );
  });

  it('repeats until every conflict is resolved, naming copies after the module', () => {
    const both = conflicting(PRODUCER_WANTS_ACT.operands[4], CONSUMER_WANTS_L2.operands[4]);
    const { module, inserted } = insertCopiesForPinning(seedModule(), SEED_POOLS, both, { moduleName: 'net' });
    expect(inserted.map((c) => `${c.func}:${c.buffer}->${c.copy}`)).toEqual([
      'tvmgen_net_copy_0:sid_1->sid_1_copy',
      'tvmgen_net_copy_1:sid_3->sid_3_copy',
    ]);
    expect(() => runPoolPinning(module, SEED_POOLS, both)).not.toThrow();
  });

  it('runs the same numbers: the copied program computes what the original computes', () => {
    const n = 32;
    const data = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 5) & 0xff);
    const run = (m: TirModule): Uint8Array => {
      const output = new Uint8Array(n);
      runPrimFunc(m, MAIN_PRIM_FUNC, [data, output], {
        // The seed's accelerator kernels as plain byte moves are enough to follow the data.
        externs: new Map([
          ['accel_input_fetcher', (args: readonly ArgValue[]) => copyBytes(args[0], args[1], n)],
          ['accel_conv2d', (args: readonly ArgValue[]) => copyBytes(args[0], args[2], n)],
        ]),
      });
      return output;
    };
    const { module } = insertCopiesForPinning(seedModule(n), SEED_POOLS, conflicting(PRODUCER_WANTS_ACT.operands[4], CONSUMER_WANTS_L2.operands[4]));
    expect(Array.from(run(module))).toEqual(Array.from(data));
    expect(Array.from(run(seedModule(n)))).toEqual(Array.from(data));
  });

  it('says why no copy helps when the host cannot reach the writer\'s pool', () => {
    // The CPU cannot touch act_mem at all: it can neither read sid_3 nor copy it out.
    const pools = [pool('l2_mem', { c: 'rw', accel: 'ro' }), pool('act_mem', { accel: 'rw' }), SEED_POOLS[2]];
    const msg = errorOf(() => insertCopiesForPinning(seedModule(), pools, conflicting())).message;
    expect(msg).toContain("no memory pool satisfies every constraint on buffer 'sid_3'");
    expect(msg).toContain('no copy inserted: the host CPU (target c) cannot read any pool its writer allows {act_mem}');
  });

  it('keeps the original error when the conflict is not between two calls of main', () => {
    const pins = parsePins(JSON.stringify({ pins: [{ tensor: 'input_fetcher', pools: ['l2_mem'] }] }), 'p.json');
    const err = errorOf(() => insertCopiesForPinning(seedModule(), SEED_POOLS, { ...pins, operands: ACCEL }));
    expect(err).toBeInstanceOf(PoolConstraintError);
    expect(err.message).toContain("constraint on buffer 'input_fetcher'");
    expect(err.message).toContain('no copy inserted: only buffers allocated in __tvm_main__ can be split');

    // A pin on the whole tensor binds the writer itself: a copy cannot change that.
    const self = parsePins(JSON.stringify({ pins: [{ tensor: 'conv_out', pools: ['l2_mem'] }] }), 'p.json');
    expect(errorOf(() => insertCopiesForPinning(seedModule(), SEED_POOLS, { ...self, operands: ACCEL })).message).toContain(
      'no copy inserted: the constraints of its writer tvmgen_default_accel_main_0 alone exclude every pool',
    );
  });
});

function copyBytes(src: unknown, dst: unknown, n: number): number {
  const s = src as { mem: Uint8Array; byteOffset: number };
  const d = dst as { mem: Uint8Array; byteOffset: number };
  d.mem.set(s.mem.subarray(s.byteOffset, s.byteOffset + n), d.byteOffset);
  return 0;
}
