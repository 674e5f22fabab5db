import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { BusModule } from './common/bus/bus.module.js';
import { BusRelayModule } from './common/bus/bus-relay.module.js';
import { RedisModule } from './common/redis/redis.module.js';
import { DatabaseModule } from './database/database.module.js';
import { entities } from './entities.js';
import { SqlModule } from './database/sql.module.js';
import { QueueModule } from './queue/queue.module.js';
import { JobRunnerModule } from './queue/job-runner.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { OrganizationsModule } from './modules/organizations/organizations.module.js';
import { ProjectsModule } from './modules/projects/projects.module.js';
import { BundlesModule } from './modules/bundles/bundles.module.js';
import { VersionsModule } from './modules/versions/versions.module.js';
import { AgentsModule } from './modules/agents/agents.module.js';
import { KeysModule } from './modules/keys/keys.module.js';
import { AgentSecretsModule } from './modules/agent-secrets/agent-secrets.module.js';
import { McpServerModule } from './modules/mcp-server/mcp-server.module.js';
import { RuntimeModule } from './modules/runtime/runtime.module.js';
import { MessagingModule } from './modules/messaging/messaging.module.js';
import { StreamingModule } from './modules/streaming/streaming.module.js';
import { EventsModule } from './modules/events/events.module.js';
import { EventsWorkerModule } from './modules/events/events-worker.module.js';
import { ChannelsModule } from './modules/channels/channels.module.js';
import { ChannelsWorkerModule } from './modules/channels/channels-worker.module.js';
import { ThreadsModule } from './modules/threads/threads.module.js';
import { TracesModule } from './modules/traces/traces.module.js';
import { UsageModule } from './modules/usage/usage.module.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { KnowledgeModule } from './modules/knowledge/knowledge.module.js';
import { IdempotencyModule } from './modules/idempotency/idempotency.module.js';
import { WebhooksModule } from './modules/webhooks/webhooks.module.js';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module.js';
import { OutboundModule } from './common/outbound/outbound.module.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { RetentionModule } from './modules/retention/retention.module.js';
import { RetentionWorkerModule } from './modules/retention/retention-worker.module.js';

/**
 * Infrastructure first, then the feature modules in the order the spec introduces them, and the worker modules (the
 * handlers of the jobs that run on workers, src/queue/job-map.ts) where this process runs them (WORKERS=on, the
 * default, and `npm run worker`).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(entities),
        SqlModule,
        RedisModule,
        BusModule,
        BusRelayModule,
        QueueModule,
        JobRunnerModule,
        MetricsModule,
        AuthModule,
        HealthModule,
        OrganizationsModule,
        ProjectsModule,
        BundlesModule,
        VersionsModule,
        AgentsModule,
        KeysModule,
        AgentSecretsModule,
        RuntimeModule,
        MessagingModule,
        McpServerModule,
        StreamingModule,
        EventsModule,
        ChannelsModule,
        ThreadsModule,
        TracesModule,
        UsageModule,
        ...(config.workersEnabled ? [EventsWorkerModule, ChannelsWorkerModule] : []),
        KnowledgeModule,
        IdempotencyModule,
        WebhooksModule,
        ...(config.workersEnabled ? [WebhooksWorkerModule] : []),
        OutboundModule,
        AuditModule,
        RetentionModule,
        ...(config.workersEnabled ? [RetentionWorkerModule] : []),
      ],
    };
  }
}
