/**
 * The acceptance on a real model: person_detect partitioned for `accel` with the
 * backend's bundled pools. With act_mem too small for the accelerator's tensors the
 * compilation fails naming the buffer (API and CLI, nothing written); with act_mem large
 * enough every accelerator operand sits in act_mem (the fetcher inputs in l2_mem, where the
 * backend pins them), weights in wei_mem, and CPU-only tensors in the user's first pool.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { compileModel, CompileResult } from '../../src/driver/compile';
import { MemoryPlanningError, PoolConstraintError } from '../../src/errors';
import { parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { traceOperands } from '../../passes/poolPinning/traceOperands';

const MODEL = 'models/person_detect.tflite';
const POOLS_FILE = 'backends/accel/pools.json';
const FETCHER = 'accel.accel_input_fetcher';

function accelPools(actMemLimit?: number): PoolInfo[] {
  return parsePoolsJson(fs.readFileSync(POOLS_FILE, 'utf8'), POOLS_FILE).map((p) =>
    p.name === 'act_mem' && actMemLimit !== undefined ? { ...p, sizeHintBytes: actMemLimit } : p,
  );
}

function compile(actMemLimit?: number): CompileResult {
  const registry = new BackendRegistry();
  registry.register(AccelBackend);
  return compileModel(MODEL, { backend: 'accel', registry, pools: accelPools(actMemLimit) });
}

/** What the accelerator's operators read and write, from the operator records of the lowered TIR. */
function accelOperands(result: CompileResult): Map<string, { fetcherInputOnly: boolean }> {
  const byKey = new Map<string, { fetcherInputOnly: boolean }>();
  for (const use of traceOperands(result.tir).operands) {
    if (use.target !== 'accel') continue;
    const fetcherInput = use.operator.composite === FETCHER && use.role === 'input';
    const seen = byKey.get(use.buffer.key);
    byKey.set(use.buffer.key, { fetcherInputOnly: (seen?.fetcherInputOnly ?? true) && fetcherInput });
  }
  return byKey;
}

