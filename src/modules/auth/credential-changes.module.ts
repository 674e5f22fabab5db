import { Module } from '@nestjs/common';
import { CredentialChanges } from './credential-changes.js';

/** One CredentialChanges per process, shared by the API (AuthModule) and the CLI (OrganizationsModule). */
@Module({ providers: [CredentialChanges], exports: [CredentialChanges] })
export class CredentialChangesModule {}
