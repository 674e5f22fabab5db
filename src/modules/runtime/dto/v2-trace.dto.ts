import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  ParamValue,
  V2Check,
  V2Citation,
  V2IntentScore,
  V2Learned,
  V2PassageUsed,
  V2Policy,
  V2SourceRead,
  V2Trace,
  V2Understanding,
} from '../trace.types.js';

/*
 * The OpenAPI schema of the v2 (grounded) trace. Each class implements the engine's own type, so the
 * document cannot drift from what the engine writes.
 */

export class V2IntentScoreDto implements V2IntentScore {
  @ApiProperty({ description: 'Intent name' }) name: string;
  @ApiProperty({ description: 'Classifier score (cosine similarity, 3 decimals)' }) score: number;
}

export class V2UnderstandingDto implements V2Understanding {
  @ApiProperty({ description: 'The question as asked (trimmed)' }) question: string;
  @ApiProperty({ type: [String], description: "The question's own keywords (stemmed)" }) keywords: string[];
  @ApiProperty({
    type: [String],
    description: 'Keywords carried over from the previous question for a short follow-up (build 2.1); empty otherwise',
  })
  context_keywords: string[];
  @ApiProperty({ type: String, nullable: true, description: 'The recognised intent, or null' }) intent: string | null;
  @ApiProperty({ type: [V2IntentScoreDto], description: 'Every recognised intent with its score, best first' })
  intents: V2IntentScoreDto[];
}

export class V2LearnedDto implements V2Learned {
  @ApiProperty({ description: '`agent_variables.static`, `agent_variables.dynamic` or `history`' }) source: string;
  @ApiProperty({ description: 'The variable name, or `previous_question`' }) key: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }], description: 'The value learned' })
  value: ParamValue;
}

export class V2SourceReadDto implements V2SourceRead {
  @ApiProperty({ description: 'Knowledge document id' }) document_id: string;
  @ApiProperty({ description: 'Document title' }) title: string;
  @ApiProperty({ type: 'integer', description: 'How many of its passages the search returned' }) passages_considered: number;
}

export class V2PassageUsedDto implements V2PassageUsed {
  @ApiProperty({ description: 'Passage id (`<document id>#p<n>`)' }) passage_id: string;
  @ApiProperty({ description: 'The document the passage belongs to' }) document_id: string;
  @ApiProperty({ description: 'Retrieval score (BM25+, 3 decimals)' }) score: number;
  @ApiProperty({ description: 'The passage text' }) text: string;
}

export class V2CitationDto implements V2Citation {
  @ApiProperty({ type: 'integer', description: 'The `[n]` marker in the reply' }) marker: number;
  @ApiProperty({ description: 'Cited document id' }) document_id: string;
  @ApiProperty({ description: 'Cited document title' }) title: string;
  @ApiProperty({ description: "The document's URL; empty when it has none" }) url: string;
  @ApiProperty({ description: 'Cited passage id' }) passage_id: string;
  @ApiProperty({ description: 'The passage text' }) text: string;
}

export class V2PolicyDto implements V2Policy {
  @ApiProperty({
    description: '`guardrails`, `grounded_only`, `no_answer_without_sources`, `multi_passage` or `history_context`',
  })
  code: string;
  @ApiProperty({ description: 'What the policy decided, e.g. `allow`, `block`, `applied`, `triggered`, `enabled`, `used`' })
  decision: string;
  @ApiProperty({ description: 'Why, in words; may be empty' }) detail: string;
}

export class V2CheckDto implements V2Check {
  @ApiProperty({ description: '`guardrails`, `citations_map_to_passages`, `answer_is_grounded` or `answerable`' }) name: string;
  @ApiProperty({ description: 'Whether the check passed' }) passed: boolean;
  @ApiProperty({ description: 'What was checked and found' }) detail: string;
  @ApiPropertyOptional({ description: '`answerable` only: share of the question (0–1) the best passage covers' }) confidence?: number;
  @ApiPropertyOptional({ description: '`answerable` only: the min_confidence it was compared with' }) threshold?: number;
  @ApiPropertyOptional({ description: "`answerable` only: the best passage's score over the next document's best" }) margin?: number;
  @ApiPropertyOptional({ type: [String], description: '`answerable` only: question words nothing in the best passage covers' })
  uncovered_words?: string[];
}

/** The v2 (grounded) trace: typed sections from the question to the citations the reply provably used. */
export class V2TraceDto implements V2Trace {
  @ApiProperty({ enum: ['v2'], description: 'The grounded engine; selects this shape' }) runtime: 'v2';
  @ApiProperty({ description: 'The engine build that answered', example: '2.1.0' }) build: string;
  @ApiProperty({ type: V2UnderstandingDto, description: 'What the question was understood to ask' })
  understanding: V2UnderstandingDto;
  @ApiProperty({ type: [V2LearnedDto], description: 'What the engine learned from the agent variables and the thread' })
  learned: V2LearnedDto[];
  @ApiProperty({ type: [V2SourceReadDto], description: 'The documents whose passages the search returned' })
  sources_read: V2SourceReadDto[];
  @ApiProperty({ type: [V2PassageUsedDto], description: 'The passages the reply cites' }) passages_used: V2PassageUsedDto[];
  @ApiProperty({ type: [V2CitationDto], description: 'Each citation marker in the reply and the passage it maps to' })
  citations_used: V2CitationDto[];
  @ApiProperty({ type: [V2PolicyDto], description: 'The policies applied and what each decided' }) policies: V2PolicyDto[];
  @ApiProperty({ type: [V2CheckDto], description: 'The checks run on the reply' }) checks: V2CheckDto[];
  @ApiProperty({ description: 'What happened, in plain language' }) narrative: string;
}
