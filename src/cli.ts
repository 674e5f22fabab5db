/**
 * `npm run -s cli -- <command>`; prints JSON on stdout.
 *   org:create --name NAME                                   → {"organization_id", "api_key"}
 *   user:create --org ID --email EMAIL --password PASSWORD   → {"user_id"}
 *   org:delete --org ID                                      → {"deleted": true}  (everything it owns)
 *   user:delete --user ID                                    → {"deleted": true}
 *   demo:ensure --file PATH                                  → the quickstart demo (src/quickstart/demo-setup.ts), also
 *                                                              written to PATH (mode 0600); needs BOOTSTRAP_ORG_API_KEY
 *   secrets:rewrap                                           → {"rewrapped", "unreadable"}: stored secrets (webhook signing
 *                                                              secrets and agent secrets, counted together) re-sealed with
 *                                                              the first of ENCRYPTION_KEYS (docs/security.md, key rotation)
 * Deletions are announced to running instances, which refuse the deleted credentials at once.
 */
import './config/env-file.js';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppError } from './common/errors/app-error.js';
import { loadConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { entities } from './entities.js';
import { SqlModule } from './database/sql.module.js';
import { RedisModule } from './common/redis/redis.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { CredentialsRepository } from './modules/auth/credentials.repository.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { QueueModule } from './queue/queue.module.js';
import { OrganizationsModule } from './modules/organizations/organizations.module.js';
import { OrganizationsService } from './modules/organizations/organizations.service.js';
import { AgentsModule } from './modules/agents/agents.module.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { KeysModule } from './modules/keys/keys.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { IdempotencyModule } from './modules/idempotency/idempotency.module.js';
import { KeysService } from './modules/keys/keys.service.js';
import { ProjectsService } from './modules/projects/projects.service.js';
import { VersionsService } from './modules/versions/versions.service.js';
import { WebhookSecretsRewrap } from './modules/webhooks/webhook-secrets.js';
import { WebhookSecretsModule } from './modules/webhooks/webhook-secrets.module.js';
import { AgentSecretsStoreModule } from './modules/agent-secrets/agent-secrets-store.module.js';
import { AgentSecretsStore } from './modules/agent-secrets/agent-secrets.store.js';
import { OutboundModule } from './common/outbound/outbound.module.js';
import { ensureDemo } from './quickstart/demo-setup.js';

const USAGE = `usage:
  cli org:create --name NAME
  cli user:create --org ORGANIZATION_ID --email EMAIL --password PASSWORD
  cli org:delete --org ORGANIZATION_ID
  cli user:delete --user USER_ID
  cli demo:ensure --file PATH      (with BOOTSTRAP_ORG_API_KEY set)
  cli secrets:rewrap               (after putting a new key first in ENCRYPTION_KEYS)`;
const COMMANDS = ['org:create', 'user:create', 'org:delete', 'user:delete', 'demo:ensure', 'secrets:rewrap'];

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    org: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    user: { type: 'string' },
    file: { type: 'string' },
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
if (command === 'demo:ensure' && !values.file) fail(`demo:ensure needs --file\n${USAGE}`);

const config = loadConfig();
const orgApiKey = config.bootstrap.orgApiKey;
if (command === 'demo:ensure' && !orgApiKey) fail('demo:ensure needs BOOTSTRAP_ORG_API_KEY: the demo belongs to that organization');

// The demo needs the management modules (and the global ones their services and guards use: metrics reads the
// queues; a push may contact MCP servers: outbound); secrets:rewrap the tables of sealed secrets; the other commands
// only organizations.
const commandModules: Record<string, Type[]> = {
  'demo:ensure': [
    SqlModule,
    RedisModule,
    QueueModule,
    MetricsModule,
    OutboundModule,
    AuthModule,
    AuditModule,
    IdempotencyModule,
    AgentsModule,
    KeysModule,
  ],
  'secrets:rewrap': [SqlModule, WebhookSecretsModule, AgentSecretsStoreModule],
};

@Module({})
class CliModule {
  static register(): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(entities), OrganizationsModule, ...(commandModules[command!] ?? [])],
    };
  }
}

const app = await NestFactory.createApplicationContext(CliModule.register(), { logger: ['error'] });
try {
  const organizations = app.get(OrganizationsService);
  const run: Record<string, () => Promise<unknown>> = {
    'org:create': () => organizations.createOrganization(values.name!),
    'user:create': () => organizations.createUser(values.org!, values.email!, values.password!),
    'org:delete': () => organizations.deleteOrganization(values.org!).then(() => ({ deleted: true })),
    'user:delete': () => organizations.deleteUser(values.user!).then(() => ({ deleted: true })),
    'demo:ensure': () =>
      ensureDemo(
        {
          credentials: app.get(CredentialsRepository),
          organizations,
          projects: app.get(ProjectsService),
          agents: app.get(AgentsService),
          versions: app.get(VersionsService),
          keys: app.get(KeysService),
        },
        config.bootstrap.orgName,
        orgApiKey!,
        values.file!,
      ),
    'secrets:rewrap': async () => {
      const webhooks = await app.get(WebhookSecretsRewrap).rewrapAll();
      const agents = await app.get(AgentSecretsStore).rewrapAll();
      return { rewrapped: webhooks.rewrapped + agents.rewrapped, unreadable: webhooks.unreadable + agents.unreadable };
    },
  };
  const result = await run[command!]!();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  if (error instanceof AppError) fail(JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } }), 1);
  throw error;
} finally {
  await app.close();
}
