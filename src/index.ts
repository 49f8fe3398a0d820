/**
 * The public API of uma-ts. Example backends (backends/) and user code import only from here.
 */
export * from './errors';
export * from './ir/graph';
export * as tir from './ir/tir';
export * from './usmp/types';
export * from './lower/strategy';
export * from './arith/fixedpoint';
export { importTflite, loadTfliteFile } from './frontend/tflite';
