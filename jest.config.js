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
  // On the embedded database three workers on two cores: a file spends part of its time waiting
  // for its database, which runs in a child process of its own, and a third worker uses that time
  // (528 s with two, 461 s with three). On a PostgreSQL server, whose processes want the same two
  // cores, two (394 s against 440 s). Measured on this 2-core machine, the whole suite each time.
  maxWorkers: process.env.TEST_DATABASE_URL ? 2 : 3,
};
