import { Command } from 'commander';
import { commandsFor } from '../../src/cli/commands';
import { memoryIO } from '../../src/cli/io';

async function registeredNames(name?: string): Promise<string[]> {
  const program = new Command();
  for (const register of await commandsFor(name)) register(program, memoryIO());
  return program.commands.map((c) => c.name());
}

describe('commandsFor', () => {
  it('loads only the command named on the line (plan does not load the pipeline)', async () => {
    expect(await registeredNames('plan')).toEqual(['plan']);
    expect(await registeredNames('explain-pools')).toEqual(['explain-pools']);
  });

  it('loads every command, in help order, for help or an unknown name', async () => {
    const all = ['inspect', 'plan', 'compile', 'explain-pools', 'new-backend', 'run'];
    expect(await registeredNames()).toEqual(all);
    expect(await registeredNames('help')).toEqual(all);
    expect(await registeredNames('--help')).toEqual(all);
    expect(await registeredNames('bogus')).toEqual(all);
  });
});
