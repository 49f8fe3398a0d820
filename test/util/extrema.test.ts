import { maxOf } from '../../src/util/extrema';

describe('maxOf', () => {
  test('the largest value, or the floor', () => {
    expect(maxOf([3, 9, 2])).toBe(9);
    expect(maxOf([3, 9, 2], 12)).toBe(12);
    expect(maxOf([], 5)).toBe(5);
    expect(maxOf([])).toBe(-Infinity);
  });

  test('lists longer than the call stack takes as arguments (a plan table of a million rows)', () => {
    const lengths = Array.from({ length: 1_000_000 }, (_, i) => i % 97);
    lengths[777_777] = 1_000;
    expect(() => Math.max(...lengths)).toThrow(RangeError);
    expect(maxOf(lengths, 4)).toBe(1_000);
  });
});
