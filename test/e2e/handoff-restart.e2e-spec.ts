// A handoff request's timeout survives a restart of the service and acts once (docs/handoff.md, "Timeout").
import { HandoffService } from '../../src/modules/handoff/handoff.service.js';
import { expectStatus, liveAgent } from '../support/agents.js';
import { handoffShop } from '../support/handoff.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

describe('handoff timeout across a restart', () => {
  let second: TestApp | undefined;
  afterAll(() => second?.close());

  it('a request waiting while the service stops times out once after it starts again', async () => {
    const first = await createTestApp();
    await first.reset();
    const org = await first.factory.org();
    const agent = await liveAgent(first, org, {
      bundle: handoffShop({ handoff: { timeout_s: 2, timeout_message: 'Back to the bot.', on_timeout: 'agent' } }),
      runtime: 'v1',
    });
    const threadId = (await first.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u-restart' }, agent.headers)).body.thread_id;
    expectStatus(await first.http.post(`/messaging/v1/threads/${threadId}/handoff`, {}, agent.headers), 200, 'handoff');
    const requestedAt = (await first.http.get(`/management/v1/threads/${threadId}`, org.headers)).body.handoff_requested_at as string;
    await first.close();

    second = await createTestApp();
    const thread = await waitFor(async () => {
      const read = (await second!.http.get(`/management/v1/threads/${threadId}`, org.headers)).body;
      return read.control === 'agent' && read;
    }, 'the timeout after the restart');
    expect(thread.handoff_released_at).not.toBeNull();

    // A second firing of the same request (a retried or duplicated job) changes nothing.
    expect(await second.app.get(HandoffService).timeout(org.id, threadId, new Date(requestedAt))).toBe(false);
    const notes = await second.dataSource.query(
      `SELECT content->>'change' AS change, text FROM thread_items WHERE thread_id = $1 AND kind = 'note' ORDER BY seq`,
      [threadId],
    );
    expect(notes).toEqual([
      { change: 'requested', text: 'Connecting you to a person…' },
      { change: 'timed_out', text: 'Back to the bot.' },
    ]);
  });
});
