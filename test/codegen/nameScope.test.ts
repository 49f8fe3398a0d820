/**
 * NameScope hands out names in request order: a hint's first name is its sanitized spelling,
 * the later ones that spelling with the first free suffix. Each search starts where the hint's
 * last one ended (names are never released), which gives the same names a search from 1 would:
 * checked here against that search, on hints that collide with each other's suffixed spellings
 * and with a parent scope's names.
 */
import fc from 'fast-check';
import { NameScope, sanitizeIdentifier } from '../../src/codegen/c/names';
import { FUZZ_SEED } from '../fuzz/harness';

/** The names a search from suffix 1 gives, for `hints` in order, over `reserved` and `parent`. */
function fromOne(hints: readonly string[], reserved: readonly string[], parent: readonly string[]): string[] {
  const taken = new Set([...reserved, ...parent]);
  return hints.map((hint) => {
    const base = sanitizeIdentifier(hint);
    let name = base;
    for (let n = 1; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}

describe('NameScope.fresh', () => {
  it('numbers repeated hints in order, skipping names taken by other hints', () => {
    const scope = new NameScope(['x_2']);
    const names = ['x', 'x', 'x_1', 'x', 'x', 'x'].map((h) => scope.fresh(h));
    expect(names).toEqual(['x', 'x_1', 'x_1_1', 'x_3', 'x_4', 'x_5']);
  });

  it('gives the names a search from suffix 1 gives', () => {
    const hint = fc.constantFrom('y', 'y_1', 'y_2', 'y_1_1', 'z', 'for', '1y', 'y-1');
    fc.assert(
      fc.property(fc.array(hint, { maxLength: 40 }), fc.array(hint, { maxLength: 5 }), fc.array(hint, { maxLength: 5 }), (hints, reserved, parentNames) => {
        const parent = new NameScope(parentNames);
        const scope = new NameScope(reserved, parent);
        expect(hints.map((h) => scope.fresh(h))).toEqual(fromOne(hints, reserved, parentNames));
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
  });

  it('gives 20,000 requests of one hint 20,000 names, the last suffixed 19999', () => {
    const scope = new NameScope();
    const names = Array.from({ length: 20_000 }, () => scope.fresh('t'));
    expect(new Set(names).size).toBe(20_000);
    expect(names[19_999]).toBe('t_19999');
  });
});
