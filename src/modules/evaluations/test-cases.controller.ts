import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiPageResponse, type Page } from '../../common/pagination/page.dto.js';
import { CurrentPageRequest } from '../../common/pagination/page-request.decorator.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { AgentIdParams } from '../agent-records/dto/agent.dto.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { ManagementController } from '../auth/decorators/surface.decorators.js';
import type { Principal } from '../auth/principal.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  CreateTestCaseDto,
  ListTestCasesQueryDto,
  TestCaseFromThreadDto,
  TestCaseIdParams,
  TestCaseListDto,
  TestCaseResponseDto,
  TestCaseSetDto,
  UpdateTestCaseDto,
} from './dto/test-case.dto.js';
import { TestCasesService } from './test-cases.service.js';

/** The example thread id of "save a thread as a test case"; the OpenAPI example test puts a thread of its own in its place. */
export const FROM_THREAD_EXAMPLE_THREAD = '6740a1b2c3d4e5f601234567';

const RETURN_CASE = {
  name: 'Return window',
  turns: [{ text: 'How long do I have to return an item?', expect: { contains: ['30 days'], cites: ['returns'], declines: false } }],
};

@ManagementController('Evaluations')
export class TestCasesController {
  constructor(private readonly cases: TestCasesService) {}

  @Idempotent()
  @Post('agents/:agentId/test-cases')
  @ApiOperation({
    summary: 'Create a test case',
    description:
      'A conversation of 1..20 end-user turns, each with what its reply must do: `contains` / `not_contains` (case-insensitive ' +
      'phrases), `cites` (knowledge document ids), `cards` (record ids), `declines`, `tools`, `handoff`. Evaluation runs answer ' +
      'every case of the agent. See docs/evaluations.md.',
  })
  @ApiExampleBody(CreateTestCaseDto, { knowledge: { summary: 'A knowledge answer that must cite its page', value: RETURN_CASE } })
  @ApiCreatedResponse({ type: TestCaseResponseDto })
  @ApiErrors(404, 413, 415, 422)
  create(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Body() dto: CreateTestCaseDto,
  ): Promise<TestCaseResponseDto> {
    return this.cases.create(who, agentId, dto);
  }

  @Idempotent()
  @Post('agents/:agentId/test-cases/import')
  @ApiOperation({
    summary: 'Import test cases',
    description: 'Creates every case of an export (`{test_cases: [{name, turns}]}`, 1..100 cases) in one transaction: all or none.',
  })
  @ApiExampleBody(TestCaseSetDto, { one: { summary: 'One case', value: { test_cases: [RETURN_CASE] } } })
  @ApiCreatedResponse({ type: TestCaseListDto })
  @ApiErrors(404, 413, 415, 422)
  import(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams, @Body() dto: TestCaseSetDto): Promise<TestCaseListDto> {
    return this.cases.import(who, agentId, dto);
  }

  @Get('agents/:agentId/test-cases/export')
  @ApiOperation({ summary: 'Export test cases', description: 'Every case of the agent, oldest first, in the shape import takes.' })
  @ApiOkResponse({ type: TestCaseSetDto })
  @ApiErrors(404, 422)
  export(@CurrentPrincipal() who: Principal, @Param() { agentId }: AgentIdParams): Promise<TestCaseSetDto> {
    return this.cases.export(who, agentId);
  }

  @Idempotent()
  @Post('agents/:agentId/test-cases/from-thread')
  @ApiOperation({
    summary: 'Save a thread as a test case',
    description:
      "The thread's end-user messages become the turns (up to 20; image-only messages are skipped); each turn expects what its " +
      'recorded reply did: the documents it cited, the records it showed, the tools it ran and whether it declined. 404 for a ' +
      "thread that is not this agent's.",
  })
  @ApiExampleBody(TestCaseFromThreadDto, {
    thread: { summary: 'A thread of the agent', value: { thread_id: FROM_THREAD_EXAMPLE_THREAD, name: 'Returns, as answered today' } },
  })
  @ApiCreatedResponse({ type: TestCaseResponseDto })
  @ApiErrors(404, 413, 415, 422)
  fromThread(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Body() dto: TestCaseFromThreadDto,
  ): Promise<TestCaseResponseDto> {
    return this.cases.fromThread(who, agentId, dto);
  }

  @Get('agents/:agentId/test-cases')
  @ApiOperation({ summary: "List the agent's test cases", description: 'Oldest first by default.' })
  @ApiPageResponse(TestCaseResponseDto)
  @ApiErrors(404, 422)
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId }: AgentIdParams,
    @Query() query: ListTestCasesQueryDto,
    @CurrentPageRequest() page: PageRequest,
  ): Promise<Page<TestCaseResponseDto>> {
    return this.cases.list(who, agentId, query, page);
  }

  @Get('agents/:agentId/test-cases/:testCaseId')
  @ApiOperation({ summary: 'Get a test case', description: 'The case with its turns and expectations.' })
  @ApiOkResponse({ type: TestCaseResponseDto })
  @ApiErrors(404, 422)
  get(@CurrentPrincipal() who: Principal, @Param() { agentId, testCaseId }: TestCaseIdParams): Promise<TestCaseResponseDto> {
    return this.cases.get(who, agentId, testCaseId);
  }

  @Patch('agents/:agentId/test-cases/:testCaseId')
  @ApiOperation({ summary: 'Change a test case', description: '`name` renames it; `turns` replaces every turn.' })
  @ApiExampleBody(UpdateTestCaseDto, { rename: { summary: 'Rename', value: { name: 'Return window (30 days)' } } })
  @ApiOkResponse({ type: TestCaseResponseDto })
  @ApiErrors(404, 413, 415, 422)
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { agentId, testCaseId }: TestCaseIdParams,
    @Body() dto: UpdateTestCaseDto,
  ): Promise<TestCaseResponseDto> {
    return this.cases.update(who, agentId, testCaseId, dto);
  }

  @Delete('agents/:agentId/test-cases/:testCaseId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a test case', description: 'Earlier evaluation results keep its outcome.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404, 422)
  delete(@CurrentPrincipal() who: Principal, @Param() { agentId, testCaseId }: TestCaseIdParams): Promise<void> {
    return this.cases.delete(who, agentId, testCaseId);
  }
}
