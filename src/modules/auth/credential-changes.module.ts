import { Module } from '@nestjs/common';
import { CredentialChanges } from './credential-changes.js';
import { CredentialsRepository } from './credentials.repository.js';

/**
 * One CredentialChanges per process, shared by the API (AuthModule) and the CLI (OrganizationsModule), with the
 * credential reads it announces through (AuthModule's services read credentials through the same repository).
 */
@Module({ providers: [CredentialChanges, CredentialsRepository], exports: [CredentialChanges, CredentialsRepository] })
export class CredentialChangesModule {}
