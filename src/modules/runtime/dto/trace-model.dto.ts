import { ApiProperty } from '@nestjs/swagger';
import type { TraceModel } from '../trace.types.js';

const PROVIDERS = ['builtin', 'openai', 'anthropic'];

/** Who wrote the reply (RuntimeService): the provider and model the bundle names, its endpoint, and the actual writer. */
export class TraceModelDto implements TraceModel {
  @ApiProperty({ enum: PROVIDERS, description: "The bundle's `model.provider` (builtin when it names none)" })
  provider: TraceModel['provider'];
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'gpt-4o-mini',
    description: "The model asked for: the bundle's `model.name`, else the provider's default; null for builtin",
  })
  name: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://api.openai.com/v1',
    description: 'The base URL the provider calls (OPENAI_BASE_URL / ANTHROPIC_BASE_URL; scheme, host and path only); null for builtin',
  })
  endpoint: string | null;
  @ApiProperty({
    enum: PROVIDERS,
    description:
      'Who wrote this reply: the provider, or builtin (the engine’s own reply) when the bundle names no model, the reply is fixed (a block, a question) or the provider answered nothing',
  })
  writer: TraceModel['writer'];
}
