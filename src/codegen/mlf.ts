/**
 * Model Library Format-like output directory:
 *
 *   metadata.json
 *   codegen/host/include/tvmgen_<mod>.h
 *   codegen/host/src/<mod>_lib0.c (entry), <mod>_lib1.c (host), <mod>_lib2.c… (offloaded)
 *   runtime/include/uma_runtime.h, uma_ref_kernels.h, backend runtime headers
 *   runtime/src/uma_ref_kernels.c, backend runtime sources (model-independent: link one copy)
 *
 * plus the `.uma-ts-output` marker that lets a later compile replace it. Everything is
 * written to a sibling temp dir and renamed into place (util/ownedOutputDir), so a failure
 * never leaves a partial directory behind.
 */
import * as fs from 'fs';
import * as path from 'path';
import { schemaErrors } from '../config/validateJson';
import { CodegenError } from '../errors';
import { StuckOutput, writeOwnedDirectory } from '../util/ownedOutputDir';
import { RUNTIME_DIR } from './layout';
import { CArtifacts, GeneratedFile } from './types';

export const MLF_HOST_DIR = path.join('codegen', 'host');

function checkMetadata(artifacts: CArtifacts): void {
  const errors = schemaErrors(artifacts.metadata, 'metadata.schema.json');
  if (errors !== undefined) {
    const e = errors[0];
    throw new CodegenError(`generated metadata.json is invalid: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim(), {
      jsonPath: e?.instancePath || '/',
    });
  }
}

function checkRelativePath(p: string): void {
  const norm = path.posix.normalize(p);
  if (path.posix.isAbsolute(norm) || norm.startsWith('..') || !/^(src|include)\//.test(norm)) {
    throw new CodegenError(`generated file path ${p} escapes {src,include}`);
  }
}

/** A file written next to metadata.json (reports, printed IR), part of the same atomic write. */
export interface ExtraOutputFile {
  /** A plain file name: no directory part. */
  readonly name: string;
  readonly content: string;
}

function checkExtraFiles(extraFiles: readonly ExtraOutputFile[]): void {
  const seen = new Set<string>();
  for (const f of extraFiles) {
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(f.name) || ['metadata.json', 'codegen', RUNTIME_DIR].includes(f.name)) {
      throw new CodegenError(`extra output file name '${f.name}' must be a plain file name other than metadata.json/codegen/${RUNTIME_DIR}`);
    }
    if (seen.has(f.name)) throw new CodegenError(`extra output file ${f.name} is written twice`);
    seen.add(f.name);
  }
}

function writeTree(root: string, artifacts: CArtifacts, extraFiles: readonly ExtraOutputFile[]): void {
  fs.writeFileSync(path.join(root, 'metadata.json'), `${JSON.stringify(artifacts.metadata, null, 2)}\n`);
  for (const f of extraFiles) fs.writeFileSync(path.join(root, f.name), f.content);
  writeFiles(root, MLF_HOST_DIR, artifacts.files);
  writeFiles(root, RUNTIME_DIR, artifacts.runtimeFiles);
}

/** Writes `files` under `root/sub/{src,include}`; exported for writers of several models in one directory. */
export function writeFiles(root: string, sub: string, files: readonly GeneratedFile[]): void {
  for (const d of ['src', 'include']) fs.mkdirSync(path.join(root, sub, d), { recursive: true });
  const written = new Set<string>();
  for (const f of files) {
    checkRelativePath(f.path);
    if (written.has(f.path)) throw new CodegenError(`generated file ${sub}/${f.path} is written twice`);
    written.add(f.path);
    fs.writeFileSync(path.join(root, sub, ...f.path.split('/')), f.content);
  }
}

/**
 * Writes `artifacts` as an MLF directory at `outDir` (replacing only a previous uma-ts
 * output, see util/ownedOutputDir), with `extraFiles` at its top level.
 */
export function writeModelLibraryFormat(
  outDir: string,
  artifacts: CArtifacts,
  extraFiles: readonly ExtraOutputFile[] = [],
): StuckOutput[] {
  checkMetadata(artifacts);
  checkExtraFiles(extraFiles);
  return writeOwnedDirectory(outDir, (dir) => writeTree(dir, artifacts, extraFiles));
}

/** Reads back an MLF directory written by `writeModelLibraryFormat` (metadata checked by schema). */
export function readModelLibraryFormat(dir: string): CArtifacts {
  const metaFile = path.join(dir, 'metadata.json');
  let metadata: CArtifacts['metadata'];
  try {
    metadata = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as CArtifacts['metadata'];
  } catch (e) {
    throw new CodegenError(`cannot read ${metaFile}: ${(e as Error).message}`, { file: metaFile });
  }
  const errors = schemaErrors(metadata, 'metadata.schema.json');
  if (errors !== undefined) {
    throw new CodegenError(`${metaFile} is invalid: ${errors[0]?.instancePath || '/'} ${errors[0]?.message ?? ''}`.trim(), { file: metaFile });
  }
  const readTree = (top: string): GeneratedFile[] => {
    const files: GeneratedFile[] = [];
    for (const sub of ['include', 'src']) {
      const root = path.join(dir, top, sub);
      if (!fs.existsSync(root)) continue;
      for (const name of fs.readdirSync(root).sort()) files.push({ path: `${sub}/${name}`, content: fs.readFileSync(path.join(root, name), 'utf8') });
    }
    return files;
  };
  return { moduleName: metadata.modelName, files: readTree(MLF_HOST_DIR), runtimeFiles: readTree(RUNTIME_DIR), metadata };
}
