export * from './targetAttrs';
export * from './passes';
export * from './codegen';
export * from './memory';
export * from './manifest';
export * from './umaBackend';
export * from './registry';
export * from './tirRewrite';
