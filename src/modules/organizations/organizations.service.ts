import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import type { PasswordRehashed } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { OrganizationApiKeyEntity } from './entities/organization-api-key.entity.js';
import { hashPassword } from '../auth/passwords.js';
import { generateSecret, hashSecret, secretPrefix } from '../auth/secrets.js';
import { OrganizationsRepository } from './organizations.repository.js';

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
    private readonly organizations: OrganizationsRepository,
    private readonly unitOfWork: UnitOfWork,
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
    const organizationId = await this.insertWithKey(name, apiKey);
    return { organization_id: organizationId, api_key: apiKey };
  }

  /**
   * Idempotent: the organization that accepts exactly `apiKey`, created with `name` if no organization does.
   * Safe when several replicas start at once (the unique key hash decides).
   */
  async ensureOrganizationWithKey(name: string, apiKey: string): Promise<string> {
    const keyHash = hashSecret(apiKey);
    const existing = await this.organizations.organizationOfKey(keyHash);
    if (existing) return existing;
    try {
      return await this.insertWithKey(name, apiKey);
    } catch (error) {
      const raced = await this.organizations.organizationOfKey(keyHash);
      if (raced) return raced;
      throw error;
    }
  }

  async createUser(organizationId: string, email: string, password: string): Promise<{ user_id: string }> {
    if (!EMAIL.test(email)) throw ValidationError.field('email', 'email must be an email address');
    if (password.length < 8) throw ValidationError.field('password', 'password must be at least 8 characters');
    if (!(await this.organizations.exists(organizationId))) throw new NotFoundError('Organization');
    if (await this.organizations.emailTaken(email)) {
      throw new ConflictError('email_taken', `A user with email ${email} already exists`);
    }
    const user = await this.organizations.createUser({ id: newId(), organizationId, email, passwordHash: await hashPassword(password) });
    return { user_id: user.id };
  }

  /** A login proved the password of a hash stored under an older scheme (auth/passwords.ts): store the new hash. */
  @OnBusEvent('user.password_rehashed')
  async onPasswordRehashed({ userId, previousHash, passwordHash }: PasswordRehashed): Promise<void> {
    await this.organizations.replacePasswordHash(userId, previousHash, passwordHash);
  }

  /**
   * Deletes the organization and everything it owns (the schema cascades): its API keys, users, agents' keys and
   * every token minted from them are refused at once on every instance (CredentialChanges).
   */
  async deleteOrganization(organizationId: string): Promise<void> {
    await this.changes.commit(organizationId, async () => {
      if (!(await this.organizations.delete(organizationId))) throw new NotFoundError('Organization');
    });
  }

  /** Deletes a user: their login sessions are refused at once on every instance. */
  async deleteUser(userId: string): Promise<void> {
    const user = await this.organizations.findUser(userId);
    if (!user) throw new NotFoundError('User');
    await this.changes.commit(user.organizationId, async () => {
      if (!(await this.organizations.deleteUser(user.id))) throw new NotFoundError('User');
    });
  }

  /** The organization and its key commit together. */
  private insertWithKey(name: string, apiKey: string): Promise<string> {
    return this.unitOfWork.run(async () => {
      const id = newId();
      await this.organizations.create({ id, name }, this.keyRow(id, apiKey));
      return id;
    });
  }

  private keyRow(organizationId: string, apiKey: string): Partial<OrganizationApiKeyEntity> {
    return { id: newId(), organizationId, keyHash: hashSecret(apiKey), keyPrefix: secretPrefix(apiKey), revokedAt: null };
  }
}
