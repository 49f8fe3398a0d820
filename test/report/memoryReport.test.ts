import { validateJsonDocument } from '../../src/config/validateJson';
import { buildMemoryReport, formatMemoryReport, peakLiveBytes } from '../../src/report/memoryReport';
import { renderLayoutHtml, renderLayoutSvg } from '../../src/report/layoutSvg';
import { BufferInfo, PoolInfo, UsmpResult } from '../../src/usmp/types';

const sram: PoolInfo = { name: 'sram', kind: 'workspace', targetAccess: { c: 'rw', accel: 'rw' }, alignment: 16, internal: true, sizeHintBytes: 1000 };
const flash: PoolInfo = { name: 'flash', kind: 'constant', targetAccess: { c: 'ro' }, alignment: 16, internal: true };

function buf(name: string, sizeBytes: number, liveRange: [number, number], target = 'c'): BufferInfo {
  return { name, sizeBytes, alignment: 16, poolCandidates: [sram], conflicts: [], kind: 'workspace', liveRange, func: '__tvm_main__', target };
}

function result(): UsmpResult {
  const buffers = [buf('a', 100, [0, 1]), buf('b', 200, [1, 2], 'accel'), buf('c', 100, [2, 3])];
  return {
    module: null,
    algorithm: 'auto',
    pools: [
      { pool: sram, sizeBytes: 320 },
      { pool: flash, sizeBytes: 0 },
    ],
    buffers,
    // a and c reuse offset 0; b sits above a (aligned to 16).
    plan: new Map([
      ['a', { pool: 'sram', offset: 0 }],
      ['b', { pool: 'sram', offset: 112 }],
      ['c', { pool: 'sram', offset: 0 }],
    ]),
    memoryPressure: 300,
    unplanned: [{ func: 'f', name: 'tmp', reason: 'dynamic size' }],
    inputs: [],
    outputs: [],
  };
}

describe('memory report', () => {
  it('computes the peak of live bytes with inclusive ranges', () => {
    expect(peakLiveBytes([buf('a', 100, [0, 1]), buf('b', 200, [1, 2]), buf('c', 100, [2, 3])])).toBe(300);
    expect(peakLiveBytes([buf('a', 100, [0, 0]), buf('b', 200, [1, 1])])).toBe(200);
  });

  it('reports size, limit, use, lower bound and overhead per pool', () => {
    const r = buildMemoryReport('m.tflite', result());
    expect(r.pools[0]).toEqual({
      name: 'sram',
      kind: 'workspace',
      sizeBytes: 320,
      limitBytes: 1000,
      usePercent: 32,
      // 300 live bytes, but 16-byte offsets: b at 0 and a at 208 end at 308 at best, and the
      // pool's size is rounded up to 16: the plan is optimal.
      lowerBoundBytes: 320,
      overheadPercent: 0,
      bufferCount: 3,
      targets: ['c', 'accel'],
    });
    expect(r.buffers.map((b) => [b.name, b.offset])).toEqual([
      ['a', 0],
      ['c', 0],
      ['b', 112],
    ]);
    validateJsonDocument(JSON.parse(JSON.stringify(r)), 'report.schema.json', 'report.json');
    const text = formatMemoryReport(r);
    expect(text).toMatch(/sram\s+workspace\s+320\s+1000\s+32\.00\s+320\s+0\.00\s+3/);
    expect(text).toContain('f/tmp: dynamic size');
  });

  it('sets the workspace against the plan\'s own bound and the tensor-level bound', () => {
    const bound = { bytes: 256, operator: 'conv', ioCounted: true, alignment: 16 };
    const r = buildMemoryReport('m.tflite', result(), bound);
    expect(r.workspace).toEqual({
      sizeBytes: 320,
      planLowerBoundBytes: 320,
      planOverheadPercent: 0,
      tensorLowerBoundBytes: 256,
      tensorOverheadPercent: 25,
      peakOperator: 'conv',
      ioCounted: true,
    });
    validateJsonDocument(JSON.parse(JSON.stringify(r)), 'report.schema.json', 'report.json');
    expect(formatMemoryReport(r)).toContain(
      'Workspace: 320 bytes; plan lower bound 320 (overhead 0.00%); tensor-level lower bound 256, model I/O counted (overhead 25.00%)',
    );
    // Without a tensor-level bound the fields are null and no summary line is printed.
    const plain = buildMemoryReport('m.tflite', result());
    expect(plain.workspace.tensorLowerBoundBytes).toBeNull();
    validateJsonDocument(JSON.parse(JSON.stringify(plain)), 'report.schema.json', 'report.json');
    expect(formatMemoryReport(plain)).not.toContain('Workspace:');
  });

  it('draws one panel per pool with a rectangle per buffer and the lower-bound line', () => {
    const r = buildMemoryReport('m.tflite', result());
    const svg = renderLayoutSvg(r);
    expect(svg.match(/class="pool-panel"/g)).toHaveLength(1);
    expect(svg.match(/class="buffer"/g)).toHaveLength(3);
    expect(svg).toContain('<title>b: 200 B at 112, live 1..2, __tvm_main__ (accel)</title>');
    expect(svg).toContain('class="lower-bound"');
    // accel and c buffers get different colours
    const fill = (n: string): string => new RegExp(`data-buffer="${n}"[^>]*fill="([^"]+)"`).exec(svg)![1];
    expect(fill('a')).not.toBe(fill('b'));
    expect(renderLayoutHtml(r)).toContain('<svg');
  });
});

describe('layout picture of a constant pool', () => {
  it('draws each constant across the whole run (constants are never reused)', () => {
    const weight: BufferInfo = { ...buf('w', 64, [2, 2]), poolCandidates: [flash], kind: 'constant' };
    const r0 = result();
    const r = buildMemoryReport('m.tflite', {
      ...r0,
      pools: [...r0.pools.slice(0, 1), { pool: flash, sizeBytes: 64 }],
      buffers: [...r0.buffers, weight],
      plan: new Map([...r0.plan, ['w', { pool: 'flash', offset: 0 }]]),
    });
    const svg = renderLayoutSvg(r);
    const rect = /data-buffer="w" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/.exec(svg)!;
    const panel = /<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="#fafafa"/.exec(svg)!;
    expect(Number(rect[1])).toBeCloseTo(Number(panel[1]), 1);
    expect(Number(rect[2])).toBeCloseTo(Number(panel[2]), 1);
  });
});
