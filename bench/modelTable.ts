/**
 * The model table of `npm run bench`: every bundled model compiled host-only, its workspace
 * without and with model I/O (`--io-in-workspace`), the tensor-level lower bound (TFLite
 * Micro's arena count, with I/O), TFLite Micro's measured activation arena where issue 12
 * lists it, the workspace of the previous design (padded input copies, same issue) and the
 * generated C's inference time (median of repeated runs of the gcc -O2 build). A workspace
 * with I/O above TFLite Micro's arena, or above the bound where the plan's own bound equals
 * it, is a failed check.
 *
 * The `vanilla` column compiles with the bundled backend that offloads every operator it
 * can into merged regions (one pool, as host-only): its buffers' live ranges come from the
 * offloaded functions' own statements, so a workspace above host-only's is a failed check
 * (a call's arguments once counted as live across the whole call, +12.5% on a MobileNetV2).
 */
import * as fs from 'fs';
import * as path from 'path';
import { BackendRegistry } from '../src/backend/registry';
import { UmaBackend } from '../src/backend/umaBackend';
import { compileModel, CompileResult } from '../src/driver/compile';
import { registerExampleBackends } from '../backends';
import { measureInference } from './inference';

/** A backend that offloads nothing: every operator on the host CPU strategies. */
class HostOnlyBackend extends UmaBackend {
  readonly targetName = 'host_only';
}

/**
 * TFLite Micro's activation arena and uma-ts's workspace before padding moved into the loop
 * nest, both with model I/O in the arena, as measured in issue 12 (TFLite Micro's reference
 * kernels, same models).
 */
export const ISSUE_12_FIGURES: Readonly<Record<string, { tflmArena: number; paddedCopyWorkspace: number }>> = {
  person_detect: { tflmArena: 55296, paddedCopyWorkspace: 84496 },
  vww_96_int8: { tflmArena: 73728, paddedCopyWorkspace: 84496 },
  kws_ref_model: { tflmArena: 16000, paddedCopyWorkspace: 28096 },
  pretrainedResnet_quant: { tflmArena: 49152, paddedCopyWorkspace: 67648 },
  micro_speech_quantized: { tflmArena: 5968, paddedCopyWorkspace: 8640 },
  pretrainedResnet: { tflmArena: 196608, paddedCopyWorkspace: 270592 },
  vww_96_float: { tflmArena: 294912, paddedCopyWorkspace: 337984 },
};

export interface ModelRow {
  readonly model: string;
  readonly workspace?: number;
  readonly workspaceWithIo?: number;
  /** Workspace with I/O under the bundled `vanilla` backend (merged offloaded regions). */
  readonly vanillaWithIo?: number;
  readonly tensorBound?: number;
  readonly planBound?: number;
  readonly inferenceUs?: number;
  readonly error?: string;
}

/** Inferences timed per model: enough for a stable median, few enough for the big models. */
const RUNS = 15;

function workspaceBytes(r: CompileResult): number {
  return r.report.workspace.sizeBytes;
}

export function modelRow(file: string, registry: BackendRegistry): ModelRow {
  const model = path.basename(file, '.tflite');
  try {
    const plain = compileModel(file, { backend: 'host_only', registry });
    const withIo = compileModel(file, { backend: 'host_only', registry, ioInWorkspace: true });
    const vanilla = compileModel(file, { backend: 'vanilla', registry, ioInWorkspace: true });
    return {
      model,
      workspace: workspaceBytes(plain),
      workspaceWithIo: workspaceBytes(withIo),
      vanillaWithIo: workspaceBytes(vanilla),
      tensorBound: withIo.report.workspace.tensorLowerBoundBytes ?? undefined,
      planBound: withIo.report.workspace.planLowerBoundBytes,
      inferenceUs: measureInference(plain, RUNS).medianUs,
    };
  } catch (e) {
    // Operator names in imported models are long: keep the end of the message, which says what failed.
    const message = (e as Error).message.split('\n')[0];
    return { model, error: message.length > 90 ? `…${message.slice(-90)}` : message };
  }
}

/** Prints the table; returns the failed checks. */
export function runModelTable(modelsDir: string): string[] {
  const registry = new BackendRegistry();
  registry.register(HostOnlyBackend);
  registerExampleBackends(registry);
  const files = fs
    .readdirSync(modelsDir)
    .filter((f) => f.endsWith('.tflite'))
    .sort()
    .map((f) => path.join(modelsDir, f));
  const rows = files.map((f) => modelRow(f, registry));
  const failures: string[] = [];
  const cell = (v: number | undefined) => (v === undefined ? '—' : String(v));
  console.log('');
  console.log('## Bundled models, host only (bytes; time = median of the gcc -O2 build)');
  console.log('');
  console.log('| model | workspace | workspace with I/O | vanilla backend, with I/O | tensor-level bound (with I/O) | TFLM arena (issue 12) | before: padded copies (issue 12) | inference (µs) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const issue = ISSUE_12_FIGURES[r.model];
    if (r.error !== undefined) {
      console.log(`| ${r.model} | — | — | — | — | ${cell(issue?.tflmArena)} | ${cell(issue?.paddedCopyWorkspace)} | not compiled: ${r.error.replace(/\|/g, '/')} |`);
      if (issue) failures.push(`${r.model}: ${r.error}`);
      continue;
    }
    const ratio = issue ? ` (${((100 * r.workspaceWithIo!) / issue.paddedCopyWorkspace).toFixed(0)}%)` : '';
    console.log(
      `| ${r.model} | ${r.workspace} | ${r.workspaceWithIo}${ratio} | ${r.vanillaWithIo} | ${cell(r.tensorBound)} | ${cell(issue?.tflmArena)} | ${cell(issue?.paddedCopyWorkspace)} | ${r.inferenceUs!.toFixed(0)} |`,
    );
    if (issue && r.workspaceWithIo! > issue.tflmArena) failures.push(`${r.model}: workspace with I/O ${r.workspaceWithIo} B > TFLite Micro's ${issue.tflmArena} B`);
    if (r.vanillaWithIo! > r.workspaceWithIo!) failures.push(`${r.model}: workspace with I/O under vanilla ${r.vanillaWithIo} B > host-only's ${r.workspaceWithIo} B`);
    if (r.tensorBound !== undefined && r.planBound! <= r.tensorBound && r.workspaceWithIo! > r.tensorBound) {
      failures.push(`${r.model}: workspace with I/O ${r.workspaceWithIo} B misses the tensor-level bound ${r.tensorBound} B (the plan's own bound is ${r.planBound} B)`);
    }
  }
  return failures;
}
