/** The user documentation whose examples are tested, and the helpers the doc tests share. */
import Ajv, { ValidateFunction } from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { main } from '../../src/cli/main';
import { memoryIO } from '../../src/cli/io';

export const DOC_FILES = [
  'docs/tutorial-first-backend.md',
  'docs/pool-pinning.md',
  'docs/memory-planner.md',
  'docs/reference.md',
] as const;

export const SCHEMA_DIR = 'schemas';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
let schemasAdded = false;

export function schemaValidator(name: string): ValidateFunction {
  // Every schema known first, so a $ref into another file resolves whatever the order.
  if (!schemasAdded) {
    for (const f of fs.readdirSync(SCHEMA_DIR).filter((x) => x.endsWith('.schema.json')).sort()) {
      ajv.addSchema(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, f), 'utf8')), f);
    }
    schemasAdded = true;
  }
  let v = validators.get(name);
  if (!v) {
    v = ajv.getSchema(name) as ValidateFunction;
    validators.set(name, v);
  }
  return v;
}

export interface CommandRun {
  readonly argv: readonly string[];
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const joinChunks = (chunks: readonly string[]): string => chunks.map((c) => (c.endsWith('\n') ? c : c + '\n')).join('');

/** `uma-ts ...` or `npx uma-ts ...` as written in the docs, run in-process; other commands are refused. */
export async function runDocumentedCommand(words: readonly string[]): Promise<CommandRun> {
  const argv = words[0] === 'npx' ? words.slice(1) : words;
  if (argv[0] !== 'uma-ts') throw new Error(`a runnable block may only hold uma-ts commands, got '${words.join(' ')}'`);
  const io = memoryIO();
  const code = await main(['node', ...argv], io);
  return { argv, code, stdout: joinChunks(io.stdout), stderr: joinChunks(io.stderr) };
}
