/**
 * Every elementwise case compiled through the whole pipeline (host CPU, USMP, C codegen)
 * into one program, built with strict gcc and run: each output byte equals the reference
 * interpreter's. The cases share one build (gcc is slow on the shared cores).
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { interpret } from '../../src/interpreter';
import { FunctionBuilder, moduleOf } from '../../src/ir/graph/builder';
import { IRModule } from '../../src/ir/graph/types';
import { expectRunsByteExact } from '../e2e/harness';
import { elementwiseCases, OpCase } from './elementwiseCases';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

/** All cases side by side in one main: case k's inputs are `c<k>_x<i>`, its output `c<k>_y`. */
function combine(cases: readonly OpCase[]): { module: IRModule; inputs: Uint8Array[] } {
  const b = new FunctionBuilder();
  const outputs: string[] = [];
  cases.forEach((c, k) => {
    const main = c.module.functions.get('main')!;
    const rename = (n: string): string => `c${k}_${n}`;
    for (const node of main.nodes) {
      if (node.kind === 'var') b.param(rename(node.name), node.type);
      else if (node.kind === 'call' && node.callee.kind === 'op') {
        b.call(rename(node.name), node.callee.op, node.args.map(rename), node.type, node.attrs);
      }
    }
    outputs.push(...main.outputs.map(rename));
  });
  return { module: moduleOf([b.build(outputs)]), inputs: cases.flatMap((c) => c.inputs) };
}

describe('elementwise operators: generated C vs interpreter under gcc', () => {
  it('every case in one program, byte for byte', () => {
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const { module, inputs } = combine(elementwiseCases());
    const result = compileModel(module, { backend: 'nothing', registry });
    expectRunsByteExact(result, inputs, interpret(module, inputs));
  });
});
