import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AgentRunDto, AgentStepDto } from './agent-trace.dto.js';
import { TraceModelDto } from './trace-model.dto.js';
import type {
  ParamValue,
  V2Check,
  V2Citation,
  V2DenseRetrieval,
  V2FusedPassage,
  V2IntentScore,
  V2Learned,
  V2ModelDecline,
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

export class V2FusedPassageDto implements V2FusedPassage {
  @ApiProperty({ description: 'Passage id' }) passage_id: string;
  @ApiProperty({ description: 'Reciprocal rank fusion score: Σ 1/(60 + rank) over the rankings holding the passage' }) score: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Rank in the lexical ranking (1 = best); null when absent' })
  lexical_rank: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Rank in the dense ranking (1 = best); null when absent' })
  dense_rank: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Cosine similarity to the question (3 decimals); null when not among the dense hits',
  })
  similarity: number | null;
}

export class V2DenseRetrievalDto implements V2DenseRetrieval {
  @ApiProperty({ enum: ['used', 'failed'], description: '`used`: fused with the lexical ranking; `failed`: the turn ranked lexically' })
  status: 'used' | 'failed';
  @ApiProperty({ description: 'The embeddings model (name, `@<dimensions>` when set)' }) model: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why the embeddings could not be used; null when used' }) reason: string | null;
  @ApiProperty({
    description:
      'True when the embeddings endpoint was not called in this turn: it failed for this revision less than 30 s ago (the failure hold), so the turn ranked lexically at once',
  })
  held: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'Similarity a dense hit needed to take part; null when failed' })
  min_similarity: number | null;
  @ApiProperty({ type: [V2FusedPassageDto], description: 'The fused order, best first (top 10); empty when failed' })
  fused: V2FusedPassageDto[];
}

export class V2ModelDeclineDto implements V2ModelDecline {
  @ApiProperty({ description: 'The reply is a decline: the instructed sentence or a recognised paraphrase, citing nothing' })
  declined: boolean;
  @ApiProperty({ type: String, enum: ['sentence', 'paraphrase'], nullable: true, description: 'How it was recognised; null when not' })
  how: 'sentence' | 'paraphrase' | null;
  @ApiProperty({ type: String, nullable: true, description: 'The words recognised (≤ 200 characters); null when none' }) matched:
    string | null;
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
  @ApiProperty({
    type: V2DenseRetrievalDto,
    nullable: true,
    description: 'Dense retrieval with the bundle’s embeddings model (docs/knowledge.md); null when the bundle names none',
  })
  dense_retrieval: V2DenseRetrievalDto | null;
  @ApiProperty({
    type: V2ModelDeclineDto,
    nullable: true,
    description: 'Whether the model provider said the passages do not answer; null when the builtin writer worded the reply',
  })
  model_decline: V2ModelDeclineDto | null;
  @ApiProperty({ description: 'What happened, in plain language' }) narrative: string;
  @ApiPropertyOptional({
    type: TraceModelDto,
    description: 'Which provider, model and endpoint wrote the reply (absent on traces recorded before it existed)',
  })
  model?: TraceModelDto;
  @ApiProperty({ type: [AgentStepDto], required: false, description: 'Agent mode only: the tool calls the model made, in order' })
  steps?: AgentStepDto[];
  @ApiProperty({ type: AgentRunDto, required: false, description: "Agent mode only: the model's loop and why it stopped" })
  agent?: AgentRunDto;
}
