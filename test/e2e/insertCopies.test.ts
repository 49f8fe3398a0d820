/**
 * A program made satisfiable by inserted copies runs correctly: the seed network on `accel`
 * with pins that contradict the backend's operand constraints on both sides of the
 * accelerator (the CPU must write its input to act_mem, the CPU must read its output from
 * l2_mem) fails without copies; with `insertCopies` it compiles, builds with gcc, runs under
 * the accelerator simulator (which traps on any illegal pool access) and matches the
 * interpreter byte for byte.
 */
import * as fs from 'fs';
import { AccelBackend, buildSeedNetwork } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { PoolConstraintError } from '../../src/errors';
import { interpret } from '../../src/interpreter';
import { DTYPE_BYTES } from '../../src/ir/graph/types';
import { MAIN_PRIM_FUNC } from '../../src/ir/tir/nodes';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { parsePins } from '../../passes/poolPinning/pinsFile';
import { expectRunsByteExact, fixedInput } from './harness';

const POOLS_FILE = 'backends/accel/pools.json';
const pools = (): PoolInfo[] =>
  parsePoolsJson(fs.readFileSync(POOLS_FILE, 'utf8'), POOLS_FILE).map((p) => ({ ...p, internal: false }));


// The backend wants the fetcher's input in l2_mem and the conv's output in act_mem.
const CONFLICTING_PINS = parsePins(
  JSON.stringify({
    pins: [
      { operator: 'transposed', operand: 'output', pools: ['act_mem'] },
      { operator: 'conv_out', operand: 'input', pools: ['l2_mem'] },
    ],
  }),
  'conflicting.json',
);

describe('inserted copies end to end (accel seed network)', () => {
  const registry = new BackendRegistry();
  registry.register(AccelBackend);
  const graph = buildSeedNetwork();
  const main = graph.functions.get('main')!;
  const input = main.params.map((p, i) => {
    const t = main.nodes.find((n) => n.name === p)!.type;
    return fixedInput(t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype], 5 + i);
  });
  const expected = interpret(graph, input);

  it('without copies the pins are unsatisfiable and the error points at --insert-copies', () => {
    let err: unknown;
    try {
      compileModel(graph, { backend: 'accel', registry, pools: pools(), pins: CONFLICTING_PINS });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PoolConstraintError);
    expect((err as Error).message).toMatch(/fix: insert a copy operator between/);
    expect((err as Error).message).toMatch(/hint: --insert-copies .* makes this satisfiable by inserting:\n {4}tvmgen_default_copy_0: copies sid_\d+ \(tensor transposed\)/);
  });

  it('with copies it compiles, every access is legal, and the program is byte-exact', () => {
    const result = compileModel(graph, {
      backend: 'accel',
      registry,
      pools: pools(),
      pins: CONFLICTING_PINS,
      insertCopies: true,
    });
    const copies = result.insertedCopies ?? [];
    expect(copies.map((c) => [c.tensor, c.from, c.to])).toEqual([
      ['transposed', ['act_mem'], ['l2_mem']],
      ['conv', ['act_mem'], ['l2_mem']],
    ]);
    // The copy functions are host code in the planned program, called from main.
    const called = new Set<string>();
    postOrderVisit(result.usmp.module.functions.get(MAIN_PRIM_FUNC)!.body, (n) => {
      if (n.kind === 'Call' && n.op === 'tir.call_extern' && n.args[0].kind === 'StringImm') called.add(n.args[0].value);
    });
    for (const c of copies) {
      expect(called.has(c.func)).toBe(true);
      expect(result.usmp.module.functions.get(c.func)?.attrs.target).toBe('c');
    }
    const placed = (name: string) =>
      result.access.placement.get(result.pinning!.decisions.find((d) => d.buffer.func === MAIN_PRIM_FUNC && d.buffer.name === name)!.buffer.key);
    for (const c of copies) expect([c.buffer, placed(c.buffer), c.copy, placed(c.copy)]).toEqual([c.buffer, 'act_mem', c.copy, 'l2_mem']);
    expect(result.access.violations).toEqual([]);

    expectRunsByteExact(result, input, expected);
  });
});
