import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BundlesModule } from '../bundles/bundles.module.js';
import { AgentRevisionEntity } from './entities/agent-revision.entity.js';
import { AgentVersionEntity } from './entities/agent-version.entity.js';
import { VersionsController } from './versions.controller.js';
import { VersionsService } from './versions.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([AgentVersionEntity, AgentRevisionEntity]), BundlesModule],
  controllers: [VersionsController],
  providers: [VersionsService],
  exports: [VersionsService],
})
export class VersionsModule {}
