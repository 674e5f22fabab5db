import { IsIn, IsString } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length.js';
import { SendMessageDto } from '../../messaging/dto/send-message.dto.js';

/**
 * Client frame `{type: "message", id, text, user_id, thread_id?, agent_variables?, include_trace?}`: a send body plus the
 * request id, so the same checks as send and stream (text length, agent_id refused whatever its value).
 */
export class SessionMessageFrameDto extends SendMessageDto {
  @IsIn(['message'])
  type: 'message';

  /** The client's id for this request; every server frame about it carries it. */
  @IsString()
  @CharLength(1, 128)
  id: string;
}
