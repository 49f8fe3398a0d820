/**
 * Real TFLite Micro models lowered for the CPU, run by the TIR evaluator and compared byte for
 * byte with the reference interpreter on seeded random inputs.
 */
import { join } from 'path';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { LoweringError } from '../../src/errors';
import { IRModule, MAIN_FUNCTION, VarNode } from '../../src/ir/graph/types';
import { lowerForCpu, randomTensor, rng, runBoth } from './helpers';

function modelInputs(module: IRModule, seed: number): Uint8Array[] {
  const main = module.functions.get(MAIN_FUNCTION)!;
  const r = rng(seed);
  return main.params.map((p) => randomTensor(r, (main.nodes.find((n) => n.name === p) as VarNode).type));
}

const MODELS = process.env.LOWER_MODELS?.split(',') ?? [
  'hello_world_int8',
  'hello_world_float',
  'micro_speech_quantized',
  'ad01_int8',
  'ad01_fp32',
  'kws_ref_model',
  'person_detect',
  'vww_96_int8',
  'simple_add_model',
  'str_ww_ref_model',
  'pretrainedResnet_quant',
];

describe.each(MODELS)('%s', (name) => {
  it('matches the reference interpreter byte for byte', () => {
    const module = loadTfliteFile(join(__dirname, '../../models', `${name}.tflite`));
    const { lowered, reference } = runBoth(module, modelInputs(module, 1234));
    expect(lowered.length).toBe(reference.length);
    lowered.forEach((o, i) => expect(Buffer.from(o).equals(Buffer.from(reference[i]))).toBe(true));
  });
});

it('rejects hybrid float-activation / int8-weight convolutions, which TFLite Micro has no kernel for', () => {
  const module = loadTfliteFile(join(__dirname, '../../models/kws_ref_model_float32.tflite'));
  expect(() => lowerForCpu(module)).toThrow(LoweringError);
  expect(() => lowerForCpu(module)).toThrow(/conv2d: unsupported dtype int8/);
});
