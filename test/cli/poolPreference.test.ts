/**
 * A backend's pool preference is advice: with user pools that do not include the pools the
 * backend prefers, the compile succeeds and says what it ignored; a constraint naming an
 * unknown pool stays an error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const MODEL = path.join(ROOT, 'models', 'person_detect.tflite');

describe('backend pool preference naming pools the user did not define', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-preference-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Pools sram/flash for the host and vanilla: none of them the pools vanilla prefers. */
  function sramFlashPools(file: string): string {
    const pools = path.join(dir, file);
    fs.writeFileSync(
      pools,
      JSON.stringify({
        workspacePools: [{ name: 'sram', targets: { c: 'rw', vanilla: 'rw' } }],
        constantPools: [{ name: 'flash', targets: { c: 'ro', vanilla: 'ro' } }],
      }),
    );
    return pools;
  }

  it('vanilla with user pools sram/flash compiles, notes the ignored preference, and report.json carries it', async () => {
    const pools = sramFlashPools('pools.json');
    const out = path.join(dir, 'pd');
    const r = await runCli(['compile', MODEL, '--backend', 'vanilla', '--pools', pools, '--out', out]);
    expect(r.err).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/note: pool preference of vanilla names 'global_workspace'.*ignored/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as { notes?: string[]; pools: { name: string }[] };
    expect(report.notes?.some((n) => n.includes("'global_workspace'"))).toBe(true);
    expect(report.pools.map((p) => p.name).sort()).toEqual(['flash', 'sram']);
  });

  it('run says the same as compile', async () => {
    const pools = sramFlashPools('pools-run.json');
    const hello = path.join(ROOT, 'models', 'hello_world_int8.tflite');
    const r = await runCli(['run', hello, '--backend', 'vanilla', '--pools', pools]);
    expect(r.err).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/note: pool preference of vanilla names 'global_workspace'.*ignored/);
  });

  it('accel with pools lacking its constrained pools is still an error naming the pool', async () => {
    const pools = path.join(dir, 'pools-accel.json');
    fs.writeFileSync(
      pools,
      JSON.stringify({
        workspacePools: [{ name: 'sram', targets: { c: 'rw', accel: 'rw' } }],
        constantPools: [{ name: 'flash', targets: { c: 'ro', accel: 'ro' } }],
      }),
    );
    const r = await runCli(['compile', MODEL, '--backend', 'accel', '--pools', pools, '--out', path.join(dir, 'acc')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error: .*unknown pool '(act_mem|l2_mem|wei_mem)'/);
  });
});
