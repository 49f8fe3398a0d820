/** Type checking runs once in `npm run typecheck`; ts-jest only transpiles, which keeps the suite fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src', '<rootDir>/backends', '<rootDir>/passes'],
  testMatch: ['**/*.test.ts'],
  // Examples written as a user would (docs/examples import 'uma-ts') use this checkout's API.
  moduleNameMapper: { '^uma-ts$': '<rootDir>/src/index.ts' },
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, diagnostics: false }] },
  testTimeout: 120000,
};
