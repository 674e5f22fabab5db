import { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids/new-id.js';
import { AgentEntity } from '../../src/modules/agent-records/agent.entity.js';
import type { AgentRuntime } from '../../src/modules/bundles/bundle.types.js';
import { AgentApiKeyEntity } from '../../src/modules/auth/entities/agent-api-key.entity.js';
import { OrganizationApiKeyEntity } from '../../src/modules/organizations/entities/organization-api-key.entity.js';
import { PublishableKeyEntity } from '../../src/modules/auth/entities/publishable-key.entity.js';
import { UserEntity } from '../../src/modules/organizations/entities/user.entity.js';
import { generateSecret, hashSecret, secretPrefix } from '../../src/modules/auth/secrets.js';
import { hashPassword } from '../../src/modules/auth/passwords.js';
import { OrganizationEntity } from '../../src/modules/organizations/organization.entity.js';
import { ProjectEntity } from '../../src/modules/projects/project.entity.js';
import { bundleDigest } from '../../src/modules/bundles/bundle-digest.js';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { AgentRevisionEntity } from '../../src/modules/versions/entities/agent-revision.entity.js';
import { AgentVersionEntity } from '../../src/modules/versions/entities/agent-version.entity.js';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}-${newId().slice(-6)}`;

export interface TestOrg {
  id: string;
  apiKey: string;
  /** Headers that authenticate as this organization on the management surface. */
  headers: Record<string, string>;
}

/** Persists test data through the real entities; every helper creates what it needs, nothing is seeded. */
export class Factory {
  constructor(private readonly dataSource: DataSource) {}

  async org(name = unique('org')): Promise<TestOrg> {
    const id = newId();
    const apiKey = generateSecret('oak');
    await this.dataSource.getRepository(OrganizationEntity).insert({ id, name });
    await this.dataSource
      .getRepository(OrganizationApiKeyEntity)
      .insert({ id: newId(), organizationId: id, keyHash: hashSecret(apiKey), keyPrefix: secretPrefix(apiKey) });
    return { id, apiKey, headers: { 'x-organization-api-key': apiKey } };
  }

  async project(org: TestOrg, name = unique('project')): Promise<ProjectEntity> {
    return this.dataSource.getRepository(ProjectEntity).save({ id: newId(), organizationId: org.id, name, deletedAt: null });
  }

  async agent(org: TestOrg, options: { project?: ProjectEntity; name?: string; runtime?: AgentRuntime } = {}): Promise<AgentEntity> {
    const project = options.project ?? (await this.project(org));
    return this.dataSource.getRepository(AgentEntity).save({
      id: newId(),
      organizationId: org.id,
      projectId: project.id,
      name: options.name ?? unique('agent'),
      description: null,
      runtime: options.runtime ?? 'v1',
      liveVersionId: null,
      liveRevisionId: null,
      liveVersionTag: null,
      publishRequiresPassingEvaluation: false,
      deletedAt: null,
    });
  }

  async publishableKey(
    agent: AgentEntity,
    restrictions: { origins?: string[]; ipRanges?: string[] } = {},
  ): Promise<{ id: string; key: string }> {
    const key = generateSecret('pk');
    const id = newId();
    await this.dataSource.getRepository(PublishableKeyEntity).insert({
      id,
      organizationId: agent.organizationId,
      agentId: agent.id,
      keyHash: hashSecret(key),
      keyPrefix: secretPrefix(key),
      allowedOrigins: restrictions.origins ?? [],
      allowedIpRanges: restrictions.ipRanges ?? [],
    });
    return { id, key };
  }

  async revokePublishableKey(id: string): Promise<void> {
    await this.dataSource.getRepository(PublishableKeyEntity).update({ id }, { revokedAt: new Date() });
  }

  async agentApiKey(agent: AgentEntity): Promise<{ id: string; key: string }> {
    const key = generateSecret('agk');
    const id = newId();
    await this.dataSource
      .getRepository(AgentApiKeyEntity)
      .insert({ id, organizationId: agent.organizationId, agentId: agent.id, keyHash: hashSecret(key), keyPrefix: secretPrefix(key) });
    return { id, key };
  }

  /** A user of `org`; `storedHash` writes that hash instead of the service's own (a hash of an older scheme). */
  async user(
    org: TestOrg,
    password = 'correct horse battery',
    storedHash?: string,
  ): Promise<{ id: string; email: string; password: string }> {
    const email = `${unique('user')}@example.test`;
    const id = newId();
    await this.dataSource
      .getRepository(UserEntity)
      .insert({ id, organizationId: org.id, email, passwordHash: storedHash ?? (await hashPassword(password)) });
    return { id, email, password };
  }

  /**
   * An agent whose version 1 is published and live with `bundle` as revision v1.0 (written directly, not
   * validated: pass a valid bundle). Returns the agent as stored, with its live pointers set.
   */
  async agentWithLiveVersion(
    org: TestOrg,
    options: { project?: ProjectEntity; name?: string; runtime?: AgentRuntime; bundle?: Bundle } = {},
  ): Promise<{ agent: AgentEntity; versionId: string; revisionId: string; versionTag: string }> {
    const agent = await this.agent(org, options);
    const bundle: Bundle = options.bundle ?? { schema_version: 1, name: agent.name };
    const versionId = newId();
    const revisionId = newId();
    const versionTag = 'v1.0';
    await this.dataSource.transaction(async (em) => {
      await em.getRepository(AgentVersionEntity).insert({
        id: versionId,
        organizationId: org.id,
        agentId: agent.id,
        number: 1,
        status: 'published',
        label: null,
        tags: [],
        notes: null,
        currentRevisionId: null,
      });
      await em.getRepository(AgentRevisionEntity).insert({
        id: revisionId,
        organizationId: org.id,
        agentId: agent.id,
        versionId,
        revisionNumber: 0,
        versionTag,
        bundle,
        digest: bundleDigest(bundle),
        message: null,
        createdAt: new Date(),
      });
      await em.getRepository(AgentVersionEntity).update({ id: versionId }, { currentRevisionId: revisionId });
      await em
        .getRepository(AgentEntity)
        .update({ id: agent.id }, { liveVersionId: versionId, liveRevisionId: revisionId, liveVersionTag: versionTag });
    });
    Object.assign(agent, { liveVersionId: versionId, liveRevisionId: revisionId, liveVersionTag: versionTag });
    return { agent, versionId, revisionId, versionTag };
  }
}
