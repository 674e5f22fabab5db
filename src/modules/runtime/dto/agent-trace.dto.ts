import { ApiProperty } from '@nestjs/swagger';
import type { AgentRun, AgentStep } from '../trace.types.js';

/* The OpenAPI schema of the agent-mode parts of both traces (docs/agents.md). */

export class AgentStepDto implements AgentStep {
  @ApiProperty({ description: 'The step id, `s<n>` for the n-th call of the turn (as in the `step` stream events)', example: 's1' })
  id: string;
  @ApiProperty({ description: 'The tool as the model saw it (`<server>__<tool>` for MCP tools)', example: 'search_knowledge' })
  tool: string;
  @ApiProperty({ type: String, nullable: true, description: 'The MCP server of an MCP tool, else null' }) parent_tool: string | null;
  @ApiProperty({ type: 'integer', description: 'The model call (1-based) that asked for the call' }) model_call: number;
  @ApiProperty({ enum: ['completed', 'failed', 'refused'], description: '`refused`: a rule or the loop refused it before it ran' })
  status: AgentStep['status'];
  @ApiProperty({ description: 'The arguments as the model wrote them (JSON text, at most 2000 characters)' }) arguments: string;
  @ApiProperty({ type: 'integer', description: 'How long the call took' }) duration_ms: number;
  @ApiProperty({ description: "What it returned in a few words (a top record's title, `3 passage(s)`); empty when it failed" })
  output_title: string;
  @ApiProperty({ description: 'Why it failed or was refused; empty when it completed' }) fail_reason: string;
}

export class AgentRunDto implements AgentRun {
  @ApiProperty({ enum: ['openai', 'anthropic'], description: 'The provider that ran the loop' }) provider: string;
  @ApiProperty({ type: 'integer', description: "The bundle's `model.max_steps`" }) max_steps: number;
  @ApiProperty({ type: 'integer', description: 'Model calls made in this turn' }) model_calls: number;
  @ApiProperty({ type: 'integer', description: "The bundle's `model.max_turn_tokens` (default 50000)" }) max_turn_tokens: number;
  @ApiProperty({ type: 'integer', description: 'Tokens of every model call of the turn (the usage reported)' }) tokens_used: number;
  @ApiProperty({
    enum: ['answered', 'max_steps', 'token_budget', 'turn_deadline', 'guardrail'],
    description:
      '`answered`; or why the fallback reply was given (steps, tokens or time ran out); `guardrail`: a guardrail stopped the message or the reply',
  })
  stop_reason: AgentRun['stop_reason'];
  @ApiProperty({ description: 'The stop in words' }) detail: string;
}
