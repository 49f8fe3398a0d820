export * from './types';
export { generateC } from './c/generate';
export { readModelLibraryFormat, writeModelLibraryFormat } from './mlf';
