export * from './nodes';
export * from './builder';
export * from './visitor';
export * from './mutator';
