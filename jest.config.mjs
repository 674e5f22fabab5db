// Jest in native-ESM mode (Nest 12 is ESM-only).
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  setupFiles: ['<rootDir>/test/env.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
    // CJS dependencies require() these ESM-only packages; Jest's loader on Node < 24.9 cannot, so transpile them.
    '^.+/node_modules/(cookie|content-disposition)/.+\\.js$': [
      'ts-jest',
      { useESM: true, tsconfig: { allowJs: true, module: 'nodenext', isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(cookie|content-disposition)/)'],
  testTimeout: 30000,
  maxWorkers: 2,
  // Each ESM test file leaves its module graph in the worker; over 130 files a worker ran out of heap (CI, 2026-11-27):
  // a worker above this after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '1GB',
};
