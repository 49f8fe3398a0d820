/** Type checking runs once in `npm run typecheck`; ts-jest only transpiles, which keeps the suite fast. */
const os = require('node:os');

module.exports = {
  // Many suites spend their time waiting on child processes (gcc, the CLI, LiteRT's runner), so
  // two workers share two cores well: the whole suite from a fresh clone 1,011 s -> 557 s on a
  // 2-core VM, where jest's default (one fewer worker than cores) ran one.
  maxWorkers: Math.max(2, (os.availableParallelism ? os.availableParallelism() : os.cpus().length) - 1),
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src', '<rootDir>/backends', '<rootDir>/passes'],
  testMatch: ['**/*.test.ts'],
  // Examples written as a user would (docs/examples import 'uma-ts') use this checkout's API.
  moduleNameMapper: { '^uma-ts$': '<rootDir>/src/index.ts' },
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  testTimeout: 120000,
};
