export { backendNames, toSnakeCase } from './names';
export type { BackendNames } from './names';
export { TEMPLATE_FILES } from './templates';
export type { TemplateFile } from './templates';
export { relativeApiImport, renderBackendFiles, umaPackageRoot, writeBackendSkeleton } from './writer';
export type { NewBackendOptions, NewBackendResult } from './writer';
