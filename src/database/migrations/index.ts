import { Foundation1732240000000 } from './1732240000000-foundation.js';
import { AgentVersions1732240100000 } from './1732240100000-agent-versions.js';
import { ThreadsInteractions1732240200000 } from './1732240200000-threads-interactions.js';
import { Events1732240300000 } from './1732240300000-events.js';
import { ThreadIndexes1732240400000 } from './1732240400000-thread-indexes.js';
import { Channels1732240500000 } from './1732240500000-channels.js';
import { InteractionPayloads1732240600000 } from './1732240600000-interaction-payloads.js';
import { ChannelUnroutedMessages1732240712000 } from './1732240712000-channel-unrouted-messages.js';
import { AgentsOfDeletedProjects1732240800000 } from './1732240800000-agents-of-deleted-projects.js';
import { UsageRollupOrganizationDelete1732240900000 } from './1732240900000-usage-rollup-organization-delete.js';
import { PassageEmbeddings1732241600000 } from './1732241600000-passage-embeddings.js';
import { IdempotencyKeys1732241700000 } from './1732241700000-idempotency-keys.js';
import { TrafficSplits1732241900000 } from './1732241900000-traffic-splits.js';
import { AuditEvents1732242000000 } from './1732242000000-audit-events.js';
import { ThreadRetention1732242100000 } from './1732242100000-thread-retention.js';
import { Webhooks1732242200000 } from './1732242200000-webhooks.js';
import { ThreadUserAgentIndex1732242450000 } from './1732242450000-thread-user-agent-index.js';
import { WebhookFairness1732242600000 } from './1732242600000-webhook-fairness.js';
import { WebhookSecretsSealed1732242700000 } from './1732242700000-webhook-secrets-sealed.js';
import { EventLeases1732242800000 } from './1732242800000-event-leases.js';
import { ThreadItems1732242900000 } from './1732242900000-thread-items.js';
import { AgentSecrets1732243100000 } from './1732243100000-agent-secrets.js';
import { McpToolPins1732243110000 } from './1732243110000-mcp-tool-pins.js';

/** Every migration, in order. Passed as classes, not globs (ESM: TypeORM cannot load migration globs). */
export const migrations = [
  Foundation1732240000000,
  AgentVersions1732240100000,
  ThreadsInteractions1732240200000,
  Events1732240300000,
  ThreadIndexes1732240400000,
  Channels1732240500000,
  InteractionPayloads1732240600000,
  ChannelUnroutedMessages1732240712000,
  AgentsOfDeletedProjects1732240800000,
  UsageRollupOrganizationDelete1732240900000,
  PassageEmbeddings1732241600000,
  IdempotencyKeys1732241700000,
  TrafficSplits1732241900000,
  AuditEvents1732242000000,
  ThreadRetention1732242100000,
  Webhooks1732242200000,
  ThreadUserAgentIndex1732242450000,
  WebhookFairness1732242600000,
  WebhookSecretsSealed1732242700000,
  EventLeases1732242800000,
  ThreadItems1732242900000,
  AgentSecrets1732243100000,
  McpToolPins1732243110000,
];
