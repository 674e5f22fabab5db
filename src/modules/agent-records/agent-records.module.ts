import { Module } from '@nestjs/common';
import { AgentsRepository } from './agents.repository.js';

/**
 * The `agents` table's repository, for the modules that move an agent's live pointer or read it (versions,
 * messaging) without depending on AgentsModule, which depends on them.
 */
@Module({ providers: [AgentsRepository], exports: [AgentsRepository] })
export class AgentRecordsModule {}
