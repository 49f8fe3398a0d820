/**
 * `--no-pool-pinning` reproduces TVM's placement, and with it the accesses a backend's operand
 * constraints forbid. The compile must say so — on stderr and in report.json — with the facts
 * the runtime's trap gives later (operand, pool it lies in, pools allowed); it is a warning,
 * not an error, since showing that placement is what the flag is for. With pinning on the
 * constraints are enforced before planning and nothing changes.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const KWS = path.join(ROOT, 'models', 'kws_ref_model.tflite');

/** The `warning:` lines of stderr, without the prefix. */
function warningsOf(err: string): string[] {
  return err
    .split('\n')
    .filter((l) => l.startsWith('warning: '))
    .map((l) => l.slice('warning: '.length));
}

function reportOf(out: string): { warnings?: string[] } {
  return JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as { warnings?: string[] };
}

describe('--no-pool-pinning: operand constraints the plan breaks are warned about', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-no-pinning-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('dma_local: the copy-in destination outside local_mem is a warning on stderr and in report.json', async () => {
    const out = path.join(dir, 'dma');
    const r = await runCli(['compile', HELLO, '--backend', 'dma_local', '--no-pool-pinning', '--out', out]);
    expect(r.err).not.toContain('error:');
    expect(r.code).toBe(0);
    const warnings = warningsOf(r.err);
    // dma_local_copy_in's 'dst' is output 0 of the dma_in operator; its runtime traps on it.
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^dma_local_main_\d+ \(target dma_local\): output 0 of dma_local\.dma_in '[^']+' \('\w+'\) lies in pool 'sram', its operand constraint \(backend dma_local\) allows \{local_mem\}; the program will fault at this access \(pool pinning is off\)$/,
        ),
      ]),
    );
    expect(reportOf(out).warnings).toEqual(warnings);
  });

  it('dma_local with pinning: no warning, nothing in report.json', async () => {
    const out = path.join(dir, 'dma-pinned');
    const r = await runCli(['compile', HELLO, '--backend', 'dma_local', '--out', out]);
    expect(r.code).toBe(0);
    expect(warningsOf(r.err)).toEqual([]);
    expect(reportOf(out).warnings).toBeUndefined();
  });

  describe('accel with pools that do not define l2_mem', () => {
    let pools: string;
    beforeAll(() => {
      pools = path.join(dir, 'pools-no-l2.json');
      fs.writeFileSync(
        pools,
        JSON.stringify({
          workspacePools: [{ name: 'act_mem', targets: { c: 'rw', accel: 'rw' }, internal: true }],
          constantPools: [{ name: 'wei_mem', targets: { c: 'ro', accel: 'ro' }, internal: true }],
        }),
      );
    });

    it('without pinning: each fetcher input outside l2_mem is a warning naming the undefined pool', async () => {
      const out = path.join(dir, 'accel');
      const r = await runCli(['compile', KWS, '--backend', 'accel', '--pools', pools, '--no-pool-pinning', '--out', out]);
      expect(r.err).not.toContain('error:');
      expect(r.code).toBe(0);
      const warnings = warningsOf(r.err);
      expect(warnings.length).toBeGreaterThan(0);
      for (const w of warnings) {
        expect(w).toMatch(
          /^accel_main_\d+ \(target accel\): input 0 of accel\.accel_input_fetcher '[^']+' \('\w+'\) lies in pool 'act_mem', its operand constraint \(backend accel\) allows \{l2_mem\} \('l2_mem' is not defined by the pools config\); the program will fault at this access \(pool pinning is off\)$/,
        );
      }
      expect(reportOf(out).warnings).toEqual(warnings);
    });

    it('with pinning: unchanged, the unknown pool is an error before planning', async () => {
      const r = await runCli(['compile', KWS, '--backend', 'accel', '--pools', pools, '--out', path.join(dir, 'accel-pinned')]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error: backend accel: unknown pool 'l2_mem'; pools are: act_mem, wei_mem/m);
      expect(warningsOf(r.err)).toEqual([]);
    });
  });

  it('run says the program will fault before it traps on the same operand', async () => {
    const r = await runCli(['run', HELLO, '--backend', 'dma_local', '--no-pool-pinning']);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n');
    const warned = lines.findIndex((l) => /^warning: .*output 0 of dma_local\.dma_in .* lies in pool 'sram', its operand constraint \(backend dma_local\) allows \{local_mem\}; the program will fault/.test(l));
    const trapped = lines.findIndex((l) => /^error: .*dma_local trap: dma_local_copy_in argument 'dst' at \S+ lies in pool 'sram', its operand constraint allows \{local_mem\}$/.test(l));
    expect(warned).toBeGreaterThanOrEqual(0);
    expect(trapped).toBeGreaterThan(warned);
  }, 120000);
});
