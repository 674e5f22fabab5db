import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength, IsMessageText } from '../../../common/validation/char-length.js';
import { AgentVariablesDto } from '../../messaging/dto/send-message.dto.js';

/** Bounds of a test case: what one evaluation run may be asked to do per case. */
export const TEST_CASE_LIMITS = { turns: 20, entries: 20, entryChars: 500, nameChars: 200, importCases: 100 } as const;

const entries = (description: string, example: string[]) =>
  ApiPropertyOptional({
    type: [String],
    maxItems: TEST_CASE_LIMITS.entries,
    items: { type: 'string', minLength: 1, maxLength: TEST_CASE_LIMITS.entryChars },
    description,
    example,
  });

/** What a reply must (or must not) do; every given expectation is checked, absent ones are not. */
export class TurnExpectationDto {
  @entries('Phrases the reply must contain (case-insensitive)', ['30 days'])
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEST_CASE_LIMITS.entries)
  @IsString({ each: true })
  @CharLength(1, TEST_CASE_LIMITS.entryChars, { each: true })
  contains?: string[];

  @entries('Phrases the reply must not contain (case-insensitive)', ['I could not find'])
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEST_CASE_LIMITS.entries)
  @IsString({ each: true })
  @CharLength(1, TEST_CASE_LIMITS.entryChars, { each: true })
  not_contains?: string[];

  @entries('Knowledge document ids (v2) the reply must cite', ['returns'])
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEST_CASE_LIMITS.entries)
  @IsString({ each: true })
  @CharLength(1, TEST_CASE_LIMITS.entryChars, { each: true })
  cites?: string[];

  @entries('Record ids (v1 catalog) the reply must show as cards', ['shoe-1'])
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEST_CASE_LIMITS.entries)
  @IsString({ each: true })
  @CharLength(1, TEST_CASE_LIMITS.entryChars, { each: true })
  cards?: string[];

  @ApiPropertyOptional({ description: 'true: the reply must decline (nothing in the knowledge answers); false: it must not' })
  @IsOptional()
  @IsBoolean()
  declines?: boolean;

  @entries('Tools that must run for this turn (their codes)', ['catalog'])
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEST_CASE_LIMITS.entries)
  @IsString({ each: true })
  @CharLength(1, TEST_CASE_LIMITS.entryChars, { each: true })
  tools?: string[];

  @ApiPropertyOptional({ description: 'true: the turn must hand the thread off to a human; false: it must not' })
  @IsOptional()
  @IsBoolean()
  handoff?: boolean;
}

/** One end-user message of a case and what its reply must do. */
export class TestCaseTurnDto {
  @ApiProperty({ minLength: 1, maxLength: 16384, description: 'The end-user message', example: 'How long do I have to return an item?' })
  @IsMessageText()
  text: string;

  @ApiPropertyOptional({ type: AgentVariablesDto, description: "Values for the agent's context variables on this turn" })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentVariablesDto)
  agent_variables?: AgentVariablesDto;

  @ApiProperty({ type: TurnExpectationDto, description: 'What the reply must do; `{}` only records the reply' })
  @IsObject()
  @ValidateNested()
  @Type(() => TurnExpectationDto)
  expect: TurnExpectationDto;
}

export class CreateTestCaseDto {
  @ApiProperty({ minLength: 1, maxLength: TEST_CASE_LIMITS.nameChars, example: 'Return window', description: 'Display name' })
  @IsString()
  @CharLength(1, TEST_CASE_LIMITS.nameChars)
  name: string;

  @ApiProperty({
    type: [TestCaseTurnDto],
    minItems: 1,
    maxItems: TEST_CASE_LIMITS.turns,
    description: 'The conversation, in order: each turn is answered in the same throwaway thread as the ones before it',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'turns must have at least 1 turn' })
  @ArrayMaxSize(TEST_CASE_LIMITS.turns, { message: `turns must have at most ${TEST_CASE_LIMITS.turns} turns` })
  @IsObject({ each: true, message: 'each turn must be an object {text, agent_variables?, expect}' })
  @ValidateNested({ each: true })
  @Type(() => TestCaseTurnDto)
  turns: TestCaseTurnDto[];
}

export class UpdateTestCaseDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TEST_CASE_LIMITS.nameChars, description: 'New name' })
  @IsOptional()
  @IsString()
  @CharLength(1, TEST_CASE_LIMITS.nameChars)
  name?: string;

  @ApiPropertyOptional({ type: [TestCaseTurnDto], minItems: 1, maxItems: TEST_CASE_LIMITS.turns, description: 'Replaces every turn' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'turns must have at least 1 turn' })
  @ArrayMaxSize(TEST_CASE_LIMITS.turns, { message: `turns must have at most ${TEST_CASE_LIMITS.turns} turns` })
  @IsObject({ each: true, message: 'each turn must be an object {text, agent_variables?, expect}' })
  @ValidateNested({ each: true })
  @Type(() => TestCaseTurnDto)
  turns?: TestCaseTurnDto[];
}

/** The export format, which import takes back (ids and times are not part of it: an import creates new cases). */
export class TestCaseSetDto {
  @ApiProperty({ type: [CreateTestCaseDto], minItems: 1, maxItems: TEST_CASE_LIMITS.importCases, description: 'The cases' })
  @IsArray()
  @ArrayMinSize(1, { message: 'test_cases must have at least 1 case' })
  @ArrayMaxSize(TEST_CASE_LIMITS.importCases, { message: `test_cases must have at most ${TEST_CASE_LIMITS.importCases} cases` })
  @IsObject({ each: true, message: 'each test case must be an object {name, turns}' })
  @ValidateNested({ each: true })
  @Type(() => CreateTestCaseDto)
  test_cases: CreateTestCaseDto[];
}

export class TestCaseFromThreadDto {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: "A thread of this agent whose conversation becomes the case's turns" })
  @IsId()
  thread_id: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: TEST_CASE_LIMITS.nameChars, description: "Display name (default: the thread's title)" })
  @IsOptional()
  @IsString()
  @CharLength(1, TEST_CASE_LIMITS.nameChars)
  name?: string;
}

export class TestCaseIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a test case of that agent' })
  @IsId()
  testCaseId: string;
}

export class ListTestCasesQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'asc') {}

export class TestCaseResponseDto {
  @ApiId('Test case id') id: string;
  @ApiId('The agent the case belongs to') agent_id: string;
  @ApiProperty({ example: 'Return window', description: 'Display name' }) name: string;
  @ApiProperty({ type: [TestCaseTurnDto], description: 'The conversation and what each reply must do' }) turns: TestCaseTurnDto[];
  @ApiProperty({ format: 'date-time', description: 'When the case was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the case last changed' }) updated_at: string;
}

export class TestCaseListDto {
  @ApiProperty({ type: [TestCaseResponseDto], description: 'The created cases, in the order given' })
  results: TestCaseResponseDto[];
}
