import { ApiProperty } from '@nestjs/swagger';
import type { TraceWriter } from '../trace.types.js';

/** Who worded a reply (both traces' `writer`). */
export class TraceWriterDto implements TraceWriter {
  @ApiProperty({ enum: ['builtin', 'openai', 'anthropic'], description: 'Who worded the reply: the builtin writer or a model provider' })
  provider: TraceWriter['provider'];
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The provider's model (the bundle's `model.name`); null for builtin",
    example: 'gpt-4o-mini',
  })
  model: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The base URL the call went to (OPENAI_BASE_URL / ANTHROPIC_BASE_URL or the default); null for builtin',
    example: 'https://api.openai.com/v1',
  })
  url: string | null;
}
