/**
 * The CLI's command list: each command lives in its own file and exports
 * `register(program, io)`. Add a command by adding one line here.
 *
 * Commands are loaded on demand. `compile`, `run` and `explain-pools` pull in the whole
 * pipeline (importer, lowering, codegen: about 0.1 s of module loading), which `uma-ts plan`
 * does not need; so a command named on the command line is loaded alone, and help or an
 * unknown name loads them all.
 */
import { Command } from 'commander';
import { CliIO } from './io';

export type RegisterCommand = (program: Command, io: CliIO) => void;

const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<RegisterCommand>]> = [
  ['inspect', async () => (await import('./inspect')).register],
  ['plan', async () => (await import('./plan')).register],
  ['compile', async () => (await import('./compile')).register],
  ['explain-pools', async () => (await import('./explainPools')).register],
  ['new-backend', async () => (await import('./newBackend')).register],
  ['run', async () => (await import('./run')).register],
];

/** The commands to register for a command line whose first word is `name`, in help order. */
export async function commandsFor(name?: string): Promise<RegisterCommand[]> {
  const named = COMMANDS.filter(([n]) => n === name);
  return Promise.all((named.length > 0 ? named : COMMANDS).map(([, load]) => load()));
}
