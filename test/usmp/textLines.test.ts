import { firstNonBlankLine, forEachLine } from '../../src/usmp/textLines';
import { seededRandom } from '../../src/usmp/algo/seededRandom';

const linesOf = (text: string): string[] => {
  const out: string[] = [];
  forEachLine(text, (line, index) => {
    expect(index).toBe(out.length);
    out.push(line);
  });
  return out;
};

describe('forEachLine', () => {
  test.each(['', '\n', 'a', 'a\n', 'a\r\nb', '\r\n\r\n', 'a\rb\n', '\r', 'x\n\ny\r\n'])('gives the lines split(/\\r?\\n/) gives: %j', (text) => {
    expect(linesOf(text)).toEqual(text.split(/\r?\n/));
  });

  test('random texts of a, CR and LF: the same lines as split(/\\r?\\n/)', () => {
    const r = seededRandom(7);
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: Math.floor(r() * 30) }, () => ['a', '\r', '\n', ' '][Math.floor(r() * 4)]).join('');
      expect(linesOf(text)).toEqual(text.split(/\r?\n/));
    }
  });

  test('stops when the visitor returns false', () => {
    const seen: string[] = [];
    forEachLine('a\nb\nc', (line) => {
      seen.push(line);
      return line !== 'b';
    });
    expect(seen).toEqual(['a', 'b']);
  });

  test('the first line that is not blank, with its index', () => {
    expect(firstNonBlankLine('\n  \r\nid,size\nx')).toEqual({ line: 'id,size', index: 2 });
    expect(firstNonBlankLine('\n \n')).toBeUndefined();
  });
});
