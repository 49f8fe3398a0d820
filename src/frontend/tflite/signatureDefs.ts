/**
 * The model's `signature_defs`, checked before import. uma-ts compiles subgraph 0 by its own
 * input and output lists and reads no signature, but a signature naming a subgraph the file
 * lacks, a tensor index past its subgraph's tensors, or other input/output counts than its
 * subgraph has is a damaged file: LiteRT refuses to load it (model_load.cc, "Signature does
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
    const want = [subgraph.inputs.length, subgraph.outputs.length];
    if (inputs.length !== want[0] || outputs.length !== want[1]) {
      fail(
        `lists ${plural(inputs.length, 'input')} and ${plural(outputs.length, 'output')}, but subgraph ${index} has ` +
          `${plural(want[0], 'input')} and ${plural(want[1], 'output')}`,
      );
    }
  });
}
