/**
 * What a backend's operand constraint binds: the operators its own target runs (not the
 * same operators the host keeps), and, for a composite, the composite's operands (its
 * arguments, then its own constants; its result), also when the target lowers it operator
 * by operator, never the tensors between the operators inside it.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { CPU_STRATEGIES, isConstant, isOp, optionalArg, UmaBackend, wildcard } from '../../src';
import { compileModel, CompileResult } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { readOperatorRecords } from '../../src/ir/tir/operators';
import { PoolInfo } from '../../src/usmp/types';

const MODEL = 'models/kws_ref_model.tflite';

function pool(name: string, targetAccess: PoolInfo['targetAccess'], kind: PoolInfo['kind'] = 'workspace'): PoolInfo {
  return { name, kind, targetAccess, alignment: 16, internal: true };
}

/** Candidate pools of every buffer the plan holds, by buffer name (function-qualified keys dropped). */
function candidatesOf(result: CompileResult, bufferName: string): readonly string[] {
  const hits = result.pinning!.decisions.filter((d) => d.buffer.name === bufferName);
  expect(hits).toHaveLength(1);
  return hits[0].candidates;
}

describe('a composite lowered operator by operator', () => {
  class FcSoftmax extends UmaBackend {
    readonly targetName = 'fx';
    constructor() {
      super();
      this.registerPattern('fc_softmax', isOp('softmax')(isOp('dense')(wildcard(), isConstant(), optionalArg(isConstant()))).hasDtype('int8'));
      for (const op of ['dense', 'softmax']) this.registerOperatorStrategy(op, CPU_STRATEGIES.get(op)!);
      this.registerCodegen({ includes: () => '' });
      this.registerMemory({
        pools: [
          { pool: 'fx_act', access: 'rw' },
          { pool: 'fx_out', access: 'rw' },
        ],
        operandConstraints: [{ op: 'fx.fc_softmax', inputs: { 0: ['fx_act'] }, outputs: { 0: ['fx_out'] } }],
      });
    }
  }
  const registry = new BackendRegistry();
  registry.register(FcSoftmax);
  const pools = [pool('sram', { c: 'rw' }), pool('fx_act', { c: 'rw', fx: 'rw' }), pool('fx_out', { c: 'rw', fx: 'rw' }), pool('flash', { c: 'ro', fx: 'ro' }, 'constant')];

  it("binds the composite's input and output, not the tensor between its dense and its softmax", () => {
    // Before, input 0 of the softmax inside (the dense's output) had to be in fx_act and, as
    // output 0 of the dense, in fx_out: no pool satisfied both.
    const result = compileModel(MODEL, { backend: 'fx', registry, pools, ioInWorkspace: true });
    const [fn] = [...result.tir.functions.values()].filter((f) => f.attrs.target === 'fx');
    const records = readOperatorRecords(fn);
    expect(records.map((r) => [r.op, r.partOf])).toEqual([
      ['dense', 'fx.fc_softmax'],
      ['softmax', 'fx.fc_softmax'],
      ['fx.fc_softmax', undefined],
    ]);
    const [dense, , composite] = records;
    expect(composite.inputs[0]).toBe(dense.inputs[0]);
    expect(composite.inputs.slice(1)).toEqual(dense.inputs.slice(1));
    // The composite's input is main's buffer passed in, its output the model output.
    const passed = result.pinning!.decisions.filter((d) => d.buffer.func === '__tvm_main__' && d.buffer.origin !== 'constant' && d.targets.includes('fx'));
    expect(passed.map((d) => d.candidates).sort()).toEqual([['fx_act'], ['fx_out']]);
    // The tensor between the operators lives inside the offloaded function, free to use both shared pools.
    expect([...candidatesOf(result, dense.outputs[0])].sort()).toEqual(['fx_act', 'fx_out']);
  }, 60000);
});

describe("a backend's constraint on an operator it offloads only sometimes", () => {
  const graph = loadTfliteFile(MODEL);
  const convs = graph.functions.get('main')!.nodes.filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'conv2d');
  const offloaded = convs[0].name;

  class FirstConvOnly extends UmaBackend {
    readonly targetName = 'rconv';
    constructor() {
      super();
      this.registerSupportedOp('conv2d', (call) => call.name === offloaded);
      this.registerOperatorStrategy('conv2d', CPU_STRATEGIES.get('conv2d')!);
      this.registerCodegen({ includes: () => '' });
      this.registerMemory({
        pools: [
          { pool: 'act_mem', access: 'rw' },
          { pool: 'wei_mem', access: 'ro' },
        ],
        operandConstraints: [{ op: 'conv2d', inputs: { 1: ['wei_mem'] }, outputs: { 0: ['act_mem'] } }],
      });
    }
  }
  const registry = new BackendRegistry();
  registry.register(FirstConvOnly);

  it('binds the conv2d its target runs and leaves the host conv2d to the host pools', () => {
    expect(convs.length).toBeGreaterThan(1);
    // wei_mem is the accelerator's only: the host's convolutions could not read their weights
    // there, which the constraint demanded of them before.
    const pools = [pool('l2_mem', { c: 'rw' }), pool('act_mem', { c: 'rw', rconv: 'rw' }), pool('flash', { c: 'ro' }, 'constant'), pool('wei_mem', { rconv: 'ro' }, 'constant')];
    const result = compileModel(MODEL, { backend: 'rconv', registry, pools });
    const host = result.pinning!.decisions.filter((d) => d.targets.length === 1 && d.targets[0] === 'c');
    const hostConvOutputs = host.filter((d) => d.buffer.tensor !== undefined && convs.slice(1).some((c) => c.name === d.buffer.tensor));
    expect(hostConvOutputs.length).toBe(convs.length - 1);
    for (const d of hostConvOutputs) expect(d.candidates).toContain('l2_mem');
    const accel = result.pinning!.decisions.filter((d) => d.targets.includes('rconv'));
    const weights = accel.filter((d) => d.buffer.origin === 'constant');
    expect(weights.length).toBeGreaterThan(0);
    for (const d of weights) expect(d.candidates).toEqual(['wei_mem']);
    expect(accel.find((d) => d.buffer.tensor === offloaded)?.candidates).toEqual(['act_mem']);
  }, 60000);
});