describe('person_detect on accel: pool pinning on a real model', () => {
  const LARGE = 64 * 1024;
  let result: CompileResult;
  beforeAll(() => {
    result = compile(LARGE);
  });

  it('with act_mem large enough, every accelerator operand is in act_mem (fetcher inputs in l2_mem)', () => {
    const operands = accelOperands(result);
    const placed = (key: string) => result.access.placement.get(key);
    let actMem = 0;
    let fetcherInputs = 0;
    for (const [key, { fetcherInputOnly }] of operands) {
      const decision = result.pinning!.decisions.find((d) => d.buffer.key === key)!;
      if (decision.buffer.origin === 'constant') {
        expect([key, placed(key)]).toEqual([key, 'wei_mem']);
      } else if (fetcherInputOnly) {
        fetcherInputs++;
        expect([key, placed(key)]).toEqual([key, 'l2_mem']);
      } else {
        actMem++;
        expect([key, placed(key)]).toEqual([key, 'act_mem']);
      }
    }
    // person_detect offloads 13 pointwise convolutions: each has a fetcher input, a fetched
    // tensor, a line buffer and an output at least.
    expect(fetcherInputs).toBeGreaterThanOrEqual(13);
    expect(actMem).toBeGreaterThanOrEqual(3 * 13);
    const act = result.usmp.pools.find((p) => p.pool.name === 'act_mem')!;
    expect(act.sizeBytes).toBeLessThanOrEqual(LARGE);
    expect(result.access.violations).toEqual([]);
    expect(result.access.misplaced).toEqual([]);
  });

  it('puts weights in wei_mem and buffers the accelerator never touches in the pools the CPU reaches, l2_mem first', () => {
    const accelKeys = new Set(
      result.pinning!.decisions.filter((d) => d.targets.includes('accel')).map((d) => d.buffer.key),
    );
    let hostOnly = 0;
    let inL2 = 0;
    for (const d of result.pinning!.decisions) {
      const pool = result.access.placement.get(d.buffer.key);
      if (d.buffer.origin === 'constant') {
        expect([d.buffer.name, pool]).toEqual([d.buffer.name, 'wei_mem']);
      } else if (!accelKeys.has(d.buffer.key)) {
        hostOnly++;
        // l2_mem is the user's first workspace pool in backends/accel/pools.json; act_mem, which
        // the CPU reaches too, takes a CPU-only buffer where it has room at the time and that
        // makes the workspace smaller.
        expect([d.buffer.name, ['l2_mem', 'act_mem'].includes(pool!)]).toEqual([d.buffer.name, true]);
        if (pool === 'l2_mem') inL2++;
      }
    }
    expect(inL2).toBeGreaterThan(0);
    // Such a move is only taken for bytes: the plan is at its bound (l2_mem 18432 bytes, where
    // keeping every CPU-only buffer there took 36864).
    expect(result.report.optimality.provenOptimal).toBe(true);
    // The CPU-only tail (depthwise layers read their inputs in place, no padded copies).
    expect(hostOnly).toBeGreaterThanOrEqual(2);
    // The report agrees: what the accelerator's own functions allocate (fetched tensors, line
    // buffers) is in act_mem, their requantization tables in wei_mem.
    const insideAccel = result.report.buffers.filter((b) => b.func?.startsWith('accel_main_') === true);
    expect(insideAccel.length).toBeGreaterThanOrEqual(2 * 13);
    for (const b of insideAccel) {
      const table = b.name.endsWith('_multiplier') || b.name.endsWith('_shift');
      expect([b.name, b.pool]).toEqual([b.name, table ? 'wei_mem' : 'act_mem']);
    }
  });

  it('with act_mem too small for the accelerator tensors, fails naming the buffer, its size and the pool limit', () => {
    const limit = 16 * 1024;
    let err: unknown;
    try {
      compile(limit);
    } catch (e) {
      err = e;
    }
    expect(err instanceof MemoryPlanningError || err instanceof PoolConstraintError).toBe(true);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    const m = /^the space available in the provided pools exceeded when trying to allocate the buffer: (\S+) \(/.exec(message);
    expect(m).not.toBeNull();
    // The named buffer is one the accelerator needs in act_mem, and it is there when act_mem is large.
    const named = result.pinning!.decisions.find((d) => d.buffer.name === m![1])!;
    expect(named.candidates).toEqual(['act_mem']);
    expect(named.targets).toContain('accel');
    expect(message).toContain(`${m![1]} (${named.buffer.sizeBytes} bytes, `);
    expect(message).toMatch(new RegExp(`allowed pools: act_mem \\(limit ${limit} bytes, the plan needs \\d+\\)`));
    // Why the accelerator's buffer cannot go elsewhere: the accelerator cannot write l2_mem.
    expect(message).toMatch(/excluded: l2_mem \(written by \S+ \(target accel\)\)/);
  });

  it('through the CLI: exit 1, the error on stderr, no output directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-real-model-'));
    try {
      const poolsFile = path.join(dir, 'pools.json');
      const doc = JSON.parse(fs.readFileSync(POOLS_FILE, 'utf8'));
      doc.workspacePools.find((p: { name: string }) => p.name === 'act_mem').sizeHintBytes = 4096;
      fs.writeFileSync(poolsFile, JSON.stringify(doc));
      const out = path.join(dir, 'pd');
      const io = memoryIO();
      const code = await main(['node', 'uma-ts', 'compile', MODEL, '--backend', 'accel', '--pools', poolsFile, '--out', out], io);
      expect(code).toBe(1);
      expect(io.stderr.join('\n')).toMatch(
        /error: the space available in the provided pools exceeded when trying to allocate the buffer: \S+ \(\d+ bytes, .*\); allowed pools: act_mem \(limit 4096 bytes, the plan needs \d+\)/,
      );
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.readdirSync(dir)).toEqual(['pools.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('through the CLI with --insert-copies: a pin against the accelerator output gets a copy, JSON stays JSON', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-real-model-'));
    try {
      const pins = path.join(dir, 'pins.json');
      fs.writeFileSync(pins, JSON.stringify({ pins: [{ operator: '*Conv2d_2_depthwise*', operand: 'input:0', pools: ['l2_mem'] }] }));
      const common = [MODEL, '--backend', 'accel', '--pins', pins, '--insert-copies'];
      const explain = memoryIO();
      expect(await main(['node', 'uma-ts', 'explain-pools', ...common, '--json'], explain)).toBe(0);
      const doc = JSON.parse(explain.stdout.join('\n'));
      expect(doc.insertedCopies).toHaveLength(1);
      const copy = doc.insertedCopies[0];
      expect([copy.from, copy.to, copy.consumers]).toEqual([['act_mem'], ['l2_mem'], ['tvmgen_default_fused_depthwise_conv2d_2']]);
      const rows = doc.buffers.filter((b: { buffer: string }) => b.buffer === copy.buffer || b.buffer === copy.copy);
      expect(rows.map((r: { candidates: string[] }) => r.candidates)).toEqual([['act_mem'], ['l2_mem']]);

      const compile = memoryIO();
      expect(await main(['node', 'uma-ts', 'compile', ...common, '--json', '--out', path.join(dir, 'pd')], compile)).toBe(0);
      expect(() => JSON.parse(compile.stdout.join('\n'))).not.toThrow();
      expect(compile.stderr.filter((l) => l.startsWith('inserted '))).toEqual([
        expect.stringContaining(`inserted ${copy.func}: copies ${copy.buffer}`),
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
