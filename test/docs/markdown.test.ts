import { codeBlocks, commandLines, matchesDocumented, parseDirectives } from './markdown';

describe('doc-test markdown helpers', () => {
  it('reads fenced blocks with the directive on the line above', () => {
    const md = ['text', '<!-- run exit=1 -->', '```sh', 'uma-ts plan x', '```', '', '```json', '{}', '```'].join('\n');
    const blocks = codeBlocks('x.md', md);
    expect(blocks.map((b) => [b.line, b.lang, b.text, Object.fromEntries(b.directives)])).toEqual([
      [3, 'sh', 'uma-ts plan x', { run: '', exit: '1' }],
      [7, 'json', '{}', {}],
    ]);
    expect(parseDirectives('<!-- a plain comment -->')).toBeUndefined();
  });

  it('splits commands like a shell, with quotes and continuations', () => {
    expect(commandLines("$ uma-ts plan 'a b.txt' \\\n  --json\n# comment\nnpx uma-ts inspect \"m.tflite\"")).toEqual([
      ['uma-ts', 'plan', 'a b.txt', '--json'],
      ['npx', 'uma-ts', 'inspect', 'm.tflite'],
    ]);
  });

  it('matches documented output with ... lines and [..] wildcards, and rejects differences', () => {
    expect(matchesDocumented('a\nb\nc 12 ms\nd\n', 'a\n...\nc [..] ms\nd')).toBe(true);
    expect(matchesDocumented('a\nb\n', 'a\nc')).toBe(false);
    expect(matchesDocumented('a\nb\n', 'a')).toBe(false);
    expect(matchesDocumented('a  \n', 'a')).toBe(true);
  });
});
