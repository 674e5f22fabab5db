import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AgentRunDto } from './agent-trace.dto.js';
import { TraceModelDto } from './trace-model.dto.js';
import type {
  ParamScope,
  V1ComputedParameter,
  V1Decision,
  V1DecisionRule,
  V1DecisionTrigger,
  V1Guardrails,
  V1HttpCall,
  V1JsxWidget,
  V1Response,
  V1RuleCondition,
  V1RuleEvaluation,
  V1RuleReason,
  V1Trace,
  V1TraceInput,
  V1TriggerType,
  V1Understanding,
} from '../trace.types.js';

/*
 * The OpenAPI schema of the v1 (decisioning) trace. Each class implements the engine's own type, so the
 * document cannot drift from what the engine writes.
 */

const TRIGGER_TYPES: V1TriggerType[] = ['always', 'intent', 'parameter'];

export class V1TraceInputDto implements V1TraceInput {
  @ApiProperty({ description: 'The end-user message as the engine read it (empty for an image-only turn)' }) message: string;
}

export class V1GuardrailsDto implements V1Guardrails {
  @ApiProperty({ description: 'False when a guardrail pattern matched and the turn was blocked' }) passed: boolean;
  @ApiProperty({ description: 'Which guardrail matched, or why none did' }) reason: string;
}

export class V1UnderstandingDto implements V1Understanding {
  @ApiProperty({ type: [String], description: 'Recognised intents, best first (empty when none or blocked)' }) intents: string[];
  @ApiProperty({ type: V1GuardrailsDto, description: 'The guardrail check, run before anything else' }) guardrails: V1GuardrailsDto;
}

export class V1DecisionTriggerDto implements V1DecisionTrigger {
  @ApiProperty({
    enum: TRIGGER_TYPES,
    description: '`always` (tool on every unblocked message), `intent` (tool for listed intents), `parameter` (rule)',
  })
  type: V1TriggerType;
  @ApiProperty({ type: [String], description: 'Why the step ran or was skipped, in words' }) reasons: string[];
  @ApiProperty({ description: 'The intent that triggered an intent-scoped tool; empty otherwise' }) matched_objective: string;
}

export class V1DecisionRuleDto implements V1DecisionRule {
  @ApiProperty({ description: 'The condition method, e.g. `less_than` or `exists`; empty for tool calls' }) type: string;
  @ApiProperty({ enum: ['block', 'ask', 'respond', ''], description: "The rule's action; empty for tool calls" })
  action: V1DecisionRule['action'];
  @ApiProperty({ description: 'The evaluated condition, e.g. `budget (100) >= 80 → true`; empty for tool calls' }) reason: string;
  @ApiProperty({ description: 'The rule code; empty for tool calls' }) code: string;
}

export class V1HttpCallDto implements V1HttpCall {
  @ApiProperty({ enum: ['GET', 'POST', 'PUT', 'PATCH'], description: "The tool's method", example: 'GET' }) method: string;
  @ApiProperty({ description: 'The URL template, placeholders unfilled', example: 'https://orders.example.com/orders/{order_id}' })
  url: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The endpoint's status; null when none came or the tool was skipped",
    example: 200,
  })
  status: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Milliseconds from sending to the last byte read; null when skipped' })
  latency_ms: number | null;
  @ApiProperty({
    type: [String],
    description: 'Codes of the parameters the call carried (their values are in the facets)',
    example: ['order_id'],
  })
  params_sent: string[];
  @ApiProperty({
    enum: [
      '',
      'timeout',
      'http_status',
      'invalid_json',
      'missing_field',
      'response_too_large',
      'blocked_address',
      'invalid_url',
      'dns_failure',
      'connection_failed',
      'unavailable',
    ],
    description: 'Why the call failed (the reply is then the fallback); empty on success',
  })
  failure_reason: V1HttpCall['failure_reason'];
  @ApiProperty({ description: 'A human explanation of the failure; empty on success' }) detail: string;
}

export class V1DecisionDto implements V1Decision {
  @ApiProperty({ enum: ['tool_call', 'rule'], description: 'A tool call or a rule evaluation' }) type: V1Decision['type'];
  @ApiProperty({ description: 'Tool code (tool calls); empty for rules' }) tool: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Agent mode: the MCP server of an MCP tool, else null; compose mode: always empty',
  })
  parent_tool: string | null;
  @ApiProperty({ description: '`t<n>` for the n-th tool, `r<n>` for the n-th rule; agent mode: the step id `s<n>`', example: 't1' })
  track_id: string;
  @ApiProperty({
    enum: ['completed', 'no_results', 'skipped', 'failed', 'refused', 'triggered', 'not_triggered'],
    description:
      'Tool calls: completed, no_results or skipped (HTTP tools: failed when the call did; agent mode: completed, failed or refused); rules: triggered or not_triggered',
  })
  status: V1Decision['status'];
  @ApiProperty({ enum: ['passed', 'failed', 'not_applicable'], description: 'Whether the step ran (tools) or fired (rules)' })
  check_status: V1Decision['check_status'];
  @ApiProperty({ type: V1DecisionTriggerDto, description: 'What made the step run' }) trigger: V1DecisionTriggerDto;
  @ApiProperty({ enum: TRIGGER_TYPES, description: 'Same as `trigger.type`' }) trigger_type: V1TriggerType;
  @ApiProperty({ type: V1DecisionRuleDto, description: 'The rule evaluated (empty strings for tool calls)' }) rule: V1DecisionRuleDto;
  @ApiProperty({
    description: "Tool calls: a summary of the results (agent mode: the arguments' JSON); rules: the rule's message when it fired",
  })
  text: string;
  @ApiProperty({ description: 'Why the step did not run or fire; empty when it did' }) fail_reason: string;
  @ApiProperty({ description: 'How the step was computed: the search and its filters, or the evaluated condition' })
  computation: string;
  @ApiProperty({ description: 'The output: `<tool>.results` for tools, the parameter a rule tests' }) output_param: string;
  @ApiProperty({ description: "The top result's title (tools) or the parameter's title (rules)" }) output_title: string;
  @ApiProperty({ description: 'True when the tool found results or the rule fired' }) qualified: boolean;
  @ApiProperty({
    description:
      'Tool calls: `results`, `empty` or `skipped` (HTTP tools: `response`, `fallback` or `skipped`); rules: the action taken, or `none`',
  })
  matched_branch: string;
  @ApiProperty({ type: V1HttpCallDto, required: false, description: 'HTTP tools only: the call as made (docs/http-tools.md)' })
  http?: V1HttpCallDto;
}

