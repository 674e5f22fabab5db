/**
 * Imported first by the entry points (main, worker, cli): reads `.env` from the working directory into
 * `process.env` before any configuration is read. Variables already set in the environment win. Skipped under
 * NODE_ENV=test, so a developer's `.env` never leaks into the test suite.
 */
import { existsSync } from 'node:fs';

const ENV_FILE = '.env';

if (process.env.NODE_ENV !== 'test' && existsSync(ENV_FILE)) process.loadEnvFile(ENV_FILE);
