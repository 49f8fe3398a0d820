/**
 * The memory layout picture as a browser draws it: render report.html in headless Chromium,
 * decode the screenshot and check what a reader would see: one bordered panel per pool,
 * each buffer's rectangle in its target's colour at its (time, address) place, the legend,
 * the dashed red lower-bound line at the pool's lower bound, and titles that fit.
 *
 * Expected positions come from the report's numbers and the picture's axes (time on x from
 * 0 to the pool's last step, address on y from 0 at the bottom to max(size, lower bound)),
 * not from the SVG's coordinates.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { renderLayoutHtml, targetColors } from '../../src/report/layoutSvg';
import { buildMemoryReport, BufferReport, MemoryReport, PoolReport } from '../../src/report/memoryReport';
import { BufferInfo, PoolInfo, UsmpResult } from '../../src/usmp/types';
import { findChromium, screenshotHtml } from './chromium';
import { decodePng, pixelAt, RgbaImage } from './png';

type Rgb = readonly [number, number, number];

/** The panel's border rectangle in screenshot pixels. */
interface PanelBox {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

const PANEL_BACKGROUND: Rgb = [0xfa, 0xfa, 0xfa];
/** Buffer rectangles are drawn at 80% opacity over the panel background. */
const FILL_OPACITY = 0.8;
const TOLERANCE_PX = 3;

function hexRgb(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

function blendOverBackground(c: Rgb): Rgb {
  return c.map((v, i) => Math.round(FILL_OPACITY * v + (1 - FILL_OPACITY) * PANEL_BACKGROUND[i])) as unknown as Rgb;
}

function near(img: RgbaImage, x: number, y: number, want: Rgb, tol = 4): boolean {
  const p = pixelAt(img, x, y);
  return Math.abs(p[0] - want[0]) <= tol && Math.abs(p[1] - want[1]) <= tol && Math.abs(p[2] - want[2]) <= tol;
}

/** The panels' #333 border, anti-aliased over white: a neutral mid grey. */
function isBorderGrey(img: RgbaImage, x: number, y: number): boolean {
  const [r, g, b] = pixelAt(img, x, y);
  return Math.max(r, g, b) - Math.min(r, g, b) <= 10 && Math.max(r, g, b) <= 170;
}

function isLowerBoundRed(img: RgbaImage, x: number, y: number): boolean {
  const [r, g, b] = pixelAt(img, x, y);
  return r >= 150 && g <= 70 && b <= 70;
}

/**
 * Panels found from their vertical borders: grey runs at least `minHeight` tall, grouped by
 * the rows they cover. Nothing else in the picture draws long straight neutral-grey lines.
 */
function findPanels(img: RgbaImage, minHeight: number): PanelBox[] {
  const runs: { x: number; y0: number; y1: number }[] = [];
  for (let x = 0; x < img.width; x++) {
    let start = -1;
    for (let y = 0; y <= img.height; y++) {
      const grey = y < img.height && isBorderGrey(img, x, y);
      if (grey && start < 0) start = y;
      if (!grey && start >= 0) {
        if (y - start >= minHeight) runs.push({ x, y0: start, y1: y - 1 });
        start = -1;
      }
    }
  }
  // Panels are stacked: runs whose rows overlap belong to the same panel (a border column
  // may be cut where the red line or a rectangle's edge crosses it).
  const groups: { x: number; y0: number; y1: number }[][] = [];
  for (const r of runs) {
    const g = groups.find((grp) => grp.some((o) => o.y0 <= r.y1 && r.y0 <= o.y1));
    if (g) g.push(r);
    else groups.push([r]);
  }
  // A 1px line on an integer coordinate c is painted over pixels c-1 and c.
  return groups
    .map((g) => ({
      left: Math.min(...g.map((r) => r.x)) + 1,
      right: Math.max(...g.map((r) => r.x)),
      top: Math.min(...g.map((r) => r.y0)),
      bottom: Math.max(...g.map((r) => r.y1)),
    }))
    .sort((a, b) => a.top - b.top);
}

/** Where the picture's axes put a buffer: x = time, y = address (0 at the bottom). */
function expectedRect(box: PanelBox, pool: PoolReport, buffers: readonly BufferReport[], b: BufferReport) {
  const tMax = Math.max(1, ...buffers.map((o) => (o.liveRange ? o.liveRange[1] + 1 : 1)));
  const yMax = Math.max(1, pool.sizeBytes, pool.lowerBoundBytes);
  const [t0, t1] = b.liveRange ?? [0, tMax - 1];
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  return {
    x0: box.left + (t0 / tMax) * w,
    x1: box.left + ((t1 + 1) / tMax) * w,
    y0: box.bottom - ((b.offset + b.sizeBytes) / yMax) * h,
    y1: box.bottom - (b.offset / yMax) * h,
  };
}

function lowerBoundRow(box: PanelBox, pool: PoolReport): number {
  const yMax = Math.max(1, pool.sizeBytes, pool.lowerBoundBytes);
  return box.bottom - (pool.lowerBoundBytes / yMax) * (box.bottom - box.top);
}

/** Bounding box of the pixels of colour `c` inside `box`, or null when there are none. */
function colourBounds(img: RgbaImage, box: PanelBox, c: Rgb) {
  let [x0, y0, x1, y1, count] = [Infinity, Infinity, -Infinity, -Infinity, 0];
  for (let y = box.top; y <= box.bottom; y++) {
    for (let x = box.left; x <= box.right; x++) {
      if (!near(img, x, y, c)) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      count++;
    }
  }
  return count === 0 ? null : { x0, y0, x1, y1, count };
}

/** Red runs along the rows around `row`: a dashed line gives many short runs. */
function redDashes(img: RgbaImage, box: PanelBox, row: number): { rows: number[]; dashes: number } {
  const rows: number[] = [];
  let dashes = 0;
  for (let y = Math.floor(row) - TOLERANCE_PX; y <= Math.ceil(row) + TOLERANCE_PX; y++) {
    let runs = 0;
    let inRun = false;
    for (let x = box.left; x <= box.right; x++) {
      const red = isLowerBoundRed(img, x, y);
      if (red && !inRun) runs++;
      inRun = red;
    }
    if (runs > 0) rows.push(y);
    dashes = Math.max(dashes, runs);
  }
  return { rows, dashes };
}

/** Every red pixel row of the picture inside `box` (the line must be the only red there). */
function redRows(img: RgbaImage, box: PanelBox): number[] {
  const rows: number[] = [];
  for (let y = box.top - TOLERANCE_PX; y <= box.bottom; y++) {
    for (let x = box.left; x <= box.right; x++) {
      if (isLowerBoundRed(img, x, y)) {
        rows.push(y);
        break;
      }
    }
  }
  return rows;
}

function svgSize(html: string): { width: number; height: number } {
  const m = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(html);
  if (!m) throw new Error('report.html has no sized <svg>');
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Renders the report's HTML page and decodes the screenshot. */
function screenshot(chromium: string, dir: string, name: string, report: MemoryReport): RgbaImage {
  const html = renderLayoutHtml(report);
  const htmlFile = path.join(dir, `${name}.html`);
  const pngFile = path.join(dir, `${name}.png`);
  fs.writeFileSync(htmlFile, html);
  // Room for the page's heading and margins around the picture.
  const svg = svgSize(html);
  const window = { width: svg.width + 100, height: svg.height + 400 };
  screenshotHtml(chromium, htmlFile, pngFile, window);
  const img = decodePng(fs.readFileSync(pngFile), pngFile);
  expect([img.width, img.height]).toEqual([window.width, window.height]);
  return img;
}

const poolInfo = (name: string, sizeHintBytes?: number): PoolInfo => ({
  name,
  kind: 'workspace',
  targetAccess: { c: 'rw', accel: 'rw', npu: 'rw' },
  alignment: 16,
  internal: true,
  ...(sizeHintBytes ? { sizeHintBytes } : {}),
});

/**
 * Two pools, three targets; in each pool every target owns one rectangle, so a colour's
 * pixels in a panel are exactly one buffer's rectangle. Lower bounds sit below the pool
 * sizes (300 < 320, 160 < 192) so the red line is apart from the panel's top border.
 */
function twoPoolResult(): UsmpResult {
  const sram = poolInfo('sram', 1000);
  const dtcm = poolInfo('dtcm');
  const buf = (name: string, pool: PoolInfo, sizeBytes: number, liveRange: [number, number], target: string): BufferInfo => ({
    name,
    sizeBytes,
    alignment: 16,
    poolCandidates: [pool],
    conflicts: [],
    kind: 'workspace',
    liveRange,
    func: target === 'c' ? '__tvm_main__' : `${target}_main_0`,
    target,
  });
  return {
    module: null,
    algorithm: 'hill_climb',
    pools: [
      { pool: sram, sizeBytes: 320 },
      { pool: dtcm, sizeBytes: 192 },
    ],
    buffers: [
      buf('a', sram, 100, [0, 1], 'c'),
      buf('b', sram, 200, [1, 2], 'accel'),
      buf('w', dtcm, 64, [1, 3], 'npu'),
      buf('x', dtcm, 96, [0, 1], 'c'),
    ],
    plan: new Map([
      ['a', { pool: 'sram', offset: 0 }],
      ['b', { pool: 'sram', offset: 112 }],
      ['w', { pool: 'dtcm', offset: 0 }],
      ['x', { pool: 'dtcm', offset: 96 }],
    ]),
    memoryPressure: 460,
    unplanned: [],
    inputs: [],
    outputs: [],
  };
}

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

const chromium = findChromium();

describe('memory layout picture in headless Chromium', () => {
  if (!chromium) {
    it('chromium is required for the layout screenshot test', () => {
      if (process.env.CI && process.env.CI !== 'false') throw new Error('chromium missing in CI: .ci/run should have installed it (apt-get install chromium)');
      console.warn('chromium not installed: apt-get install chromium to run the layout screenshot test');
    });
    return;
  }

  // UMA_SCREENSHOT_DIR keeps the pictures for a look; by default they go to a temp dir.
  const keep = process.env.UMA_SCREENSHOT_DIR;
  let dir = '';
  beforeAll(() => {
    dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'uma-layout-'));
    fs.mkdirSync(dir, { recursive: true });
  });
  afterAll(() => {
    if (!keep && dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Checks shared by every picture: panels, legend, lower-bound lines, titles inside. */
  function checkPicture(img: RgbaImage, report: MemoryReport, drawn: readonly PoolReport[]): PanelBox[] {
    // Panels are at least a hundred pixels tall; nothing else draws straight grey lines that long.
    const boxes = findPanels(img, 100);
    expect(boxes).toHaveLength(drawn.length);
    const colours = targetColors(report);
    for (const [target, hex] of colours) {
      // Legend swatch: the target's colour at full opacity, above the first panel.
      const swatch = colourBounds(img, { left: 0, right: img.width - 1, top: 0, bottom: boxes[0].top - 1 }, hexRgb(hex));
      expect({ target, swatch: swatch !== null && swatch.count >= 50 }).toEqual({ target, swatch: true });
    }
    boxes.forEach((box, i) => {
      const pool = drawn[i];
      const row = lowerBoundRow(box, pool);
      const line = redDashes(img, box, row);
      expect({ pool: pool.name, dashed: line.dashes >= 20 }).toEqual({ pool: pool.name, dashed: true });
      // The red line is the only red inside the panel, and it sits at the lower bound.
      const rows = redRows(img, box);
      expect(rows.length).toBeGreaterThan(0);
      expect(Math.abs(Math.min(...rows) - row)).toBeLessThanOrEqual(TOLERANCE_PX);
      expect(Math.max(...rows) - Math.min(...rows)).toBeLessThanOrEqual(TOLERANCE_PX);
      // The title above the panel (dark text) ends before the picture's right edge.
      const svgRight = box.right + 30;
      let lastDark = -1;
      for (let y = box.top - 24; y < box.top - 2; y++) {
        for (let x = box.left; x < img.width; x++) {
          const [r, g, b] = pixelAt(img, x, y);
          if (r + g + b < 200) lastDark = Math.max(lastDark, x);
        }
      }
      expect(lastDark).toBeGreaterThan(box.left);
      expect({ pool: pool.name, titleFits: lastDark < svgRight - 4 }).toEqual({ pool: pool.name, titleFits: true });
    });
    return boxes;
  }

  it('hand-made two-pool plan: rectangles at their place, in their target colour', () => {
    const report = buildMemoryReport('two_pools.tflite', twoPoolResult());
    const img = screenshot(chromium, dir, 'two_pools', report);
    const boxes = checkPicture(img, report, report.pools);
    const colours = targetColors(report);
    expect(new Set(colours.values()).size).toBe(3);
    boxes.forEach((box, i) => {
      const pool = report.pools[i];
      const inPool = report.buffers.filter((b) => b.pool === pool.name);
      // The panel's own background shows where no buffer is.
      expect(colourBounds(img, box, PANEL_BACKGROUND)).not.toBeNull();
      for (const [target, hex] of colours) {
        const seen = colourBounds(img, box, blendOverBackground(hexRgb(hex)));
        const owner = inPool.find((b) => b.target === target);
        if (!owner) {
          expect({ pool: pool.name, target, seen }).toEqual({ pool: pool.name, target, seen: null });
          continue;
        }
        const want = expectedRect(box, pool, inPool, owner);
        expect(seen).not.toBeNull();
        // Edges carry the rectangle's thin stroke: the fill starts within a few pixels.
        const got = [seen!.x0, seen!.x1 + 1, seen!.y0, seen!.y1 + 1];
        [want.x0, want.x1, want.y0, want.y1].forEach((v, k) => {
          expect({ buffer: owner.name, edge: k, off: Math.abs(got[k] - v) <= TOLERANCE_PX }).toEqual({
            buffer: owner.name,
            edge: k,
            off: true,
          });
        });
      }
    });
  });

  it('person_detect compiled for the host: one panel per pool, every sizeable buffer drawn in place', () => {
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const report = compileModel('models/person_detect.tflite', { backend: 'nothing', registry }).report;
    // Host only: the default workspace pool and the constant pool holding the weights.
    expect(report.pools.map((p) => p.kind).sort()).toEqual(['constant', 'workspace']);
    const img = screenshot(chromium, dir, 'person_detect', report);
    const boxes = checkPicture(img, report, report.pools);
    const fill = blendOverBackground(hexRgb(targetColors(report).get('c')!));
    let checked = 0;
    boxes.forEach((box, i) => {
      const pool = report.pools[i];
      const inPool = report.buffers.filter((b) => b.pool === pool.name);
      const lbRow = lowerBoundRow(box, pool);
      for (const b of inPool) {
        const r = expectedRect(box, pool, inPool, b);
        if (r.x1 - r.x0 < 8 || r.y1 - r.y0 < 8) continue;
        const [cx, cy] = [Math.round((r.x0 + r.x1) / 2), Math.round((r.y0 + r.y1) / 2)];
        if (Math.abs(cy - lbRow) <= TOLERANCE_PX) continue;
        expect({ buffer: b.name, filled: near(img, cx, cy, fill) }).toEqual({ buffer: b.name, filled: true });
        checked++;
      }
    });
    // Enough buffers are large enough to be checked for the test to mean something.
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});
