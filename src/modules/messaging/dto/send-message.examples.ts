import type { ApiErrorCase } from '../../../common/swagger/api-errors.decorator.js';
import type { RequestExample } from '../../../common/swagger/api-example-body.decorator.js';
import { MessagingErrorCode } from '../messaging.errors.js';

/**
 * Request examples of a turn (send and stream share the body). No `thread_id`: a new thread starts, so each example
 * works as sent; the reply's `thread_id` continues the conversation.
 */
export const SEND_EXAMPLES: Record<string, RequestExample> = {
  text: { summary: 'A first message (starts a new thread)', value: { text: 'Do you have running shoes under $100?', user_id: 'user-42' } },
  context: {
    summary: 'With context variables and the reasoning trace',
    value: {
      text: 'Something for rainy days?',
      user_id: 'user-42',
      agent_variables: { static: { locale: 'en-US' }, dynamic: { page: 'trail-running' } },
      include_trace: true,
    },
  },
};

export const NO_ACTIVE_VERSION: ApiErrorCase = {
  status: 404,
  code: MessagingErrorCode.NoActiveVersion,
  message: 'The agent has no published version; publish one to let it answer',
  description: '`no_active_version`: the agent has no live version; `not_found`: the thread is not one of this agent',
};

/** The errors a turn answers before it starts (send, stream). */
export const SEND_ERRORS: ApiErrorCase[] = [
  { status: 400, code: 'bad_request', message: 'This session token is not scoped to an agent; request one with agent_id' },
  { status: 403, code: 'forbidden', message: 'This origin is not allowed for the publishable key' },
  NO_ACTIVE_VERSION,
  {
    status: 422,
    code: 'validation_error',
    message: 'The request is invalid',
    details: [{ field: 'user_id', message: 'user_id must be longer than or equal to 1 characters' }],
  },
  { status: 502, code: 'upstream_unavailable', message: 'The model provider could not be reached' },
];
