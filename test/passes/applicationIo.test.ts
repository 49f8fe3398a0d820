/**
 * Model I/O planned in the workspace is written (inputs) and read (outputs) by the
 * application on the CPU, whatever target computes with it: a pool the CPU cannot reach
 * that way is no place for it, even when the accelerator using it in place prefers one.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { CPU_STRATEGIES, UmaBackend } from '../../src';
import { compileModel } from '../../src/driver/compile';
import { PoolConstraintError } from '../../src/errors';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { parsePins } from '../../passes/poolPinning/pinsFile';
import { PoolInfo } from '../../src/usmp/types';

const MODEL = 'models/hello_world_int8.tflite';

class DenseEverywhere extends UmaBackend {
  readonly targetName = 'dsp';
  constructor() {
    super();
    this.registerSupportedOp('dense');
    this.registerOperatorStrategy('dense', CPU_STRATEGIES.get('dense')!);
    this.registerCodegen({ includes: () => '' });
    this.registerMemory({ pools: [{ pool: 'dsp_ram', access: 'rw' }], operandConstraints: [] });
  }
}

function pool(name: string, targetAccess: PoolInfo['targetAccess'], kind: PoolInfo['kind'] = 'workspace'): PoolInfo {
  return { name, kind, targetAccess, alignment: 16, internal: true };
}

describe('model I/O in the workspace', () => {
  const registry = new BackendRegistry();
  registry.register(DenseEverywhere);
  const compile = (dspRam: PoolInfo['targetAccess']) =>
    compileModel(MODEL, {
      backend: 'dsp',
      registry,
      ioInWorkspace: true,
      pools: [pool('sram', { c: 'rw' }), pool('dsp_ram', dspRam), pool('flash', { c: 'ro', dsp: 'ro' }, 'constant')],
    });

  it('is refused in a pool the CPU cannot write, naming the application as the writer', () => {
    // Before, the input went to dsp_ram (the only pool the accelerator reaches) and the
    // generated run() copied the application's input into it on the CPU.
    let error: unknown;
    try {
      compile({ dsp: 'rw', c: 'ro' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PoolConstraintError);
    const message = (error as Error).message;
    expect(message).toMatch(/^no memory pool satisfies every constraint on buffer 'serving_default_dense_input_0'/);
    expect(message).toContain('  - written by the application (model input, target c): allows {sram}');
    expect(message).toContain("or instead target 'c' read-write access to 'dsp_ram' (it has ro)");
  });

  it('may be read back from a pool the CPU only reads (outputs), and written where it writes (inputs)', () => {
    const result = compile({ dsp: 'rw', c: 'rw' });
    const io = result.pinning!.decisions.filter((d) => d.buffer.io !== undefined);
    expect(io.map((d) => [d.buffer.io, d.candidates])).toEqual([
      ['input', ['dsp_ram']],
      ['output', ['dsp_ram']],
    ]);
    const steps = io.map((d) => d.steps.find((s) => s.description.includes('by the application'))!);
    expect(steps.map((s) => [s.needs, s.allowed])).toEqual([
      ['rw', ['sram', 'dsp_ram']],
      ['ro', ['sram', 'dsp_ram']],
    ]);
  });
});

describe('model I/O pinned by its graph tensor name', () => {
  const main = loadTfliteFile(MODEL).functions.get('main')!;
  const [input] = main.params;
  const [output] = main.outputs;
  const pools = [pool('sram', { c: 'rw' }), pool('shared', { c: 'rw' }), pool('flash', { c: 'ro' }, 'constant')];
  class HostOnly extends UmaBackend {
    readonly targetName = 'host_only';
  }
  const registry = new BackendRegistry();
  registry.register(HostOnly);
  const compile = (ioInWorkspace: boolean) => compileModel(MODEL, { backend: 'host_only', registry, pools, pins, ioInWorkspace });
  const pins = parsePins(JSON.stringify({ pins: [{ tensor: input, pools: ['shared'] }, { tensor: output, pools: ['shared'] }] }), 'pins.json');

  it('binds the input and output planned in the workspace (before: "matches no buffer"; only C names matched)', () => {
    expect(input).toMatch(/:0$/);
    const result = compile(true);
    const io = result.pinning!.decisions.filter((d) => d.buffer.io !== undefined);
    expect(io.map((d) => [d.buffer.tensor, d.candidates])).toEqual([
      [input, ['shared']],
      [output, ['shared']],
    ]);
  });

  it('says the application owns it when I/O is not in the workspace, naming it as the model does', () => {
    expect(() => compile(false)).toThrow(
      `pins.json #0: tensor '${input}' (${input.replace(':', '_')} in C) is a model input/output owned by the application; it can be pinned to a pool only when I/O is planned in the workspace (--io-in-workspace)`,
    );
  });
});
