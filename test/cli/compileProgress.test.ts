import { memoryIO } from '../../src/cli/io';
import { createProgress } from '../../src/cli/progress';

function clock(steps: number[]): () => number {
  let i = 0;
  return () => steps[Math.min(i++, steps.length - 1)];
}

describe('progress display', () => {
  it('prints one plain line per stage when not on a terminal', () => {
    const io = memoryIO();
    const p = createProgress(io, { now: clock([1000, 1250]) });
    p.stage('import');
    p.stage('codegen');
    p.done();
    expect(io.stderr).toEqual(['[uma-ts] import ...', '[uma-ts] codegen ...', '[uma-ts] done in 250 ms']);
    expect(io.stdout).toEqual([]);
  });

  it('rewrites one line in place on a terminal, with elapsed milliseconds', () => {
    const io = memoryIO();
    const raw: string[] = [];
    const p = createProgress(io, { inPlace: true, write: (t) => raw.push(t), now: clock([0, 12, 40, 41]) });
    p.stage('import');
    p.stage('memory planning');
    p.done();
    expect(raw).toEqual([
      '\r\x1b[K[uma-ts] import ... 12 ms',
      '\r\x1b[K[uma-ts] memory planning ... 40 ms',
      '\r\x1b[K[uma-ts] done in 41 ms\n',
    ]);
    // Nothing goes through the line-oriented streams: it would break the single line.
    expect(io.stderr).toEqual([]);
    expect(raw.slice(0, 2).every((t) => !t.includes('\n'))).toBe(true);
  });

  it('ends the in-place line with the failing stage', () => {
    const raw: string[] = [];
    const p = createProgress(memoryIO(), { inPlace: true, write: (t) => raw.push(t), now: clock([0, 3, 9]) });
    p.stage('pool pinning');
    p.fail();
    expect(raw[raw.length - 1]).toBe('\r\x1b[K[uma-ts] failed during pool pinning after 9 ms\n');
  });
});