export class V1ComputedParameterDto implements V1ComputedParameter {
  @ApiProperty({ description: 'Parameter code' }) code: string;
  @ApiProperty({ description: 'Parameter title' }) title: string;
  @ApiProperty({
    enum: ['message', 'static', 'dynamic'],
    description: 'Where the value came from: the message, or the static or dynamic agent variables',
  })
  scope: ParamScope;
}

export class V1JsxWidgetDto implements V1JsxWidget {
  @ApiProperty({ description: "The card's title" }) name: string;
  @ApiProperty({ description: 'The tool that produced the card' }) category: string;
  @ApiProperty({ description: "The card's JSX" }) rendered_jsx: string;
  @ApiProperty({ description: 'True for the top pick' }) is_recommended: boolean;
  @ApiProperty({ type: 'integer', description: "The card's position in the reply" }) index: number;
}

export class V1ResponseDto implements V1Response {
  @ApiProperty({
    enum: ['answer', 'answer_with_cards', 'question', 'block'],
    description: 'An answer (with or without cards), a clarifying question (an `ask` rule) or a block',
  })
  type: V1Response['type'];
  @ApiProperty({ description: 'The reply text as sent' }) message: string;
  @ApiProperty({ type: [String], description: 'The follow-up suggestions sent with the reply' }) suggestions: string[];
  @ApiProperty({ description: 'For a question: the rule and condition that asked it; empty otherwise' }) question_reason: string;
  @ApiProperty({ type: [String], description: 'For a question: the parameters asked for' }) asking_for: string[];
  @ApiProperty({ description: 'For a block: the message of the guardrail or rule that blocked' }) block_message: string;
  @ApiProperty({ description: 'Always empty: engine failures are errors, not traces' }) error: string;
  @ApiProperty({ type: [V1JsxWidgetDto], description: 'The cards sent with the reply' }) jsx_widgets: V1JsxWidgetDto[];
}

export class V1RuleConditionDto implements V1RuleCondition {
  @ApiProperty({ description: 'The comparison, e.g. `greater_than_or_equal`' }) method: string;
  @ApiProperty({ description: 'The evaluated condition, e.g. `budget (100) >= 80 → true`' }) operation: string;
}

export class V1RuleReasonDto implements V1RuleReason {
  @ApiProperty({ description: 'Whether the condition held' }) passed: boolean;
  @ApiProperty({ enum: ['parameter'], description: 'Rules are triggered by parameters' }) trigger_type: 'parameter';
  @ApiProperty({ type: V1RuleConditionDto, description: 'The condition evaluated' }) condition: V1RuleConditionDto;
}

export class V1RuleEvaluationDto implements V1RuleEvaluation {
  @ApiProperty({ description: 'Rule code' }) code: string;
  @ApiProperty({ description: 'Whether the rule fired' }) triggered: boolean;
  @ApiProperty({ type: [V1RuleReasonDto], description: 'The condition and its outcome' }) reason: V1RuleReasonDto[];
}

/** The v1 (decisioning) trace: what was understood, the tool and rule decisions, the parameters, the response. */
export class V1TraceDto implements V1Trace {
  @ApiProperty({ enum: ['v1'], description: 'The decisioning engine; selects this shape' }) runtime: 'v1';
  @ApiProperty({ type: V1TraceInputDto, description: 'What the engine was given' }) input: V1TraceInputDto;
  @ApiProperty({ type: V1UnderstandingDto, description: 'Intents recognised and the guardrail check' })
  understanding: V1UnderstandingDto;
  @ApiProperty({ type: [V1DecisionDto], description: 'Every tool call, then every rule evaluation, in order' })
  decisions: V1DecisionDto[];
  @ApiProperty({ type: [V1ComputedParameterDto], description: 'Parameters computed from the message and the agent variables' })
  computed_parameters: V1ComputedParameterDto[];
  @ApiProperty({ type: V1ResponseDto, description: 'The reply and what kind of reply it is' }) response: V1ResponseDto;
  @ApiProperty({ type: [V1RuleEvaluationDto], description: "Each rule's condition and whether it fired" })
  rules_evaluations: V1RuleEvaluationDto[];
  @ApiPropertyOptional({
    type: TraceModelDto,
    description: 'Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed)',
  })
  model?: TraceModelDto;
  @ApiProperty({ type: AgentRunDto, required: false, description: "Agent mode only: the model's loop and why it stopped" })
  agent?: AgentRunDto;
}
