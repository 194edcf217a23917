/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  setupFiles: ['reflect-metadata'],
  // One migrated template database per run; each file's database is a copy of it
  // (test/support/test-database.ts), not initdb plus every migration again.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Each test file starts its own database (an embedded one takes a few seconds). The limit is
  // there to end a hung test, not to time one: a busy 2-core CI machine runs several times slower.
  testTimeout: 180_000,
  // Three on two cores: a file on the embedded database spends part of its time waiting for that
  // database, which runs in a child process of its own, and a third worker uses that time (the
  // embedded suite took 528 s with two workers and 461 s with three, on this 2-core machine).
  maxWorkers: 3,
};
