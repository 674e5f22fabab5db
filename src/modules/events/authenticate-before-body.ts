import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../common/errors/app-error.js';
import type { AuthService } from '../auth/auth.service.js';
import { AGENT_API_KEY_HEADER } from '../auth/strategies/agent-api-key.strategy.js';
import { isStoreUnavailable } from './failure-kinds.js';
import { EventStoreUnavailableError } from './events.errors.js';

/**
 * onRequest hook of the events webhook: the agent key is checked before Fastify reads, sizes or parses the body,
 * so a caller without a valid key gets 401 whatever it sends (bad JSON, 1 MiB, text/plain) and costs no body
 * work. CredentialGuard still runs for the route and finds the key in AuthService's cache. As on the rest of the
 * webhook, an unreachable PostgreSQL is 502 (retry with backoff), not 500.
 */
export function authenticateAgentKeyBeforeBody(auth: AuthService) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = request.headers[AGENT_API_KEY_HEADER];
    if (typeof key !== 'string' || key.length === 0) throw new UnauthorizedError(`Send the ${AGENT_API_KEY_HEADER} header`);
    try {
      await auth.authenticateAgentKey(key);
    } catch (error) {
      throw isStoreUnavailable(error) ? new EventStoreUnavailableError() : error;
    }
  };
}
