/**
 * The CLI's and the memory report's text tables (src/util/textTable.ts): columns two spaces
 * apart, padded to their widest cell, numbers right-aligned where asked, a dashed rule under the
 * header; in a table that would pass MAX_TABLE_CHARS padded, a cell past MAX_PADDED_WIDTH
 * overflows its column instead of widening every row.
 */
import { MAX_PADDED_WIDTH, MAX_TABLE_CHARS, tableLines } from '../../src/util/textTable';

describe('tableLines', () => {
  it('pads each column to its widest cell, right-aligns where asked, and rules the header', () => {
    const lines = tableLines(
      ['pool', 'size'],
      [
        ['sram', '4096'],
        ['dram_external', '12'],
      ],
      { alignRight: (c) => c === 1, rule: true },
    );
    expect(lines).toEqual(['pool           size', '-------------  ----', 'sram           4096', 'dram_external    12']);
  });

  it('trims trailing spaces of left-aligned last columns', () => {
    expect(tableLines(['a', 'b'], [['xx', ''], ['y', 'zzz']])).toEqual(['a   b', 'xx', 'y   zzz']);
  });

  it('keeps long names aligned where the padded table stays small (real fused TFLite names)', () => {
    const name = 'functional_1/activation/Relu;'.repeat(9);
    const lines = tableLines(['output', 'shape'], [[name, '[1, 25, 5, 64]'], ['x', '[1]']]);
    expect(lines[2]).toBe(`x${' '.repeat(name.length - 1)}  [1]`);
  });

  it('lets one very long cell overflow its column past MAX_TABLE_CHARS: the other rows keep their widths', () => {
    const long = 'n'.repeat(200_000);
    const rows = Array.from({ length: 3_000 }, (_, i) => [i === 7 ? long : `buffer_${i}`, String(i)]);
    const lines = tableLines(['buffer', 'offset'], rows);
    // Padded to the long name, the table was 3,000 x 200,000 characters: past V8's longest string.
    expect(lines.reduce((sum, l) => sum + l.length, 0)).toBeLessThan(300_000);
    expect(lines[8]).toBe(`${long}  7`);
    expect(lines[1]).toBe('buffer_0     0');
    expect(MAX_PADDED_WIDTH).toBeLessThan(long.length);
    expect(3_001 * (long.length + 2)).toBeGreaterThan(MAX_TABLE_CHARS);
  });
});
