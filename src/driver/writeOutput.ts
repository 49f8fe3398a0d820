/**
 * The output directory of `uma-ts compile`: the MLF tree plus the memory report as
 * `report.json` (checked against `schemas/report.schema.json`), `report.svg`, `report.html`
 * and the planned TIR as `tir.txt`. Everything is rendered and checked in memory first and
 * then written in one atomic MLF write, so a failure leaves no directory behind.
 */
import { ExtraOutputFile, writeModelLibraryFormat } from '../codegen/mlf';
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

/** Writes the whole compile output to `outDir` atomically (replacing a previous output). */
export function writeCompileOutput(outDir: string, result: CompileResult): void {
  writeModelLibraryFormat(outDir, result.artifacts, reportFiles(result));
}
