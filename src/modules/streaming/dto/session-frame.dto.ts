import { IsIn, IsString, Length } from 'class-validator';
import { SendMessageDto } from '../../messaging/dto/send-message.dto.js';

/** Client frame `{type: "message", id, text, user_id, thread_id?, agent_variables?, include_trace?}`: a send body plus the request id. */
export class SessionMessageFrameDto extends SendMessageDto {
  @IsIn(['message'])
  type: 'message';

  /** The client's id for this request; every server frame about it carries it. */
  @IsString() @Length(1, 128)
  id: string;
}
