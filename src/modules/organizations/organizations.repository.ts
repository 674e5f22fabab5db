import { Injectable } from '@nestjs/common';
import { OrganizationApiKeyEntity } from './entities/organization-api-key.entity.js';
import { UserEntity } from './entities/user.entity.js';
import { SqlService } from '../../database/sql.service.js';
import { OrganizationEntity } from './organization.entity.js';

/**
 * `organizations` and what is issued with them: organization API keys and users (CLI and bootstrap). Auth reads
 * those credentials on the hot path (CredentialsRepository); only this repository writes them.
 */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly sql: SqlService) {}

  async create(organization: Pick<OrganizationEntity, 'id' | 'name'>, key: Partial<OrganizationApiKeyEntity>): Promise<void> {
    await this.sql.repository(OrganizationEntity).insert(organization);
    await this.sql.repository(OrganizationApiKeyEntity).insert(key);
  }

  async organizationOfKey(keyHash: string): Promise<string | undefined> {
    return (await this.sql.repository(OrganizationApiKeyEntity).findOneBy({ keyHash }))?.organizationId;
  }

  exists(organizationId: string): Promise<boolean> {
    return this.sql.repository(OrganizationEntity).existsBy({ id: organizationId });
  }

  /** Deletes the organization; the schema cascades to everything it owns. False when there is none. */
  async delete(organizationId: string): Promise<boolean> {
    return Boolean((await this.sql.repository(OrganizationEntity).delete({ id: organizationId })).affected);
  }

  emailTaken(email: string): Promise<boolean> {
    return this.sql.repository(UserEntity).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getExists();
  }

  createUser(user: Pick<UserEntity, 'id' | 'organizationId' | 'email' | 'passwordHash'>): Promise<UserEntity> {
    return this.sql.repository(UserEntity).save(user);
  }

  findUser(userId: string): Promise<UserEntity | null> {
    return this.sql.repository(UserEntity).findOneBy({ id: userId });
  }

  /** Replaces the user's password hash only if it is still `previousHash` (a password change meanwhile wins). */
  async replacePasswordHash(userId: string, previousHash: string, passwordHash: string): Promise<void> {
    await this.sql.repository(UserEntity).update({ id: userId, passwordHash: previousHash }, { passwordHash });
  }

  async deleteUser(userId: string): Promise<boolean> {
    return Boolean((await this.sql.repository(UserEntity).delete({ id: userId })).affected);
  }
}
