import { type Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { ErrorBodyDto } from '../../../common/errors/error-envelope.js';
import { CharLength } from '../../../common/validation/char-length.js';
import { SendMessageDto } from '../../messaging/dto/send-message.dto.js';
import {
  StreamCardEventDto,
  StreamDeltaEventDto,
  StreamMessageEventDto,
  StreamStepEventDto,
  StreamSuggestionsEventDto,
  StreamThreadEventDto,
} from './stream-event.dto.js';

/**
 * Client frame `{type: "message", id, text, user_id, thread_id?, agent_variables?, include_trace?}`: a send body plus the
 * request id, so the same checks as send and stream (text length, agent_id refused whatever its value).
 */
export class SessionMessageFrameDto extends SendMessageDto {
  @ApiProperty({ enum: ['message'], description: 'Frame type: one turn' })
  @IsIn(['message'])
  type: 'message';

  /** The client's id for this request; every server frame about it carries it. */
  @ApiProperty({
    minLength: 1,
    maxLength: 128,
    example: 'req-1',
    description: 'Your id for this request; every server frame about it carries it',
  })
  @IsString()
  @CharLength(1, 128)
  id: string;
}

// The classes below only document the WebSocket session's other frames (the `x-websocket` extension of openapi.json).

/** Client frame `{type: "ping"}`, answered by `{type: "pong"}`. */
export class SessionPingFrameDto {
  @ApiProperty({ enum: ['ping'], description: 'Frame type' }) type: 'ping';
}

/** Server frame `{type: "pong"}`. */
export class SessionPongFrameDto {
  @ApiProperty({ enum: ['pong'], description: 'Frame type' }) type: 'pong';
}

/** Server frame sent once after authentication. */
export class SessionReadyFrameDto {
  @ApiProperty({ enum: ['ready'], description: 'Frame type: the session is authenticated; send after this' }) type: 'ready';
  @ApiProperty({ description: 'Id of this session (for logs)', example: '3b1f8c2e-7d4a-4e4b-9c1a-2f5e6d7c8b9a' }) session_id: string;
}

/** A server frame about one request: the SSE event's payload plus `type` and the client's request `id`. */
function requestFrame<T>(type: string, payload: Type<T>, description: string): Type<T & { type: string; id: string }> {
  class RequestFrame extends (payload as Type<object>) {
    @ApiProperty({ enum: [type], description: `Frame type: ${description}` }) type: string;
    @ApiProperty({ description: 'The id of the client `message` frame this answers', example: 'req-1' }) id: string;
  }
  Object.defineProperty(RequestFrame, 'name', { value: `Session${type[0]!.toUpperCase()}${type.slice(1)}FrameDto` });
  return RequestFrame as Type<T & { type: string; id: string }>;
}

class NoPayload {}

export const SessionThreadFrameDto = requestFrame('thread', StreamThreadEventDto, 'first frame of a request');
export const SessionStepFrameDto = requestFrame(
  'step',
  StreamStepEventDto,
  'a tool call of agent mode as it starts and ends (docs/agents.md)',
);
export const SessionDeltaFrameDto = requestFrame('delta', StreamDeltaEventDto, 'the next piece of the reply text (runtime-v1 agents only)');
export const SessionCardFrameDto = requestFrame('card', StreamCardEventDto, 'a product or record card');
export const SessionReplyFrameDto = requestFrame(
  'message',
  StreamMessageEventDto,
  'the whole reply, as POST /messaging/v1/messages answers it',
);
export const SessionSuggestionsFrameDto = requestFrame('suggestions', StreamSuggestionsEventDto, 'follow-up suggestions');
export const SessionDoneFrameDto = requestFrame('done', NoPayload, 'the request is finished');

/** Server frame: the request failed (same codes as HTTP; `details` is always an array). The session stays open. */
export class SessionErrorFrameDto {
  @ApiProperty({ enum: ['error'], description: 'Frame type: the request failed' }) type: 'error';
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The request id, or null when the frame had no readable id' })
  id: string | null;
  @ApiProperty({ type: ErrorBodyDto, description: 'The error envelope body' }) error: ErrorBodyDto;
}

export const SESSION_CLIENT_FRAMES = { message: SessionMessageFrameDto, ping: SessionPingFrameDto };

export const SESSION_SERVER_FRAMES = {
  ready: SessionReadyFrameDto,
  thread: SessionThreadFrameDto,
  step: SessionStepFrameDto,
  delta: SessionDeltaFrameDto,
  card: SessionCardFrameDto,
  message: SessionReplyFrameDto,
  suggestions: SessionSuggestionsFrameDto,
  done: SessionDoneFrameDto,
  error: SessionErrorFrameDto,
  pong: SessionPongFrameDto,
};

/** The WebSocket session as openapi.json documents it (`x-websocket`); docs/streaming.md has the full rules. */
export const SESSION_WEBSOCKET_DOC = {
  summary: 'WebSocket session: many turns over one authenticated connection',
  description:
    'GET with `Upgrade: websocket`. Authenticate with `Authorization: Bearer <token>`, `?access_token=<token>`, or the ' +
    "subprotocols `bearer, <token>` (browsers: `new WebSocket(url, ['bearer', token])`). JSON text frames, fields at the top " +
    'level; concurrent requests interleave, told apart by `id`. Not resumable: after a reconnect, read the turn back from the thread.',
  clientFrames: SESSION_CLIENT_FRAMES,
  serverFrames: SESSION_SERVER_FRAMES,
  closeCodes: {
    '1008': 'missing, invalid, expired or revoked credential, or too many frames',
    '1009': 'a frame over SESSION_MAX_FRAME_BYTES',
    '1013': 'too many open sessions for this credential; try again later',
  },
};
