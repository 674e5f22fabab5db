/**
 * The messaging API as the widget uses it, through the typed client package (clients/typescript): a token from the
 * publishable key (renewed before it expires), the welcome message, and a turn over the SSE stream with resume.
 */
import { ApiError } from '../../clients/typescript/src/errors.js';
import { streamMessage, type SendMessageBody } from '../../clients/typescript/src/stream.js';
import { PublishableKeyTokens } from '../../clients/typescript/src/tokens.js';

export { ApiError };

export class WidgetApi {
  readonly tokens: PublishableKeyTokens;

  constructor(
    readonly baseUrl: string,
    publishableKey: string,
  ) {
    this.tokens = new PublishableKeyTokens({ baseUrl, publishableKey });
  }

  async welcome(): Promise<{ welcome_message: string; followup_suggestions: string[] }> {
    const response = await fetch(`${this.baseUrl}/messaging/v1/welcome-message`, {
      headers: { authorization: `Bearer ${await this.tokens.accessToken()}` },
    });
    if (!response.ok) throw await ApiError.fromResponse(response);
    return (await response.json()) as { welcome_message: string; followup_suggestions: string[] };
  }

  send(body: SendMessageBody) {
    return streamMessage({ baseUrl: this.baseUrl, tokens: this.tokens }, body);
  }
}

/** A sentence for the visitor; the code stays for the page's developer in the console. */
export function explain(error: unknown): string {
  if (error instanceof ApiError) {
    console.warn(`[agent widget] ${error.status} ${error.code}: ${error.message}`);
    if (error.status === 429) return 'Too many messages right now. Please wait a moment and try again.';
    if (error.code === 'no_active_version') return 'This assistant is not available right now.';
    if (error.status === 422) return 'That message could not be sent. Please shorten or rephrase it.';
    return 'Sorry, something went wrong. Please try again.';
  }
  return 'The connection failed. Check your network and try again.';
}
