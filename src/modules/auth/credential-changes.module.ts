import { Module } from '@nestjs/common';
import { BusModule } from '../../common/bus/bus.module.js';
import { CredentialChanges } from './credential-changes.js';

/** One CredentialChanges per process, shared by the API (AuthModule) and the CLI (OrganizationsModule, which has no other bus). */
@Module({ imports: [BusModule], providers: [CredentialChanges], exports: [CredentialChanges] })
export class CredentialChangesModule {}
