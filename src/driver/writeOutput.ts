/**
 * The output directory of `uma-ts compile`: the MLF tree plus the memory report as
 * `report.json` (checked against `schemas/report.schema.json`), `report.svg`, `report.html`
 * and the planned TIR as `tir.txt`. Everything is rendered and checked in memory first and
 * then written in one atomic MLF write, so a failure leaves no directory behind.
 */
import * as fs from 'fs';
import * as path from 'path';
import { MLF_HOST_DIR_POSIX, RUNTIME_DIR } from '../codegen/layout';
import { ExtraOutputFile, MLF_HOST_DIR, writeFiles, writeModelLibraryFormat } from '../codegen/mlf';
import { StuckOutput, writeOwnedDirectory } from '../util/ownedOutputDir';
import { ApplicationMetadata, ApplicationResult } from './application';
import { validateJsonDocument } from '../config/validateJson';
import { CodegenError, ConfigError } from '../errors';
import { printModule } from '../ir/tir/printer';
import { renderLayoutHtml, renderLayoutSvg } from '../report/layoutSvg';
import { MemoryReport } from '../report/memoryReport';
import { CompileResult } from './compile';

export const REPORT_FILES = {
  json: 'report.json',
  svg: 'report.svg',
  html: 'report.html',
  tir: 'tir.txt',
} as const;

/** The report as report.json holds it; a schema failure is a compiler bug, not a user error. */
export function reportJson(report: MemoryReport): string {
  const data: unknown = JSON.parse(JSON.stringify(report));
  try {
    validateJsonDocument(data, 'report.schema.json', REPORT_FILES.json);
  } catch (e) {
    if (e instanceof ConfigError) throw new CodegenError(`generated ${e.message}`, e.context);
    throw e;
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** The files written next to the MLF tree, in a stable order. */
export function reportFiles(result: CompileResult): ExtraOutputFile[] {
  return [
    { name: REPORT_FILES.json, content: reportJson(result.report) },
    { name: REPORT_FILES.svg, content: `${renderLayoutSvg(result.report)}\n` },
    { name: REPORT_FILES.html, content: `${renderLayoutHtml(result.report)}\n` },
    { name: REPORT_FILES.tir, content: `${printModule(result.usmp.module)}\n` },
  ];
}

/**
 * Writes the whole compile output to `outDir` atomically (replacing a previous output); returns
 * the earlier outputs it could not remove (writeOwnedDirectory).
 */
export function writeCompileOutput(outDir: string, result: CompileResult): StuckOutput[] {
  return writeModelLibraryFormat(outDir, result.artifacts, reportFiles(result));
}

/** The application's report.json (schemas/application-report.schema.json): one section per model, the shared sizes. */
export function applicationReportJson(app: ApplicationResult): string {
  const data: unknown = JSON.parse(
    JSON.stringify({
      models: app.models.map((m) => ({ moduleName: m.artifacts.moduleName, report: m.report })),
      sharedPools: app.sharedPools,
      sharedWorkspaceBytes: app.sharedPools.reduce((a, p) => a + p.sizeBytes, 0),
    }),
  );
  try {
    validateJsonDocument(data, 'application-report.schema.json', REPORT_FILES.json);
  } catch (e) {
    if (e instanceof ConfigError) throw new CodegenError(`generated ${e.message}`, e.context);
    throw e;
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}

export function applicationMetadata(app: ApplicationResult): ApplicationMetadata {
  const cFiles = (root: string, files: readonly { path: string }[]): string[] => files.filter((f) => f.path.endsWith('.c')).map((f) => `${root}/${f.path}`);
  return {
    schemaVersion: 1,
    application: {
      models: app.models.map((m) => m.artifacts.moduleName),
      concurrent: app.concurrent,
      sharedPools: app.sharedPools,
      includeDirs: [`${MLF_HOST_DIR_POSIX}/include`, `${RUNTIME_DIR}/include`],
      appSources: cFiles(MLF_HOST_DIR_POSIX, app.appFiles),
      runtimeSources: cFiles(RUNTIME_DIR, app.runtimeFiles),
    },
    models: app.models.map((m) => m.artifacts.metadata),
  };
}

/**
 * Writes a several-model application to `outDir` atomically: every model's code in
 * codegen/host (its own prefix), uma_app.{h,c}, the runtime once, metadata.json and
 * report.json for the application, and per model its picture and TIR (`report_<mod>.svg`...).
 */
export function writeApplicationOutput(outDir: string, app: ApplicationResult): StuckOutput[] {
  const metadata: unknown = JSON.parse(JSON.stringify(applicationMetadata(app)));
  try {
    validateJsonDocument(metadata, 'application-metadata.schema.json', 'metadata.json');
  } catch (e) {
    if (e instanceof ConfigError) throw new CodegenError(`generated ${e.message}`, e.context);
    throw e;
  }
  const extra: ExtraOutputFile[] = [
    { name: 'metadata.json', content: `${JSON.stringify(metadata, null, 2)}\n` },
    { name: REPORT_FILES.json, content: applicationReportJson(app) },
    ...app.models.flatMap((m) => {
      const mod = m.artifacts.moduleName;
      return [
        { name: `report_${mod}.svg`, content: `${renderLayoutSvg(m.report)}\n` },
        { name: `report_${mod}.html`, content: `${renderLayoutHtml(m.report)}\n` },
        { name: `tir_${mod}.txt`, content: `${printModule(m.usmp.module)}\n` },
      ];
    }),
  ];
  const modelFiles = [...app.models.flatMap((m) => m.artifacts.files), ...app.appFiles];
  return writeOwnedDirectory(outDir, (dir) => {
    for (const f of extra) fs.writeFileSync(path.join(dir, f.name), f.content);
    writeFiles(dir, MLF_HOST_DIR, modelFiles);
    writeFiles(dir, RUNTIME_DIR, app.runtimeFiles);
  });
}
