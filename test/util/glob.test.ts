import fc from 'fast-check';
import { globMatches } from '../../src/util/glob';

/** The obvious (backtracking) definition, for small inputs only. */
function reference(pattern: string, name: string): boolean {
  const escaped = pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`, 's').test(name);
}

describe('globMatches', () => {
  it('anchors at both ends; * matches any run, even empty', () => {
    expect(globMatches('conv_*', 'conv_2d')).toBe(true);
    expect(globMatches('conv_*', 'xconv_2d')).toBe(false);
    expect(globMatches('*_out', 'a_out')).toBe(true);
    expect(globMatches('a*b*a', 'aba')).toBe(true);
    expect(globMatches('a*b*a', 'ab')).toBe(false);
    expect(globMatches('ab*ba', 'aba')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('', '')).toBe(true);
    expect(globMatches('', 'x')).toBe(false);
    expect(globMatches('a.b', 'axb')).toBe(false);
  });

  it('agrees with the regular-expression definition', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '*', '.'), maxLength: 8 });
    const name = fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 10 });
    fc.assert(
      fc.property(text, name, (p, n) => globMatches(p, n) === reference(p, n)),
      { seed: 14, numRuns: 3000 },
    );
  });

  it('answers pathological patterns at once (a backtracking regex takes minutes)', () => {
    const name = 'a'.repeat(20000);
    expect(globMatches('********Q', name)).toBe(false);
    expect(globMatches(`${'*a'.repeat(200)}*Q`, name)).toBe(false);
    expect(globMatches(`${'*a'.repeat(200)}*`, name)).toBe(true);
  });
});
