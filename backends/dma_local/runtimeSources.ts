/**
 * dma_local's C runtime as files shipped with the generated code; found next to this module
 * or, from the compiled `dist/` tree, in the package's `backends/dma_local/runtime`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CodegenError } from '../../src/index';

export const DMA_RUNTIME_HEADER = 'dma_local_runtime.h';
export const DMA_RUNTIME_SOURCE = 'dma_local_runtime.c';

const CANDIDATE_DIRS = [path.join(__dirname, 'runtime'), path.join(__dirname, '..', '..', '..', 'backends', 'dma_local', 'runtime')];

export function dmaRuntimeDir(): string {
  const dir = CANDIDATE_DIRS.find((d) => fs.existsSync(path.join(d, DMA_RUNTIME_HEADER)));
  if (dir === undefined) throw new CodegenError(`dma_local runtime ${DMA_RUNTIME_HEADER} not found (looked in ${CANDIDATE_DIRS.join(', ')})`, { target: 'dma_local' });
  return dir;
}

export function dmaRuntimeSources(): { name: string; content: string }[] {
  const dir = dmaRuntimeDir();
  return [DMA_RUNTIME_HEADER, DMA_RUNTIME_SOURCE].map((name) => ({ name, content: fs.readFileSync(path.join(dir, name), 'utf8') }));
}
