import { Module } from '@nestjs/common';
import { CredentialChangesModule } from '../auth/credential-changes.module.js';
import { OrganizationsRepository } from './organizations.repository.js';
import { OrganizationsService } from './organizations.service.js';

@Module({ imports: [CredentialChangesModule], providers: [OrganizationsService, OrganizationsRepository], exports: [OrganizationsService] })
export class OrganizationsModule {}
