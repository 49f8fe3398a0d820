/**
 * The claims of docs/pool-pinning.md that are not CLI output: what the post-plan access check
 * reports in TVM mode (--no-pool-pinning) — checked against the lines the doc shows — and that
 * pinning leaves it nothing to report.
 */
import * as fs from 'fs';
import { BackendRegistry, compileModel, parsePoolsJson } from '../../src';
import { TutorialBackend } from '../../docs/examples/tutorialBackend';
import { codeBlocks } from './markdown';

const DOC = 'docs/pool-pinning.md';

function compile(poolPinning: boolean) {
  const registry = new BackendRegistry();
  registry.register(TutorialBackend);
  const pools = parsePoolsJson(fs.readFileSync('docs/examples/pools.json', 'utf8'), 'pools.json');
  return compileModel('models/hello_world_float.tflite', { backend: 'tutorial', registry, pools, poolPinning, mergeRegions: false });
}

/** The text block of the doc that lists the access violations. */
function documentedViolations(): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const anchor = text.indexOf('The post-plan access check (below) finds exactly that');
  expect(anchor).toBeGreaterThan(0);
  const line = text.slice(0, anchor).split('\n').length;
  const block = codeBlocks(DOC, text).find((b) => b.line > line)!;
  return block.text.split('\n');
}

describe('pool-pinning guide', () => {
  it('--no-pool-pinning: the access check warns about exactly the violations the guide shows', () => {
    const result = compile(false);
    expect(result.pinning).toBeUndefined();
    // The CLI prints the compile's warnings as `warning: <text>` on stderr.
    const lines = result.warnings.map((w) => `warning: ${w}`);
    expect(result.access.violations.length).toBeGreaterThan(0);
    expect(lines.length).toBe(result.access.violations.length);
    expect([...lines].sort()).toEqual([...documentedViolations()].sort());
  });

  it('with pinning, the same model has no violation and main\'s intermediates sit in the shared pool', () => {
    const result = compile(true);
    expect(result.access.violations).toEqual([]);
    expect(result.access.misplaced).toEqual([]);
    const sids = result.report.buffers.filter((b) => /^sid_/.test(b.name));
    expect(sids.length).toBe(2);
    for (const b of sids) expect(b.pool).toBe('tut_sram');
  });
});
