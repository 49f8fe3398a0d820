/**
 * Every marked code block of the user documentation is checked against reality: `uma-ts`
 * commands run through the in-process CLI (exit code and documented output), JSON examples
 * validate against their schema, and blocks that show an example file equal (or appear in)
 * that file. Unmarked `uma-ts` or JSON blocks are errors, so nothing drifts unseen.
 */
import * as fs from 'fs';
import { CodeBlock, codeBlocks, commandLines, matchesDocumented } from './markdown';
import { CommandRun, DOC_FILES, runDocumentedCommand, schemaValidator } from './docFiles';

const where = (b: CodeBlock): string => `${b.file}:${b.line}`;
/** Where the documented commands write (`--out`, `--dir`); emptied first so reruns start clean. */
const DOC_OUTPUT_DIR = '/tmp/uma-ts-docs';

beforeAll(() => fs.rmSync(DOC_OUTPUT_DIR, { recursive: true, force: true }));
const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

describe.each(DOC_FILES)('%s', (doc) => {
  const blocks = fs.existsSync(doc) ? codeBlocks(doc) : [];

  it('exists and marks every uma-ts and JSON block', () => {
    expect(fs.existsSync(doc)).toBe(true);
    const unmarked = blocks
      .filter((b) => (SHELL.has(b.lang) && /\buma-ts\b/.test(b.text) && !b.directives.has('run') && !b.directives.has('norun')) ||
        (b.lang === 'json' && !b.directives.has('schema') && !b.directives.has('file') && !b.directives.has('excerpt')))
      .map(where);
    expect(unmarked).toEqual([]);
  });

  const fileBlocks = blocks.filter((b) => b.directives.has('file') || b.directives.has('excerpt'));
  if (fileBlocks.length > 0) {
    it.each(fileBlocks.map((b) => [where(b), b] as const))('%s shows the real example file', (_, b) => {
      const exact = b.directives.get('file');
      const path = exact ?? b.directives.get('excerpt')!;
      const content = fs.readFileSync(path, 'utf8');
      if (exact !== undefined) expect(b.text.trimEnd()).toBe(content.trimEnd());
      else expect(content).toContain(b.text);
    });
  }

  const jsonBlocks = blocks.filter((b) => b.directives.has('schema'));
  if (jsonBlocks.length > 0) {
    it.each(jsonBlocks.map((b) => [where(b), b] as const))('%s is valid against its schema', (_, b) => {
      const validate = schemaValidator(b.directives.get('schema')!);
      const ok = validate(JSON.parse(b.text));
      expect({ block: where(b), errors: ok ? null : validate.errors }).toEqual({ block: where(b), errors: null });
    });
  }

  // A run block and the output block that follows it form one test, in document order.
  const runs: { run: CodeBlock; output?: CodeBlock }[] = [];
  blocks.forEach((b, i) => {
    if (!b.directives.has('run')) return;
    const next = blocks[i + 1];
    runs.push({ run: b, ...(next?.directives.has('output') ? { output: next } : {}) });
  });
  if (runs.length > 0) {
    it.each(runs.map((r) => [where(r.run), r] as const))('%s runs as documented', async (_, { run, output }) => {
      const expectedCode = Number(run.directives.get('exit') ?? '0');
      const commands = commandLines(run.text);
      let last: CommandRun | undefined;
      for (const [k, words] of commands.entries()) {
        last = await runDocumentedCommand(words);
        // `exit=N` is about the last command; the ones before it must succeed. stderr is not
        // checked on success: compile reports its progress there.
        const wanted = k === commands.length - 1 ? expectedCode : 0;
        const command = last.argv.join(' ');
        expect({ command, code: last.code, ...(last.code !== wanted ? { stderr: last.stderr } : {}) }).toEqual({ command, code: wanted });
      }
      expect(last).toBeDefined();
      if (output) {
        const actual = expectedCode === 0 ? last!.stdout : last!.stderr;
        if (!matchesDocumented(actual, output.text)) {
          throw new Error(`${where(output)}: documented output differs from the real one:\n--- documented\n${output.text}\n--- actual\n${actual}`);
        }
      }
    });
  }

  const orphanOutputs = blocks.filter((b, i) => b.directives.has('output') && !blocks[i - 1]?.directives.has('run'));
  it('has no output block without a run block right before it', () => {
    expect(orphanOutputs.map(where)).toEqual([]);
  });
});
