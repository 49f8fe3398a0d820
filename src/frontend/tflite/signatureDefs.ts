/**
 * The model's `signature_defs`, checked before import. uma-ts compiles subgraph 0 by its own
 * input and output lists and reads no signature, but a signature naming a subgraph the file
 * lacks, a tensor index past its subgraph's tensors, other input/output counts than its
 * subgraph has, or a tensor that is not one of the subgraph's inputs (outputs) as a signature
 * input (output) is a damaged file: LiteRT refuses to load it (model_load.cc, "Signature does
 * not refer to a valid subgraph index" and the like), so uma-ts refuses it too, rather than
 * compile a file the runtime it stands in for rejects.
 */
import { modelFormatError } from './flatbuf';
import { Model, SubGraph } from './schema';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function checkSignatureDefs(model: Model, subgraphs: readonly SubGraph[], source: string): void {
  const signatures = model.signatureDefs;
  signatures.forEach((sig, i) => {
    const key = sig.signatureKey;
    const label = `signature def #${i}${key === null ? '' : ` ${JSON.stringify(key)}`}`;
    const fail = (problem: string): never => {
      throw modelFormatError(source, sig.pos, `${label} ${problem} (LiteRT refuses such a file)`);
    };
    const index = sig.subgraphIndex;
    if (index >= subgraphs.length) fail(`names subgraph ${index}, but the model has ${plural(subgraphs.length, 'subgraph')}`);
    const subgraph = subgraphs[index];
    const tensorCount = subgraph.tensors.length;
    const inputs = sig.inputs;
    const outputs = sig.outputs;
    for (const [role, maps] of [['input', inputs], ['output', outputs]] as const) {
      for (const m of maps) {
        const t = m.tensorIndex;
        if (t >= tensorCount) fail(`${role} ${JSON.stringify(m.name)} names tensor ${t}, but subgraph ${index} has ${plural(tensorCount, 'tensor')}`);
      }
    }
    const own = { input: subgraph.inputs, output: subgraph.outputs };
    if (inputs.length !== own.input.length || outputs.length !== own.output.length) {
      fail(
        `lists ${plural(inputs.length, 'input')} and ${plural(outputs.length, 'output')}, but subgraph ${index} has ` +
          `${plural(own.input.length, 'input')} and ${plural(own.output.length, 'output')}`,
      );
    }
    // LiteRT maps each signature name to one of the subgraph's own inputs or outputs, and fails
    // to compile a model whose signature names another tensor ("Input name ... was not found").
    for (const [role, maps] of [['input', inputs], ['output', outputs]] as const) {
      for (const m of maps) {
        if (!own[role].includes(m.tensorIndex)) fail(`${role} ${JSON.stringify(m.name)} names tensor ${m.tensorIndex}, which is not ${role === 'input' ? 'an input' : 'an output'} of subgraph ${index}`);
      }
    }
  });
}
