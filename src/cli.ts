/**
 * `npm run -s cli -- <command>`; prints JSON on stdout.
 *   org:create --name NAME                                   → {"organization_id", "api_key"}
 *   user:create --org ID --email EMAIL --password PASSWORD   → {"user_id"}
 *   org:delete --org ID                                      → {"deleted": true}  (everything it owns)
 *   user:delete --user ID                                    → {"deleted": true}
 * Deletions are announced to running instances, which refuse the deleted credentials at once.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppError } from './common/errors/app-error.js';
import { loadConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { OrganizationsModule } from './modules/organizations/organizations.module.js';
import { OrganizationsService } from './modules/organizations/organizations.service.js';

const USAGE = `usage:
  cli org:create --name NAME
  cli user:create --org ORGANIZATION_ID --email EMAIL --password PASSWORD
  cli org:delete --org ORGANIZATION_ID
  cli user:delete --user USER_ID`;
const COMMANDS = ['org:create', 'user:create', 'org:delete', 'user:delete'];

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    org: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    user: { type: 'string' },
  },
});

const fail = (message: string, code = 2): never => {
  process.stderr.write(`${message}\n`);
  process.exit(code);
};

const command = positionals[0];
if (!command || !COMMANDS.includes(command)) fail(USAGE);
if (command === 'org:create' && !values.name) fail(`org:create needs --name\n${USAGE}`);
if (command === 'user:create' && (!values.org || !values.email || !values.password)) {
  fail(`user:create needs --org, --email and --password\n${USAGE}`);
}
if (command === 'org:delete' && !values.org) fail(`org:delete needs --org\n${USAGE}`);
if (command === 'user:delete' && !values.user) fail(`user:delete needs --user\n${USAGE}`);

const config = loadConfig();

@Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, OrganizationsModule] })
class CliModule {}

const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
try {
  const organizations = app.get(OrganizationsService);
  const run: Record<string, () => Promise<unknown>> = {
    'org:create': () => organizations.createOrganization(values.name!),
    'user:create': () => organizations.createUser(values.org!, values.email!, values.password!),
    'org:delete': () => organizations.deleteOrganization(values.org!).then(() => ({ deleted: true })),
    'user:delete': () => organizations.deleteUser(values.user!).then(() => ({ deleted: true })),
  };
  const result = await run[command!]!();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  if (error instanceof AppError) fail(JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } }), 1);
  throw error;
} finally {
  await app.close();
}
