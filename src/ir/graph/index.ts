export * from './types';
export * from './ops';
