import { Module } from '@nestjs/common';
import { EncryptionKeys } from '../../common/crypto/encryption-keys.js';
import { AgentSecretsRepository } from './agent-secrets.repository.js';
import { AgentSecretsStore } from './agent-secrets.store.js';

/**
 * The `agent_secrets` table and its sealed values, on their own: the runtime fills call headers with them, versions
 * checks that a pushed bundle names only existing secrets, and the CLI re-seals them (`secrets:rewrap`), none of which
 * needs the management routes (AgentSecretsModule).
 */
@Module({
  providers: [EncryptionKeys, AgentSecretsRepository, AgentSecretsStore],
  exports: [AgentSecretsRepository, AgentSecretsStore],
})
export class AgentSecretsStoreModule {}
