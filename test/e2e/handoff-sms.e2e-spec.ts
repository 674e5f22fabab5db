// Human handoff on an SMS thread through the local (Twilio-protocol) provider: the end user asks for a human by text,
// is told so by SMS, an operator accepts and writes (delivered as SMS), the end user's texts while held reach the
// operator unanswered and unbilled, and after release the agent answers with the operator's words in its history.
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { inboundParams, signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-server.js';
import { HANDOFF_MESSAGE, handoffShop, operator, threadPath, type TestOperator } from '../support/handoff.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

const SMS_NUMBER = '+15550001111';
const PUBLIC_BASE = 'https://agents.example.com';
const PHONE = '+15557654321';
const INBOUND = '/messaging/v1/channels/sms/inbound';

describe('human handoff on SMS', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let fake: FakeServer;
  let org: TestOrg;
  let agent: LiveTestAgent;
  let ana: TestOperator;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    fake = await startFakeOpenAI();
    t = await createTestApp({
      CHANNEL_PROVIDER_BASE_URL: twilio.url,
      CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
      CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
      CHANNEL_PUBLIC_BASE_URL: PUBLIC_BASE,
      CHANNEL_DEFAULT_SENDER_SMS: SMS_NUMBER,
      CHANNEL_DEFAULT_SENDER_WHATSAPP: '+15550002222',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test-key',
    });
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: handoffShop({ model: { provider: 'openai', name: 'gpt-4o-mini' } }), runtime: 'v1' });
    ana = await operator(t, org);
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
    await fake.close();
  });

  /** A text from the phone, signed as the provider signs it. */
  async function text(body: string): Promise<void> {
    const params = inboundParams(twilio.accountSid, { from: PHONE, to: SMS_NUMBER, body });
    const signature = signTwilioRequest(twilio.authToken, `${PUBLIC_BASE}${INBOUND}`, params);
    const res = await t.http.request('POST', INBOUND, {
      raw: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    });
    expect(res.status).toBe(200);
  }

  const sms = async (count: number) => (await twilio.waitForMessages(count)).map((m) => m.body);

  it('asks for a human by text, talks to an operator by SMS, and gets the agent back with the operator in its history', async () => {
    const opened = expectStatus(
      await t.http.post('/messaging/v1/channels/sms/threads', { user_id: 'phone-user', phone_number: PHONE }, agent.headers),
      201,
      'open',
    ).body;
    const threadId = opened.thread_id as string;
    await sms(1); // the welcome

    await text('I want to talk to a person');
    const [, ...afterAsking] = await sms(3);
    expect(afterAsking).toEqual(expect.arrayContaining([HANDOFF_MESSAGE, expect.stringContaining('Let me find someone for you.')]));
    await waitFor(async () => (await t.http.get(`/management/v1/threads/${threadId}`, org.headers)).body.control === 'pending', 'pending');

    expectStatus(await t.http.post(threadPath(threadId, 'accept'), undefined, ana.headers), 200, 'accept');
    expectStatus(
      await t.http.post(threadPath(threadId, 'messages'), { text: 'Hi, Ana here. What is your order number?' }, ana.headers),
      201,
      'write',
    );
    const delivered = (await twilio.waitForMessages(4)).at(-1)!;
    expect(delivered).toMatchObject({ to: PHONE, from: SMS_NUMBER, body: 'Hi, Ana here. What is your order number?' });

    const calls = fake.requests.length;
    const turns = (await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE thread_id = $1`, [threadId]))[0].n;
    await text('It is 1234');
    await waitFor(async () => {
      const rows = await t.dataSource.query(`SELECT interaction_id FROM channel_messages WHERE thread_id = $1 AND body = 'It is 1234'`, [
        threadId,
      ]);
      return rows[0]?.interaction_id;
    }, 'the held text handled');
    const transcript = (await t.http.get(`/management/v1/threads/${threadId}/messages?page[size]=100`, org.headers)).body.results;
    expect(transcript.at(-1)).toMatchObject({ role: 'user', text: 'It is 1234' });
    expect(fake.requests.length).toBe(calls);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE thread_id = $1`, [threadId]))[0].n).toBe(turns);
    expect(twilio.messages).toHaveLength(4); // nothing answered the held text

    expectStatus(await t.http.post(threadPath(threadId, 'release'), undefined, ana.headers), 200, 'release');
    await text('Thanks! Now show me jackets');
    const answer = (await twilio.waitForMessages(5)).at(-1)!;
    expect(answer.body).toContain('Storm Shell Jacket');
    const history = JSON.stringify(fake.requests.at(-1)!.body);
    expect(history).toContain('What is your order number?');
    expect(history).toContain('It is 1234');
  });
});
