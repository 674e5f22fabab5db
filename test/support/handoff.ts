import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, shopBundle } from './agents.js';
import type { TestApp } from './test-app.js';

/** An operator: an organization user signed in with a login session. */
export interface TestOperator {
  userId: string;
  headers: Record<string, string>;
}

/** `storedHash`: the users share one password hash (hashing is slow on purpose; tests that need many operators hash once). */
export async function operator(t: TestApp, org: TestOrg, shared?: { password: string; hash: string }): Promise<TestOperator> {
  const user = shared ? await t.factory.user(org, shared.password, shared.hash) : await t.factory.user(org);
  const login = expectStatus(
    await t.http.post('/management/v1/auth/token', { grant_type: 'password', username: user.email, password: user.password }),
    200,
    'operator login',
  );
  return { userId: user.id, headers: { authorization: `Bearer ${login.body.access_token}` } };
}

export const HANDOFF_MESSAGE = 'Connecting you to a person…';

/**
 * The shop bundle with handoff enabled: a `human` parameter ("a human", "a person") fires a `handoff` rule; `model`
 * and `handoff` settings as given.
 */
export function handoffShop(options: { model?: Bundle['model']; handoff?: Partial<NonNullable<Bundle['handoff']>> } = {}): Bundle {
  return {
    ...shopBundle,
    ...(options.model ? { model: options.model } : {}),
    parameters: [
      ...shopBundle.parameters!,
      { code: 'human', title: 'Wants a human', pattern: '\\b(?:a )?(human|person)\\b', type: 'string' },
    ],
    rules: [
      ...shopBundle.rules!,
      { code: 'wants_human', when: { param: 'human', op: 'exists' }, action: 'handoff', message: 'Let me find someone for you.' },
    ],
    handoff: { enabled: true, message: HANDOFF_MESSAGE, ...options.handoff },
  };
}

export const threadPath = (threadId: string, action: string) => `/management/v1/threads/${threadId}/${action}`;
