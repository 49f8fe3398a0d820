/**
 * The fenced code blocks of a Markdown file and the `<!-- ... -->` directives written on the
 * line right above them. Directives (space separated, see docs/reference.md, "Examples in
 * these docs are tested"):
 *   run            the block's `uma-ts ...` lines are executed; `exit=N` expects exit code N (default 0)
 *   norun          an `sh` block that is deliberately not executed (needs gcc, npm, a device ...)
 *   output         the expected output of the last command of the previous `run` block
 *   schema=NAME    a JSON block valid against schemas/NAME
 *   file=PATH      the block is exactly the file PATH (repo-relative)
 *   excerpt=PATH   the block appears verbatim in the file PATH
 */
import * as fs from 'fs';

export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  readonly directives: ReadonlyMap<string, string>;
}

const DIRECTIVE = /^<!--\s*((?:run|norun|output|exit=\S+|schema=\S+|file=\S+|excerpt=\S+)(?:\s+(?:run|norun|output|exit=\S+|schema=\S+|file=\S+|excerpt=\S+))*)\s*-->$/;

export function parseDirectives(comment: string): Map<string, string> | undefined {
  const m = DIRECTIVE.exec(comment.trim());
  if (!m) return undefined;
  const out = new Map<string, string>();
  for (const token of m[1].split(/\s+/)) {
    const eq = token.indexOf('=');
    if (eq < 0) out.set(token, '');
    else out.set(token.slice(0, eq), token.slice(eq + 1));
  }
  return out;
}

export function codeBlocks(file: string, text = fs.readFileSync(file, 'utf8')): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith(fence)) body.push(lines[j++]);
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: unterminated code block`);
    const above = i > 0 ? parseDirectives(lines[i - 1]) : undefined;
    blocks.push({ file, line: i + 1, lang: open[2], text: body.join('\n'), directives: above ?? new Map() });
    i = j;
  }
  return blocks;
}

/** Shell-like words: whitespace separated, '...' and "..." quote, backslash-newline continues. */
export function commandLines(script: string): string[][] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  const commands: string[][] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/^\$\s+/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const words: string[] = [];
    const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line)) !== null) words.push(m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]));
    commands.push(words);
  }
  return commands;
}

/**
 * Compares actual output with a documented one: trailing spaces are ignored, a line `...`
 * matches any number of lines, and `[..]` inside a line matches any text.
 */
export function matchesDocumented(actual: string, documented: string): boolean {
  const a = actual.replace(/\s+$/, '').split('\n').map((l) => l.trimEnd());
  const d = documented.replace(/\s+$/, '').split('\n').map((l) => l.trimEnd());
  const lineMatches = (pattern: string, line: string): boolean => {
    if (!pattern.includes('[..]')) return pattern === line;
    const re = new RegExp('^' + pattern.split('[..]').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
    return re.test(line);
  };
  const match = (i: number, j: number): boolean => {
    if (j === d.length) return i === a.length;
    if (d[j] === '...') {
      for (let k = i; k <= a.length; k++) if (match(k, j + 1)) return true;
      return false;
    }
    return i < a.length && lineMatches(d[j], a[i]) && match(i + 1, j + 1);
  };
  return match(0, 0);
}
