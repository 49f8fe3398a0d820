/**
 * The layout picture: one panel per pool, time (statement index) on x, address on y, one
 * rectangle per buffer coloured by target, hover text with name/size/range, and the pool's
 * lower bound drawn as a dashed line, so the gap between plan and bound is visible.
 */
import { BufferReport, MemoryReport, PoolReport } from './memoryReport';
import { maxOf } from '../util/extrema';

const PANEL_W = 640;
const PANEL_H = 220;
const MARGIN_L = 70;
const MARGIN_T = 28;
const GAP = 48;
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function targetColors(report: MemoryReport): Map<string, string> {
  const targets = [...new Set(report.buffers.map((b) => b.target ?? 'c'))].sort();
  return new Map(targets.map((t, i) => [t, PALETTE[i % PALETTE.length]]));
}

function panel(pool: PoolReport, buffers: readonly BufferReport[], top: number, colors: Map<string, string>): string {
  const tMax = maxOf(buffers.map((b) => (b.liveRange ? b.liveRange[1] + 1 : 1)), 1);
  const yMax = Math.max(1, pool.sizeBytes, pool.lowerBoundBytes);
  const x = (t: number): number => MARGIN_L + (t / tMax) * PANEL_W;
  const y = (addr: number): number => top + PANEL_H - (addr / yMax) * PANEL_H;
  const parts: string[] = [
    `<g class="pool-panel" data-pool="${escapeXml(pool.name)}">`,
    // Only the pool name in bold: a whole bold line overflowed the picture for long pool names.
    `<text x="${MARGIN_L}" y="${top - 8}" font-size="13"><tspan font-weight="bold">${escapeXml(pool.name)}</tspan> (${pool.kind}): ${pool.sizeBytes} B, lower bound ${pool.lowerBoundBytes} B, overhead ${pool.overheadPercent.toFixed(2)}%</text>`,
    `<rect x="${MARGIN_L}" y="${top}" width="${PANEL_W}" height="${PANEL_H}" fill="#fafafa" stroke="#333"/>`,
    `<text x="${MARGIN_L - 6}" y="${top + 10}" font-size="10" text-anchor="end">${yMax}</text>`,
    `<text x="${MARGIN_L - 6}" y="${top + PANEL_H}" font-size="10" text-anchor="end">0</text>`,
    `<text x="${MARGIN_L + PANEL_W}" y="${top + PANEL_H + 14}" font-size="10" text-anchor="end">step ${tMax}</text>`,
  ];
  for (const b of buffers) {
    // Constants are never reused: they occupy their bytes for the whole run, whatever their uses.
    const [t0, t1] = pool.kind === 'constant' || !b.liveRange ? [0, tMax - 1] : b.liveRange;
    const color = colors.get(b.target ?? 'c') ?? PALETTE[0];
    const title = `${b.name}: ${b.sizeBytes} B at ${b.offset}, live ${t0}..${t1}${b.func ? `, ${b.func}` : ''}${b.target ? ` (${b.target})` : ''}`;
    const rx = x(t0);
    const ry = y(b.offset + b.sizeBytes);
    const w = Math.max(1, x(t1 + 1) - rx);
    const h = Math.max(1, y(b.offset) - ry);
    parts.push(
      `<rect class="buffer" data-buffer="${escapeXml(b.name)}" x="${rx.toFixed(2)}" y="${ry.toFixed(2)}" width="${w.toFixed(2)}" height="${h.toFixed(2)}" fill="${color}" fill-opacity="0.8" stroke="#222" stroke-width="0.5"><title>${escapeXml(title)}</title></rect>`,
    );
  }
  const lb = y(pool.lowerBoundBytes);
  parts.push(
    `<line class="lower-bound" x1="${MARGIN_L}" x2="${MARGIN_L + PANEL_W}" y1="${lb.toFixed(2)}" y2="${lb.toFixed(2)}" stroke="#d00" stroke-dasharray="6 4" stroke-width="1.5"><title>lower bound ${pool.lowerBoundBytes} B</title></line>`,
    '</g>',
  );
  return parts.join('\n');
}

export function renderLayoutSvg(report: MemoryReport): string {
  const colors = targetColors(report);
  const pools = report.pools.filter((p) => p.kind === 'workspace' || report.buffers.some((b) => b.pool === p.name));
  const legendH = 24;
  const height = MARGIN_T + legendH + pools.length * (PANEL_H + GAP) + 10;
  const width = MARGIN_L + PANEL_W + 30;
  const legend = [...colors].map(
    ([t, c], i) =>
      `<rect x="${MARGIN_L + i * 110}" y="8" width="12" height="12" fill="${c}"/><text x="${MARGIN_L + i * 110 + 16}" y="18" font-size="12">target ${escapeXml(t)}</text>`,
  );
  const panels = pools.map((p, i) =>
    panel(p, report.buffers.filter((b) => b.pool === p.name), MARGIN_T + legendH + i * (PANEL_H + GAP), colors),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<title>Memory layout of ${escapeXml(report.model)}</title>`,
    ...legend,
    ...panels,
    '</svg>',
  ].join('\n');
}

export function renderLayoutHtml(report: MemoryReport): string {
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    `<title>uma-ts memory layout: ${escapeXml(report.model)}</title>`,
    '<style>body{font-family:sans-serif;margin:16px} svg{border:1px solid #ccc}</style>',
    '</head><body>',
    `<h1>Memory layout: ${escapeXml(report.model)}</h1>`,
    `<p>Algorithm ${escapeXml(report.algorithm)}; total ${report.totalBytes} B, lower bound ${report.totalLowerBoundBytes} B.</p>`,
    renderLayoutSvg(report),
    '</body></html>',
  ].join('\n');
}
