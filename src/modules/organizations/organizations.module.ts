import { Module } from '@nestjs/common';
import { CredentialChangesModule } from '../auth/credential-changes.module.js';
import { OrganizationsService } from './organizations.service.js';

@Module({ imports: [CredentialChangesModule], providers: [OrganizationsService], exports: [OrganizationsService] })
export class OrganizationsModule {}
