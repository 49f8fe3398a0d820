/**
 * docs/reference.md against the code: the commands and flags between the cli-reference
 * markers are exactly those the commander definitions of src/cli/*.ts register (per command),
 * and every schema in schemas/ has a validated example.
 */
import * as fs from 'fs';
import { Command } from 'commander';
import { commandsFor } from '../../src/cli/commands';
import { memoryIO } from '../../src/cli/io';
import { codeBlocks } from './markdown';
import { SCHEMA_DIR } from './docFiles';

const DOC = 'docs/reference.md';
const text = fs.readFileSync(DOC, 'utf8');

function cliSection(): string {
  const start = text.indexOf('<!-- cli-reference:start -->');
  const end = text.indexOf('<!-- cli-reference:end -->');
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

/** The commands the CLI defines, each with its long flags (help excluded). */
async function definedCommands(): Promise<Map<string, Set<string>>> {
  const program = new Command();
  for (const register of await commandsFor()) register(program, memoryIO());
  return new Map(program.commands.map((c) => [c.name(), new Set(c.options.map((o) => o.long!).filter(Boolean))]));
}

/** `### \`uma-ts <name> ...\`` sections of the CLI part, with the flags each mentions. */
function documentedCommands(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const parts = cliSection().split(/^### /m).slice(1);
  for (const part of parts) {
    const m = /^`uma-ts ([a-z-]+)/.exec(part);
    if (!m) continue;
    // Flags in the prose and tables, not in example commands (those are run by examples.test.ts).
    const prose = part.replace(/```[\s\S]*?```/g, '');
    out.set(m[1], new Set([...prose.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((x) => x[0])));
  }
  return out;
}

describe('reference.md', () => {
  it('documents every command the CLI defines, and no other', async () => {
    expect([...documentedCommands().keys()].sort()).toEqual([...(await definedCommands()).keys()].sort());
  });

  it('lists, for every command, exactly the flags commander defines for it', async () => {
    const documented = documentedCommands();
    for (const [name, flags] of await definedCommands()) {
      const shown = documented.get(name) ?? new Set<string>();
      shown.delete('--help');
      expect({ command: name, missing: [...flags].filter((f) => !shown.has(f)).sort() }).toEqual({ command: name, missing: [] });
      expect({ command: name, unknown: [...shown].filter((f) => !flags.has(f)).sort() }).toEqual({ command: name, unknown: [] });
    }
  });

  it('has a schema-validated example for every schema in schemas/', () => {
    const schemas = fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort();
    const examples = new Set(codeBlocks(DOC, text).map((b) => b.directives.get('schema')).filter((s): s is string => s !== undefined));
    expect(schemas.filter((s) => !examples.has(s))).toEqual([]);
    expect([...examples].filter((s) => !schemas.includes(s))).toEqual([]);
  });
});
