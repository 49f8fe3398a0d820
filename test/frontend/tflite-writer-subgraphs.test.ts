/** The writer's several subgraphs, resource tensors and VarHandle/CallOnce options, read back with the importer's schema accessors. */
import { ModelFormatError } from '../../src/errors';
import { BuiltinOptionsType, CallOnceOptions, IfOptions, Model, TensorTypeCode, VarHandleOptions, WhileOptions } from '../../src/frontend/tflite/schema';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { errorOf } from '../helpers/errorOf';

describe('TfliteWriter subgraphs', () => {
  const w = new TfliteWriter('d', 'main');
  const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
  w.markOutput(x);
  const init = w.addSubgraph('init');
  const h = init.addTensor({ name: 'h', shape: [], dtype: 'resource' });
  init.addOperator({ op: 'VAR_HANDLE', inputs: [], outputs: [h], options: tfliteOptions.varHandle({ sharedName: 'acc', container: 'box' }) });
  const c = init.addConstant({ name: 'c', shape: [2], dtype: 'float32', data: [1, 2] });
  init.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [h, c], outputs: [] });
  const h0 = w.addTensor({ name: 'h0', shape: [], dtype: 'resource' });
  w.addOperator({ op: 'CALL_ONCE', inputs: [], outputs: [], options: tfliteOptions.callOnce(init.index) });
  w.addOperator({ op: 'VAR_HANDLE', inputs: [], outputs: [h0], options: tfliteOptions.varHandle({ sharedName: 'acc' }) });
  const model = Model.open(w.finish(), 'sub.tflite');

  it('writes every subgraph in order with its own tensors and operators', () => {
    expect(init.index).toBe(1);
    expect(model.subgraphs.map((s) => s.name)).toEqual(['main', 'init']);
    expect(model.subgraphs.map((s) => s.tensors.map((t) => t.name))).toEqual([['x', 'h0'], ['h', 'c']]);
    expect(model.subgraphs[1].inputs).toEqual([]);
    // operator codes are shared: VAR_HANDLE once for both subgraphs
    expect(model.operatorCodes.map((oc) => oc.effectiveBuiltinCode).sort((a, b) => a - b)).toEqual([129, 142, 144]);
    // the init constant has a buffer of its own
    const buffer = model.buffers[model.subgraphs[1].tensors[1].buffer];
    expect(Array.from(new Float32Array(buffer.data!.slice().buffer))).toEqual([1, 2]);
  });

  it('resource tensors and the VarHandle / CallOnce options read back', () => {
    expect(model.subgraphs[1].tensors[0].type).toBe(TensorTypeCode.RESOURCE);
    const [callOnce, varHandle] = model.subgraphs[0].operators;
    expect(callOnce.builtinOptions(CallOnceOptions)!.initSubgraphIndex).toBe(1);
    const main = varHandle.builtinOptions(VarHandleOptions)!;
    expect([main.container, main.sharedName]).toEqual([null, 'acc']);
    const inInit = model.subgraphs[1].operators[0].builtinOptions(VarHandleOptions)!;
    expect([inInit.container, inInit.sharedName]).toEqual(['box', 'acc']);
  });

  it('refuses constant data on a resource tensor', () => {
    const bad = new TfliteWriter();
    bad.addConstant({ name: 'r', shape: [1], dtype: 'resource', data: [1] });
    const e = errorOf(() => bad.finish());
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toContain("tensor 'r' is a resource handle");
  });

  it('WhileOptions and IfOptions read back', () => {
    const cf = new TfliteWriter();
    const c = cf.addInput({ name: 'c', shape: [1], dtype: 'bool' });
    cf.addOperator({ op: 'WHILE', inputs: [c], outputs: [cf.addTensor({ name: 'w', shape: [1], dtype: 'bool' })], options: tfliteOptions.while({ cond: 3, body: 5 }) });
    cf.addOperator({ op: 'IF', inputs: [c], outputs: [], options: tfliteOptions.if({ then: 2, else: 7 }) });
    const [whileOp, ifOp] = Model.open(cf.finish(), 'cf.tflite').subgraphs[0].operators;
    expect(whileOp.builtinOptionsType).toBe(BuiltinOptionsType.WhileOptions);
    const w = whileOp.builtinOptions(WhileOptions)!;
    expect([w.condSubgraphIndex, w.bodySubgraphIndex]).toEqual([3, 5]);
    expect(ifOp.builtinOptionsType).toBe(BuiltinOptionsType.IfOptions);
    const i = ifOp.builtinOptions(IfOptions)!;
    expect([i.thenSubgraphIndex, i.elseSubgraphIndex]).toEqual([2, 7]);
  });
});
