export * from './constraints';
export * from './traceOperands';
export * from './solve';
export * from './annotate';
export * from './explain';
export * from './postPlanCheck';
export * from './pinsFile';
export * from './pass';
