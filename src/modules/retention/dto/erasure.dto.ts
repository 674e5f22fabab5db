import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length.js';

/** `DELETE /management/v1/threads?user_id=…`: the end user whose threads are erased. */
export class EraseUserThreadsQueryDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'user-42', description: 'The end user (the `user_id` of the sends); required' })
  @IsString()
  @CharLength(1, 255)
  user_id: string;
}

export class UserErasureResponseDto {
  @ApiProperty({ example: 'user-42', description: 'The end user whose threads were deleted' })
  user_id: string;

  @ApiProperty({ example: 3, description: 'Threads deleted (with their messages, traces and channel messages)' })
  deleted_threads: number;

  @ApiProperty({ example: 7, description: 'Interactions (turns) deleted with them; usage totals keep counting them' })
  deleted_interactions: number;

  @ApiProperty({ example: 0, description: 'Events-webhook events that ran on those threads, deleted with them' })
  deleted_events: number;
}
