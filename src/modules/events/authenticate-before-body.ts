import type { FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { authenticateAgentKeyOnce } from '../auth/strategies/agent-api-key.strategy.js';
import { isStoreUnavailable } from './failure-kinds.js';
import { EventStoreUnavailableError } from './events.errors.js';

/**
 * onRequest hook of the events webhook: the agent key is checked before Fastify reads, sizes or parses the body,
 * so a caller without a valid key gets 401 whatever it sends (bad JSON, 1 MiB, text/plain) and costs no body
 * work. CredentialGuard then takes the principal found here instead of checking the key again. As on the rest of
 * the webhook, an unreachable PostgreSQL is 502 (retry with backoff), not 500.
 */
export function authenticateAgentKeyBeforeBody(auth: AuthService) {
  return async (request: FastifyRequest): Promise<void> => {
    try {
      await authenticateAgentKeyOnce(auth, request);
    } catch (error) {
      throw isStoreUnavailable(error) ? new EventStoreUnavailableError() : error;
    }
  };
}
