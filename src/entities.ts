import { AgentEntity } from './modules/agent-records/agent.entity.js';
import { AgentApiKeyEntity } from './modules/auth/entities/agent-api-key.entity.js';
import { OrganizationApiKeyEntity } from './modules/organizations/entities/organization-api-key.entity.js';
import { PublishableKeyEntity } from './modules/auth/entities/publishable-key.entity.js';
import { UserEntity } from './modules/organizations/entities/user.entity.js';
import { OrganizationEntity } from './modules/organizations/organization.entity.js';
import { ProjectEntity } from './modules/projects/project.entity.js';
import { AgentVersionEntity } from './modules/versions/entities/agent-version.entity.js';
import { AgentRevisionEntity } from './modules/versions/entities/agent-revision.entity.js';
import { SenderEntity } from './modules/channels/entities/sender.entity.js';
import { ChannelUnroutedMessageEntity } from './modules/channels/entities/channel-unrouted-message.entity.js';
import { PassageEmbeddingEntity } from './modules/runtime/embeddings/passage-embedding.entity.js';
import { AuditEventEntity } from './modules/audit/audit-event.entity.js';

/**
 * Every TypeORM entity, as classes: given to DatabaseModule.forRoot by the composition roots (the application, the
 * CLI), so that the database layer imports no feature module. A module that adds an entity adds it here.
 */
export const entities = [
  OrganizationEntity,
  OrganizationApiKeyEntity,
  UserEntity,
  ProjectEntity,
  AgentEntity,
  PublishableKeyEntity,
  AgentApiKeyEntity,
  AgentVersionEntity,
  AgentRevisionEntity,
  SenderEntity,
  ChannelUnroutedMessageEntity,
  PassageEmbeddingEntity,
  AuditEventEntity,
];
