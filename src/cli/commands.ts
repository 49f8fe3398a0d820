/**
 * The CLI's command list: each command lives in its own file and exports
 * `register(program, io)`. Add a command by adding one line here.
 */
import { Command } from 'commander';
import { CliIO } from './io';
import { register as inspect } from './inspect';
import { register as plan } from './plan';
import { register as compile } from './compile';
import { register as explainPools } from './explainPools';
import { register as newBackend } from './newBackend';
import { register as run } from './run';

export type RegisterCommand = (program: Command, io: CliIO) => void;

export const COMMANDS: readonly RegisterCommand[] = [
  inspect,
  plan,
  compile,
  explainPools,
  newBackend,
  run,
];
