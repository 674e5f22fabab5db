/** Runs in each worker before any test module is imported: the app's configuration comes from here. */
const worker = process.env.JEST_WORKER_ID ?? '1';
const pattern = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (global setup sets it)`);
  return value.replace('WORKERID', worker);
};

Object.assign(process.env, {
  NODE_ENV: 'test',
  DATABASE_URL: pattern('TEST_DATABASE_URL_PATTERN'),
  DATABASE_POOL_SIZE: '10',
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0',
  REDIS_KEY_PREFIX: pattern('TEST_REDIS_PREFIX_PATTERN'),
  MIGRATE_ON_START: 'false',
  // An ephemeral metrics port: child processes of tests (second instances, the worker) never collide on 9464.
  METRICS_PORT: '0',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  // Child processes stop at once on SIGTERM; the drain's own test sets a period.
  SHUTDOWN_DRAIN_MS: '0',
  JWT_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
  // Tests run operators' receivers and tool endpoints on local servers.
  OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
});

export {};
