import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsObject, Max, Min, ValidateNested } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';

/** The most arms one split may have. */
export const MAX_TRAFFIC_ARMS = 10;

export class TrafficArmInputDto {
  @ApiProperty({
    pattern: '^[0-9a-fA-F]{24}$',
    example: '6740a1b2c3d4e5f601234567',
    description: 'A published version of this agent (the `id` of a base version item)',
  })
  @IsId()
  version_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 90, description: 'Share of new threads, in whole percent' })
  @IsInt({ message: 'percent must be an integer from 1 to 100' })
  @Min(1, { message: 'percent must be an integer from 1 to 100' })
  @Max(100, { message: 'percent must be an integer from 1 to 100' })
  percent: number;
}

export class UpdateTrafficDto {
  @ApiProperty({
    type: [TrafficArmInputDto],
    minItems: 2,
    maxItems: MAX_TRAFFIC_ARMS,
    description:
      'The arms, in the order their shares are laid out: 2..10 distinct published versions whose percents sum to 100; ' +
      "the agent's live version must be one of them",
  })
  @IsArray()
  @ArrayMinSize(2, { message: 'splits must have at least 2 arms' })
  @ArrayMaxSize(MAX_TRAFFIC_ARMS, { message: `splits must have at most ${MAX_TRAFFIC_ARMS} arms` })
  @IsObject({ each: true, message: 'each arm must be an object {version_id, percent}' })
  @ValidateNested({ each: true })
  @Type(() => TrafficArmInputDto)
  splits: TrafficArmInputDto[];
}

export class TrafficArmDto {
  @ApiId('The version this arm answers with') version_id: string;

  @ApiProperty({
    example: 'v2.1',
    description: 'The revision tag new threads of this arm are answered with (the live arm: the live revision)',
  })
  version_tag: string;

  @ApiProperty({ type: 'integer', example: 10, description: 'Share of new threads, in whole percent' })
  percent: number;

  @ApiProperty({ description: "Whether this arm is the agent's live version" })
  is_live: boolean;
}

/** An agent's traffic split; `splits` is empty when there is none (every thread answers with the live version). */
export class TrafficResponseDto {
  @ApiId('The agent') agent_id: string;

  @ApiProperty({ type: String, nullable: true, example: '6740a1b2c3d4e5f601234567', description: "The agent's live version" })
  live_version_id: string | null;

  @ApiProperty({ type: [TrafficArmDto], description: 'The arms in layout order; empty: no split' })
  splits: TrafficArmDto[];

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the split was set; null without one' })
  updated_at: string | null;
}
