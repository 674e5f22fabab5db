/** `npm run migration:run`: applies pending migrations and exits. */
import '../config/env-file.js';
import 'reflect-metadata';
import { loadConfig } from '../config/app-config.js';
import { migrate } from './data-source.js';

const applied = await migrate(loadConfig());
process.stdout.write(`${JSON.stringify({ applied })}\n`);
