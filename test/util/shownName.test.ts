import { shownName } from '../../src/util/shownName';

describe('shownName', () => {
  it('leaves plain names as they are', () => {
    expect(shownName('conv_out')).toBe('conv_out');
    expect(shownName('名前')).toBe('名前');
  });

  it('quotes names with white space or quotes, and empty ones', () => {
    expect(shownName('a b')).toBe('"a b"');
    expect(shownName('a"b')).toBe('"a\\"b"');
    expect(shownName('')).toBe('""');
  });

  it('escapes every control and format character, so none reaches the terminal raw', () => {
    expect(shownName('a\nb\u001b[31m')).toBe('"a\\nb\\u001b[31m"');
    expect(shownName('x\u007f\u0085\u202e')).toBe('"x\\u007f\\u0085\\u202e"');
    // A private-use character past U+FFFF: both of its UTF-16 units (the first alone was kept).
    expect(shownName('p\u{F0000}')).toBe('"p\\udb80\\udc00"');
  });
});
