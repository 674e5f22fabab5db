import { EventBus } from '../../common/bus/event-bus.js';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { AgentsService } from '../agents/agents.service.js';
import { ApiKeysRepository } from '../auth/api-keys.repository.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import type { Principal } from '../auth/principal.js';
import { generateSecret, hashSecret, secretPrefix } from '../auth/secrets.js';
import {
  ListKeysQueryDto,
  toAgentApiKeyResponse,
  toPublishableKeyResponse,
  type AgentApiKeyResponseDto,
  type CreatedAgentApiKeyResponseDto,
  type CreatedPublishableKeyResponseDto,
  type CreatePublishableKeyDto,
  type PublishableKeyResponseDto,
} from './dto/key.dto.js';
import { normalizeIpRanges, normalizeOrigins } from './key-restrictions.js';

/**
 * Publishable keys (client code; exchanged for messaging tokens) and agent API keys (events webhook), per agent.
 * Secrets are shown once and stored as SHA-256 hashes. Revoking sets `revoked_at` and announces it (CredentialChanges):
 * the key, and every token minted from it, is refused at once on this instance and within a second on every other.
 * Revoked keys no longer appear in listings.
 */
@Injectable()
export class KeysService {
  constructor(
    private readonly agents: AgentsService,
    private readonly changes: CredentialChanges,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    private readonly keys: ApiKeysRepository,
  ) {}

  async createPublishableKey(who: Principal, agentId: string, dto: CreatePublishableKeyDto): Promise<CreatedPublishableKeyResponseDto> {
    const allowedOrigins = normalizeOrigins(dto.allowed_origins);
    const allowedIpRanges = normalizeIpRanges(dto.allowed_ip_ranges);
    const secret = generateSecret('pk');
    const key = await this.unitOfWork.run(async () => {
      const agent = await this.agents.getVisible(who.organizationId, agentId, 'share');
      const created = await this.keys.insert('publishable', {
        id: newId(),
        organizationId: agent.organizationId,
        agentId: agent.id,
        keyHash: hashSecret(secret),
        keyPrefix: secretPrefix(secret),
        allowedOrigins,
        allowedIpRanges,
        revokedAt: null,
        createdAt: new Date(),
      });
      // The prefix (shown in listings) identifies the key; the secret and its hash are never recorded.
      await this.bus.publish('publishable_key.create', {
        actor: who,
        resourceType: 'publishable_key',
        resourceId: created.id,
        after: { agent_id: agent.id, key_prefix: created.keyPrefix, allowed_origins: allowedOrigins, allowed_ip_ranges: allowedIpRanges },
      });
      return created;
    });
    return { ...toPublishableKeyResponse(key), publishable_key: secret };
  }

  async listPublishableKeys(
    who: Principal,
    agentId: string,
    query: ListKeysQueryDto,
    request: PageRequest,
  ): Promise<Page<PublishableKeyResponseDto>> {
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    return this.keys.page('publishable', agent.id, query, LIST_DEFAULTS, request, toPublishableKeyResponse);
  }

  async revokePublishableKey(who: Principal, agentId: string, keyId: string): Promise<void> {
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    await this.changes.commit(agent.organizationId, async () => {
      if (!(await this.keys.revoke('publishable', agent.id, keyId))) throw new NotFoundError('Publishable key');
      await this.bus.publish('publishable_key.revoke', {
        actor: who,
        resourceType: 'publishable_key',
        resourceId: keyId.toLowerCase(),
        before: { agent_id: agent.id, revoked: false },
        after: { agent_id: agent.id, revoked: true },
      });
    });
  }

  async createApiKey(who: Principal, agentId: string): Promise<CreatedAgentApiKeyResponseDto> {
    const secret = generateSecret('agk');
    const key = await this.unitOfWork.run(async () => {
      const agent = await this.agents.getVisible(who.organizationId, agentId, 'share');
      const created = await this.keys.insert('agent_api', {
        id: newId(),
        organizationId: agent.organizationId,
        agentId: agent.id,
        keyHash: hashSecret(secret),
        keyPrefix: secretPrefix(secret),
        revokedAt: null,
        createdAt: new Date(),
      });
      await this.bus.publish('agent_api_key.create', {
        actor: who,
        resourceType: 'agent_api_key',
        resourceId: created.id,
        after: { agent_id: agent.id, key_prefix: created.keyPrefix },
      });
      return created;
    });
    return { ...toAgentApiKeyResponse(key), api_key: secret };
  }

  async listApiKeys(who: Principal, agentId: string, query: ListKeysQueryDto, request: PageRequest): Promise<Page<AgentApiKeyResponseDto>> {
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    return this.keys.page('agent_api', agent.id, query, LIST_DEFAULTS, request, toAgentApiKeyResponse);
  }

  async revokeApiKey(who: Principal, agentId: string, keyId: string): Promise<void> {
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    await this.changes.commit(agent.organizationId, async () => {
      if (!(await this.keys.revoke('agent_api', agent.id, keyId))) throw new NotFoundError('Agent API key');
      await this.bus.publish('agent_api_key.revoke', {
        actor: who,
        resourceType: 'agent_api_key',
        resourceId: keyId.toLowerCase(),
        before: { agent_id: agent.id, revoked: false },
        after: { agent_id: agent.id, revoked: true },
      });
    });
  }
}

const LIST_DEFAULTS = { sort: ListKeysQueryDto.defaultSort, order: ListKeysQueryDto.defaultOrder };
