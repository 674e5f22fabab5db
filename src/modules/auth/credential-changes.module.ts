import { Module } from '@nestjs/common';
import { BusModule } from '../../common/bus/bus.module.js';
import { CredentialChanges } from './credential-changes.js';
import { CredentialsRepository } from './credentials.repository.js';

/**
 * One CredentialChanges per process, shared by the API (AuthModule) and the CLI (OrganizationsModule, which has no
 * other bus), with the credential reads it announces through (AuthModule's services read credentials through the
 * same repository).
 */
@Module({
  imports: [BusModule],
  providers: [CredentialChanges, CredentialsRepository],
  exports: [CredentialChanges, CredentialsRepository],
})
export class CredentialChangesModule {}
