import { INPUT_LIMITS } from '../../common/validation/input-limits.js';
import { charCount } from '../../common/validation/char-length.js';
import { unstorableReason } from '../../common/validation/safe-json.js';

/** The one tool an agent offers as an MCP server (docs/mcp.md, "Agents as MCP servers"). */
export const SEND_MESSAGE_TOOL = {
  name: 'send_message',
  title: 'Send a message to the agent',
  description:
    'Sends a message to this agent and returns its reply. Without thread_id a new conversation starts; pass the thread_id of a reply to continue that conversation.',
  inputSchema: {
    type: 'object' as const,
    properties: {
      text: { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.messageMaxChars, description: 'The message' },
      thread_id: { type: 'string', pattern: '^[0-9a-fA-F]{24}$', description: 'The conversation to continue (from a previous reply)' },
      user_id: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: 'Who is talking (default: the thread\'s end user, or "mcp-client" on a new thread)',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object' as const,
    properties: {
      thread_id: { type: 'string' },
      interaction_id: { type: 'string' },
      message: { type: 'object', description: 'The reply, as POST /messaging/v1/messages answers it' },
    },
    required: ['thread_id', 'interaction_id', 'message'],
  },
};

/** The end user of a new thread when the caller names none and its credential has no user. */
export const DEFAULT_MCP_USER = 'mcp-client';

export interface SendMessageArguments {
  text: string;
  threadId?: string;
  userId?: string;
}

/**
 * The tool's arguments, checked as the send route checks its body (the same limits, nothing PostgreSQL would refuse),
 * or the problems, named by argument.
 */
export function parseSendMessageArguments(args: unknown): { ok: true; value: SendMessageArguments } | { ok: false; problems: string[] } {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, problems: ['arguments must be an object'] };
  const { text, thread_id: threadId, user_id: userId, ...rest } = args as Record<string, unknown>;
  const problems = Object.keys(rest).map((name) => `${name} is not an argument of send_message`);
  const string = (value: unknown, name: string, min: number, max: number) => {
    if (typeof value !== 'string') return problems.push(`${name} must be a string`);
    const length = charCount(value);
    if (length < min || length > max) return problems.push(`${name} must be ${min} to ${max} characters long`);
    const unstorable = unstorableReason(value);
    if (unstorable) problems.push(`${name} ${unstorable}`);
  };
  string(text, 'text', 1, INPUT_LIMITS.messageMaxChars);
  if (threadId !== undefined && (typeof threadId !== 'string' || !/^[0-9a-fA-F]{24}$/.test(threadId))) {
    problems.push('thread_id must be 24 hexadecimal characters (the thread_id of a reply)');
  }
  if (userId !== undefined) string(userId, 'user_id', 1, 255);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { text: text as string, threadId: threadId as string | undefined, userId: userId as string | undefined } };
}
