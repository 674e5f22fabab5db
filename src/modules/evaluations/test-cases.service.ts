import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import type { AgentsDeleted } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { AgentEntity } from '../agent-records/agent.entity.js';
import type { Principal } from '../auth/principal.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import {
  TEST_CASE_LIMITS,
  type CreateTestCaseDto,
  type ListTestCasesQueryDto,
  type TestCaseFromThreadDto,
  type TestCaseListDto,
  type TestCaseResponseDto,
  type TestCaseSetDto,
  type TestCaseTurnDto,
  type UpdateTestCaseDto,
} from './dto/test-case.dto.js';
import { TestCasesRepository, type TestCaseRow } from './test-cases.repository.js';
import { expectationOfRecorded, type CaseTurn } from './turn-checks.js';

/** An agent's test cases (docs/evaluations.md): conversations with expectations on each reply. */
@Injectable()
export class TestCasesService {
  constructor(
    private readonly cases: TestCasesRepository,
    private readonly agents: AgentsRepository,
    private readonly conversations: ConversationsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
  ) {}

  async create(who: Principal, agentId: string, dto: CreateTestCaseDto): Promise<TestCaseResponseDto> {
    return (await this.insert(who, agentId, [dto]))[0]!;
  }

  /** Creates every case of an export (the export's own shape), all or none. */
  async import(who: Principal, agentId: string, dto: TestCaseSetDto): Promise<TestCaseListDto> {
    return { results: await this.insert(who, agentId, dto.test_cases) };
  }

  async export(who: Principal, agentId: string): Promise<TestCaseSetDto> {
    const agent = await this.visibleAgent(who, agentId);
    const rows = await this.cases.all(agent.organizationId, agent.id);
    return { test_cases: rows.map((row) => ({ name: row.name, turns: row.turns as TestCaseTurnDto[] })) };
  }

  /**
   * A case from a real thread of the agent: its end-user messages in order (up to the case limit; image-only turns
   * are skipped), each expecting what its reply did — the documents it cited, the records it showed, the tools it ran
   * and whether it declined. A rerun replaces the expectation of the turn it answered again.
   */
  async fromThread(who: Principal, agentId: string, dto: TestCaseFromThreadDto): Promise<TestCaseResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const thread = await this.conversations.recordedTurns(agent.organizationId, agent.id, dto.thread_id, TEST_CASE_LIMITS.turns * 2);
    if (!thread) throw new NotFoundError('Thread');
    const turns: CaseTurn[] = [];
    for (const turn of thread.turns) {
      const expect = expectationOfRecorded(turn.trace, turn.reply?.cards ?? []);
      if (turn.source === 'rerun' && turns.length > 0) {
        turns[turns.length - 1]!.expect = expect;
        continue;
      }
      if (!turn.user_text || turns.length === TEST_CASE_LIMITS.turns) continue;
      const variables = turn.agent_variables as CaseTurn['agent_variables'];
      turns.push({
        text: turn.user_text,
        ...(variables && Object.keys(variables).length > 0 ? { agent_variables: variables } : {}),
        expect,
      });
    }
    if (turns.length === 0) throw ValidationError.field('thread_id', 'the thread has no end-user message with text to make a case from');
    const name = dto.name ?? thread.title.slice(0, TEST_CASE_LIMITS.nameChars);
    return (await this.insert(who, agentId, [{ name, turns: turns as TestCaseTurnDto[] }]))[0]!;
  }

  async list(who: Principal, agentId: string, query: ListTestCasesQueryDto, request: PageRequest): Promise<Page<TestCaseResponseDto>> {
    const agent = await this.visibleAgent(who, agentId);
    return this.cases.page(agent.organizationId, agent.id, query, request, toTestCaseResponse);
  }

  async get(who: Principal, agentId: string, testCaseId: string): Promise<TestCaseResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const row = await this.cases.find(agent.organizationId, agent.id, testCaseId);
    if (!row) throw new NotFoundError('Test case');
    return toTestCaseResponse(row);
  }

  async update(who: Principal, agentId: string, testCaseId: string, dto: UpdateTestCaseDto): Promise<TestCaseResponseDto> {
    const row = await this.unitOfWork.run(async () => {
      const agent = await this.visibleAgent(who, agentId);
      const before = await this.cases.find(agent.organizationId, agent.id, testCaseId);
      if (!before) throw new NotFoundError('Test case');
      const after = (await this.cases.update(agent.organizationId, agent.id, testCaseId, { name: dto.name, turns: dto.turns }))!;
      await this.bus.publish('test_case.update', {
        actor: who,
        resourceType: 'test_case',
        resourceId: after.id,
        before: summary(before),
        after: summary(after),
      });
      return after;
    });
    return toTestCaseResponse(row);
  }

  async delete(who: Principal, agentId: string, testCaseId: string): Promise<void> {
    await this.unitOfWork.run(async () => {
      const agent = await this.visibleAgent(who, agentId);
      const row = await this.cases.find(agent.organizationId, agent.id, testCaseId);
      if (!row || !(await this.cases.delete(agent.organizationId, agent.id, row.id))) throw new NotFoundError('Test case');
      await this.bus.publish('test_case.delete', { actor: who, resourceType: 'test_case', resourceId: row.id, before: summary(row) });
    });
  }

  /** Every case of an agent, oldest first (an evaluation run's input). */
  all(organizationId: string, agentId: string): Promise<TestCaseRow[]> {
    return this.cases.all(organizationId, agentId);
  }

  /** A deleted agent's cases go with its versions, in the deletion's transaction. */
  @OnBusEvent('agents.deleted', { phase: 'transaction' })
  async agentsDeleted({ agentIds }: AgentsDeleted): Promise<void> {
    await this.cases.deleteOfAgents(agentIds);
  }

  private async insert(
    who: Principal,
    agentId: string,
    cases: Array<{ name: string; turns: TestCaseTurnDto[] }>,
  ): Promise<TestCaseResponseDto[]> {
    const rows = await this.unitOfWork.run(async () => {
      // Shared lock: a concurrent agent delete waits for these rows, then deletes them with the agent.
      const agent = await this.visibleAgent(who, agentId, 'share');
      const rows = await this.cases.insert(
        cases.map((c) => ({
          id: newId(),
          organizationId: agent.organizationId,
          agentId: agent.id,
          name: c.name,
          turns: storedTurns(c.turns),
        })),
      );
      for (const row of rows) {
        await this.bus.publish('test_case.create', { actor: who, resourceType: 'test_case', resourceId: row.id, after: summary(row) });
      }
      return rows;
    });
    return rows.map(toTestCaseResponse);
  }

  private async visibleAgent(who: Principal, agentId: string, lock: 'share' | false = false): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(who.organizationId, agentId, lock);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}

/** The validated turns as stored: only the fields the contract names (the DTO instances carry nothing else). */
function storedTurns(turns: TestCaseTurnDto[]): CaseTurn[] {
  return turns.map((turn) => ({
    text: turn.text,
    ...(turn.agent_variables ? { agent_variables: { ...turn.agent_variables } } : {}),
    expect: { ...turn.expect },
  }));
}

/** What the audit log keeps of a case: its agent, name and number of turns (never the conversation). */
function summary(row: TestCaseRow): object {
  return { agent_id: row.agent_id, name: row.name, turns: row.turns.length };
}

export function toTestCaseResponse(row: TestCaseRow): TestCaseResponseDto {
  return {
    id: row.id,
    agent_id: row.agent_id,
    name: row.name,
    turns: row.turns as TestCaseTurnDto[],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
