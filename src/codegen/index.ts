export * from './types';
export { generateC } from './c/generate';
export { writeModelLibraryFormat } from './mlf';
