/**
 * Issue 12's regression guard, computed by compiling: host-only with model I/O in the
 * workspace, every model the issue measured needs at most TFLite Micro's activation arena,
 * no operator makes a padded copy of its input, and the plan reaches the tensor-level lower
 * bound (what TFLite Micro's planner counts) wherever its own bound allows.
 */
import { ISSUE_12_FIGURES } from '../../bench/modelTable';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { collectAllocates } from '../../src/ir/tir/analysis';

class HostOnly extends UmaBackend {
  readonly targetName = 'host_only';
}

describe('workspace against TFLite Micro (issue 12)', () => {
  const registry = new BackendRegistry();
  registry.register(HostOnly);

  it.each(Object.entries(ISSUE_12_FIGURES))('%s: at most the TFLM arena, no padded copy, at the tensor-level bound', (model, figures) => {
    const result = compileModel(`models/${model}.tflite`, { backend: 'host_only', registry, ioInWorkspace: true });
    const ws = result.report.workspace;
    expect(ws.ioCounted).toBe(true);
    expect(ws.sizeBytes).toBeLessThanOrEqual(figures.tflmArena);
    expect(ws.sizeBytes).toBeLessThan(figures.paddedCopyWorkspace);
    const padded = [...result.tir.functions.values()].flatMap((f) => collectAllocates(f.body).map((a) => a.bufferVar.name)).filter((n) => n.endsWith('_pad'));
    expect(padded).toEqual([]);
    // No operator scratch in the workspace: the plan's own bound is the tensor-level one (or below, with in-place reuse).
    expect(ws.planLowerBoundBytes).toBeLessThanOrEqual(ws.tensorLowerBoundBytes!);
    expect(ws.sizeBytes).toBeLessThanOrEqual(ws.tensorLowerBoundBytes!);
  });
});
