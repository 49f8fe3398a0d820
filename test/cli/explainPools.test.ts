import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { explainModelPools } from '../../src/cli/explainPools';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const UMA_BACKEND = path.join(ROOT, 'src', 'backend', 'umaBackend');

/** The lines of one buffer's block: its header and the indented lines below it. */
function block(text: string, buffer: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`__tvm_main__/${buffer} `));
  if (start < 0) throw new Error(`no block for ${buffer} in:\n${text}`);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('  '));
  return lines.slice(start, end < 0 ? undefined : end);
}

interface Row {
  buffer: string;
  candidates: string[];
  removed: { pool: string; by: string }[];
}

describe('uma-ts explain-pools', () => {
  let dir: string;
  let backend: string[];
  // Host code writes rw_pool and may only read ro_pool; `flash` holds the weights.
  const pools = [
    '--workspace-pools', 'rw_pool,ro_pool',
    '--workspace-pools-targets', 'rw_pool:c',
    '--workspace-pools-targets', 'ro_pool:c=ro',
    '--constant-pools', 'flash',
    '--constant-pools-targets', 'flash:c',
  ];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-explain-cli-'));
    const file = path.join(dir, 'hostonly.js');
    fs.writeFileSync(
      file,
      `const { UmaBackend } = require(${JSON.stringify(UMA_BACKEND)});
class HostOnlyBackend extends UmaBackend { constructor() { super(); this.targetName = 'hostonly'; } }
module.exports = { HostOnlyBackend };`,
    );
    backend = ['--backend', 'hostonly', '--backend-module', file];
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names, per buffer, its candidates and the constraint that removed every other pool', async () => {
    const { code, out, err } = await runCli(['explain-pools', HELLO, ...backend, ...pools]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('(preference order): rw_pool, ro_pool, flash');
    // sid_1 is written by the first dense (host code): the read-only pool falls to that write.
    const sid1 = block(out, 'sid_1');
    expect(sid1[0]).toMatch(/ 16 B: used by c$/);
    expect(sid1).toContain('  candidates: rw_pool');
    expect(sid1.find((l) => l.startsWith('  not ro_pool: '))).toMatch(/written by tvmgen_default_fused_dense\b.*target c/);
    expect(sid1.find((l) => l.startsWith('  not flash: '))).toBeDefined();
    // A weight may only go to a constant pool.
    const weight = block(out, 'constant_0');
    expect(weight).toContain('  candidates: flash');
    expect(weight.filter((l) => l.startsWith('  not '))).toHaveLength(2);
    // Model I/O stays with the application unless --io-in-workspace.
    expect(out).toContain('serving_default_dense_input:0: model I/O owned by the application (not planned)');
    expect(fs.readdirSync(dir)).toEqual(['hostonly.js']);
  });

  it('honours size limits: a pool below the buffer size is removed by its limit', async () => {
    // hello_world's intermediates are 16 bytes: an 8-byte sram can hold none of them.
    const limited = [
      '--workspace-pools', 'sram,dram',
      '--workspace-pools-targets', 'sram:c', '--workspace-pools-targets', 'dram:c',
      '--workspace-pools-size-hint-bytes', 'sram:8',
    ];
    const { code, out } = await runCli(['explain-pools', HELLO, ...backend, ...limited]);
    expect(code).toBe(0);
    const sid1 = block(out, 'sid_1');
    expect(sid1).toContain('  candidates: dram');
    expect(sid1).toContain("  not sram: size limit 8 B is below the buffer's 16 B");
    const only = ['--workspace-pools', 'sram', '--workspace-pools-targets', 'sram:c', '--workspace-pools-size-hint-bytes', 'sram:8'];
    const none = await runCli(['explain-pools', HELLO, ...backend, ...only]);
    expect(block(none.out, 'sid_1')).toContain('  candidates: none (the compile fails: no allowed pool can hold it)');
  });

  it('--json gives the same facts as data; --io-in-workspace plans the I/O too', async () => {
    const { code, out } = await runCli(['explain-pools', HELLO, ...backend, ...pools, '--json']);
    expect(code).toBe(0);
    const data = JSON.parse(out) as { backend: string; pools: string[]; buffers: Row[]; external: string[] };
    expect(data.backend).toBe('hostonly');
    expect(data.pools).toEqual(['rw_pool', 'ro_pool', 'flash']);
    const sids = data.buffers.filter((b) => /^sid_\d+$/.test(b.buffer));
    expect(sids).toHaveLength(2);
    for (const b of sids) {
      expect(b.candidates).toEqual(['rw_pool']);
      expect(b.removed.map((r) => r.pool).sort()).toEqual(['flash', 'ro_pool']);
    }
    expect(data.external).toHaveLength(2);

    const io = JSON.parse((await runCli(['explain-pools', HELLO, ...backend, ...pools, '--json', '--io-in-workspace'])).out) as {
      buffers: Row[];
      external: string[];
    };
    expect(io.external).toEqual([]);
    // Input and output become planned buffers in addition to the two intermediates.
    expect(io.buffers.length).toBe(data.buffers.length + 2);
  });

  it('a pin removes pools and is named as the reason; an unsatisfiable one is an error naming the buffer', async () => {
    const two = ['--workspace-pools', 'sram,dram', '--workspace-pools-targets', 'sram:c', '--workspace-pools-targets', 'dram:c'];
    const free = await runCli(['explain-pools', HELLO, ...backend, ...two]);
    expect(block(free.out, 'sid_2')).toContain('  candidates: sram, dram');
    const pin = path.join(dir, 'pin.json');
    fs.writeFileSync(pin, JSON.stringify({ pins: [{ tensor: 'sid_2', pools: ['dram'] }] }));
    const ok = await runCli(['explain-pools', HELLO, ...backend, ...two, '--pins', pin]);
    expect(ok.code).toBe(0);
    const sid2 = block(ok.out, 'sid_2');
    expect(sid2).toContain('  candidates: dram');
    expect(sid2.find((l) => l.startsWith('  not sram: '))).toContain(`pins ${pin} #0`);
    // The other intermediate is untouched by the pin.
    expect(block(ok.out, 'sid_1')).toContain('  candidates: sram, dram');

    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ pins: [{ tensor: 'sid_2', pools: ['ro_pool'] }] }));
    const r = await runCli(['explain-pools', HELLO, ...backend, ...pools, '--pins', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: no memory pool satisfies every constraint on buffer 'sid_2'/);
  });

  it('accel on person_detect: the fetcher input may only be in l2_mem, accel-written buffers never are', async () => {
    const { code, out } = await runCli(['explain-pools', path.join(ROOT, 'models', 'person_detect.tflite'), '--backend', 'accel', '--json']);
    expect(code).toBe(0);
    const data = JSON.parse(out) as { pools: string[]; buffers: (Row & { func: string; targets: string[] })[] };
    // backends/accel/pools.json, in its order.
    expect(data.pools).toEqual(['l2_mem', 'act_mem', 'wei_mem']);
    const fetched = data.buffers.filter((b) =>
      b.removed.some((r) => r.pool === 'act_mem' && /^backend accel: input 0 of accel\.accel_input_fetcher /.test(r.by)),
    );
    expect(fetched.length).toBeGreaterThan(0);
    for (const b of fetched) {
      expect(b.candidates).toEqual(['l2_mem']);
      expect(b.targets).toContain('accel');
    }
    // The accelerator may only read l2_mem, so nothing its functions allocate can go there.
    const accelScratch = data.buffers.filter((b) => b.func.startsWith('accel_main_') && !b.candidates.includes('wei_mem'));
    expect(accelScratch.length).toBeGreaterThan(0);
    for (const b of accelScratch) {
      expect(b.candidates).toEqual(['act_mem']);
      expect(b.removed.find((r) => r.pool === 'l2_mem')!.by).toMatch(/accel/);
    }
  });
});

describe('explain-pools decides I/O placement as compile does', () => {
  it('plans I/O in the workspace for dma_local, whose runtime accepts only registered pools', async () => {
    const model = path.join(__dirname, '..', '..', 'models', 'hello_world_int8.tflite');
    const base = { backend: 'dma_local', mergeRegions: true } as const;
    expect((await explainModelPools(model, base)).external).toEqual([]);
    const vanilla = await explainModelPools(model, { ...base, backend: 'vanilla' });
    expect(vanilla.external).toEqual(['serving_default_dense_input:0', 'StatefulPartitionedCall:0']);
  });
});
