import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import { OrganizationApiKeyEntity } from '../auth/entities/organization-api-key.entity.js';
import { UserEntity } from '../auth/entities/user.entity.js';
import { generateSecret, hashSecret, secretPrefix } from '../auth/secrets.js';
import { OrganizationEntity } from './organization.entity.js';

export interface CreatedOrganization {
  organization_id: string;
  api_key: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Organizations, their API keys and users: issued and deleted by the CLI, and the start-up bootstrap (DESIGN.md). */
@Injectable()
export class OrganizationsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Organizations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly changes: CredentialChanges,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { orgApiKey, orgName } = this.config.bootstrap;
    if (!orgApiKey) return;
    const organizationId = await this.ensureOrganizationWithKey(orgName, orgApiKey);
    this.logger.log({ organizationId }, 'bootstrap organization ready');
  }

  /** A new organization with a freshly generated API key (shown once). */
  async createOrganization(name: string): Promise<CreatedOrganization> {
    const apiKey = generateSecret('oak');
    const organizationId = await this.dataSource.transaction(async (em) => {
      const org = await em.save(OrganizationEntity, { id: newId(), name });
      await em.insert(OrganizationApiKeyEntity, this.keyRow(org.id, apiKey));
      return org.id;
    });
    return { organization_id: organizationId, api_key: apiKey };
  }

  /**
   * Idempotent: the organization that accepts exactly `apiKey`, created with `name` if no organization does.
   * Safe when several replicas start at once (the unique key hash decides).
   */
  async ensureOrganizationWithKey(name: string, apiKey: string): Promise<string> {
    const keyHash = hashSecret(apiKey);
    const existing = await this.dataSource.getRepository(OrganizationApiKeyEntity).findOneBy({ keyHash });
    if (existing) return existing.organizationId;
    try {
      return await this.dataSource.transaction(async (em) => {
        const org = await em.save(OrganizationEntity, { id: newId(), name });
        await em.insert(OrganizationApiKeyEntity, this.keyRow(org.id, apiKey));
        return org.id;
      });
    } catch (error) {
      const raced = await this.dataSource.getRepository(OrganizationApiKeyEntity).findOneBy({ keyHash });
      if (raced) return raced.organizationId;
      throw error;
    }
  }

  async createUser(organizationId: string, email: string, password: string): Promise<{ user_id: string }> {
    if (!EMAIL.test(email)) throw ValidationError.field('email', 'email must be an email address');
    if (password.length < 8) throw ValidationError.field('password', 'password must be at least 8 characters');
    const org = await this.dataSource.getRepository(OrganizationEntity).findOneBy({ id: organizationId });
    if (!org) throw new NotFoundError('Organization');
    const users = this.dataSource.getRepository(UserEntity);
    if (await users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getExists()) {
      throw new ConflictError('email_taken', `A user with email ${email} already exists`);
    }
    const user = await users.save({ id: newId(), organizationId, email, passwordHash: await argon2.hash(password) });
    return { user_id: user.id };
  }

  /**
   * Deletes the organization and everything it owns (the schema cascades): its API keys, users, agents' keys and
   * every token minted from them are refused at once on every instance (CredentialChanges).
   */
  async deleteOrganization(organizationId: string): Promise<void> {
    await this.changes.commit(organizationId, async (em) => {
      const result = await em.delete(OrganizationEntity, { id: organizationId });
      if (!result.affected) throw new NotFoundError('Organization');
    });
  }

  /** Deletes a user: their login sessions are refused at once on every instance. */
  async deleteUser(userId: string): Promise<void> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    if (!user) throw new NotFoundError('User');
    await this.changes.commit(user.organizationId, async (em) => {
      const result = await em.delete(UserEntity, { id: user.id });
      if (!result.affected) throw new NotFoundError('User');
    });
  }

  private keyRow(organizationId: string, apiKey: string): Partial<OrganizationApiKeyEntity> {
    return { id: newId(), organizationId, keyHash: hashSecret(apiKey), keyPrefix: secretPrefix(apiKey), revokedAt: null };
  }
}
