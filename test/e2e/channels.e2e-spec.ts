import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { inboundParams, signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-server.js';
import { waitFor } from '../support/wait.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const DEFAULT_SMS = '+15550001111';
const DEFAULT_WHATSAPP = '+15550002222';
const PUBLIC_BASE = 'https://agents.example.com';
const PHONE = '+15557654321';
const WELCOME = shopBundle.welcome_message!;

const threads = (channel: string) => `/messaging/v1/channels/${channel}/threads`;

/** Posts a provider webhook the way Twilio does: form-encoded, signed over the public URL (unless told otherwise). */
async function postWebhook(
  t: TestApp,
  twilio: FakeTwilio,
  path: string,
  params: Record<string, string>,
  options: { signature?: string | null; signedUrl?: string } = {},
) {
  const signature =
    options.signature === undefined
      ? signTwilioRequest(twilio.authToken, options.signedUrl ?? `${PUBLIC_BASE}${path}`, params)
      : options.signature;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (signature !== null) headers['x-twilio-signature'] = signature;
  return t.http.request('POST', path, { raw: new URLSearchParams(params).toString(), headers });
}

const inbound = (channel: string) => `/messaging/v1/channels/${channel}/inbound`;

async function channelMessages(t: TestApp, threadId: string): Promise<any[]> {
  return t.dataSource.query(`SELECT * FROM channel_messages WHERE thread_id = $1 ORDER BY created_at, id`, [threadId]);
}

async function messageWithStatus(t: TestApp, threadId: string, kind: string, status: string): Promise<any> {
  return waitFor(
    async () => (await channelMessages(t, threadId)).find((m) => m.kind === kind && m.status === status),
    `${kind} message ${status}`,
  );
}

describe('channels with a provider', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let org: TestOrg;
  let agent: LiveTestAgent;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await createTestApp({
      CHANNEL_PROVIDER_BASE_URL: twilio.url,
      CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
      CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
      CHANNEL_PUBLIC_BASE_URL: PUBLIC_BASE,
      CHANNEL_DEFAULT_SENDER_SMS: DEFAULT_SMS,
      CHANNEL_DEFAULT_SENDER_WHATSAPP: DEFAULT_WHATSAPP,
      CHANNEL_OUTBOUND_ATTEMPTS: '3',
      CHANNEL_OUTBOUND_BACKOFF_MS: '20',
    });
  });
  beforeEach(async () => {
    await t.reset();
    twilio.reset();
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  describe('POST /messaging/v1/channels/{channel}/threads', () => {
    it('starts a WhatsApp conversation from the platform default sender: no `from`, welcome sent with whatsapp: addresses', async () => {
      const res = await t.http.post(threads('whatsapp'), { user_id: 'u-1', phone_number: PHONE }, agent.headers);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        thread_id: expect.stringMatching(/^[0-9a-f]{24}$/),
        channel: 'whatsapp',
        phone_number: PHONE,
        user_id: 'u-1',
        status: 'queued',
      });
      expect(res.body).not.toHaveProperty('from');

      const [sent] = await twilio.waitForMessages(1);
      expect(sent).toMatchObject({
        to: `whatsapp:${PHONE}`,
        from: `whatsapp:${DEFAULT_WHATSAPP}`,
        body: WELCOME,
        statusCallback: `${PUBLIC_BASE}/messaging/v1/channels/whatsapp/status`,
      });
      expect(twilio.requests.every((r) => r.authorized)).toBe(true);

      const opening = await messageWithStatus(t, res.body.thread_id, 'opening', 'sent');
      expect(opening).toMatchObject({
        direction: 'outbound',
        provider_message_id: sent!.sid,
        from_number: DEFAULT_WHATSAPP,
        to_number: PHONE,
        body: WELCOME,
        attempts: 1,
        error: null,
      });

      const [thread] = await t.dataSource.query(`SELECT * FROM threads WHERE id = $1`, [res.body.thread_id]);
      expect(thread).toMatchObject({
        organization_id: org.id,
        agent_id: agent.agentId,
        user_id: 'u-1',
        channel: 'whatsapp',
        phone_number: PHONE,
        sender_id: null,
        sender_number: DEFAULT_WHATSAPP,
        runtime: 'v1',
        version_tag: 'v1.1',
        interaction_count: 0,
      });
    });

    it('starts an SMS conversation from a connected sender: `from` is its number, the agent signs with its display name', async () => {
      const sender = (
        await t.http.post(
          '/management/v1/senders',
          { channel: 'sms', phone_number: '+15550009999', display_name: 'Shop line' },
          org.headers,
        )
      ).body;
      const res = await t.http.post(
        threads('sms'),
        { user_id: 'u-2', phone_number: PHONE, sender_id: sender.id, agent_display_name: 'Trail Shop' },
        agent.headers,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        thread_id: expect.any(String),
        channel: 'sms',
        phone_number: PHONE,
        user_id: 'u-2',
        status: 'queued',
        from: '+15550009999',
      });

      const [sent] = await twilio.waitForMessages(1);
      expect(sent).toMatchObject({ to: PHONE, from: '+15550009999', body: `Trail Shop: ${WELCOME}` });
      const [thread] = await t.dataSource.query(`SELECT sender_id, sender_number, agent_display_name FROM threads WHERE id = $1`, [
        res.body.thread_id,
      ]);
      expect(thread).toEqual({ sender_id: sender.id, sender_number: '+15550009999', agent_display_name: 'Trail Shop' });
    });

    it('uses the SMS default sender without a `from`, and a WhatsApp connected sender with one', async () => {
      const sms = await t.http.post(threads('sms'), { user_id: 'u-3', phone_number: PHONE }, agent.headers);
      expect(sms.status).toBe(201);
      expect(sms.body).not.toHaveProperty('from');
      const sender = (await t.http.post('/management/v1/senders', { channel: 'whatsapp', phone_number: '+15550008888' }, org.headers)).body;
      const wa = await t.http.post(threads('whatsapp'), { user_id: 'u-3', phone_number: PHONE, sender_id: sender.id }, agent.headers);
      expect(wa.status).toBe(201);
      expect(wa.body.from).toBe('+15550008888');
      const sent = await twilio.waitForMessages(2);
      expect(sent.map((m) => m.from).sort()).toEqual([DEFAULT_SMS, 'whatsapp:+15550008888']);
    });

    it('reads a channel thread back with the current status of its opening message', async () => {
      const sender = (await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: '+15550004444' }, org.headers)).body;
      const started = (await t.http.post(threads('sms'), { user_id: 'u-4', phone_number: PHONE, sender_id: sender.id }, agent.headers))
        .body;
      await messageWithStatus(t, started.thread_id, 'opening', 'sent');
      const res = await t.http.get(`${threads('sms')}/${started.thread_id}`, agent.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...started, status: 'sent' });
      const plain = (await t.http.post(threads('whatsapp'), { user_id: 'u-4', phone_number: PHONE }, agent.headers)).body;
      expect((await t.http.get(`${threads('whatsapp')}/${plain.thread_id}`, agent.headers)).body).not.toHaveProperty('from');

      expect((await t.http.get(`${threads('whatsapp')}/${started.thread_id}`, agent.headers)).status).toBe(404);
      expect((await t.http.get(`${threads('telegram')}/${started.thread_id}`, agent.headers)).status).toBe(404);
      const other = await liveAgent(t, await t.factory.org(), { bundle: shopBundle, runtime: 'v1' });
      expect((await t.http.get(`${threads('sms')}/${started.thread_id}`, other.headers)).status).toBe(404);
      const bad = await t.http.get(`${threads('sms')}/nope`, agent.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'threadId' })]);
      expect((await t.http.get(`${threads('sms')}/${started.thread_id}`)).status).toBe(401);
    });

    it("answers 404 for another organization's sender or an unknown one, and 422 for a sender of the other channel", async () => {
      const other = await t.factory.org();
      const foreign = (await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: '+15550007777' }, other.headers)).body;
      const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE, sender_id: foreign.id }, agent.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      const unknown = await t.http.post(
        threads('sms'),
        { user_id: 'u', phone_number: PHONE, sender_id: 'ffffffffffffffffffffffff' },
        agent.headers,
      );
      expect(unknown.status).toBe(404);

      const wa = (await t.http.post('/management/v1/senders', { channel: 'whatsapp', phone_number: '+15550006666' }, org.headers)).body;
      const mismatch = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE, sender_id: wa.id }, agent.headers);
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.error.details).toEqual([expect.objectContaining({ field: 'sender_id' })]);
      expect(twilio.messages).toHaveLength(0);
    });

    it('answers 404 not_found for an unknown channel', async () => {
      for (const channel of ['telegram', 'SMS', 'email']) {
        const res = await t.http.post(threads(channel), { user_id: 'u', phone_number: PHONE }, agent.headers);
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'not_found', request_id: res.headers.get('x-request-id') });
      }
    });

    it('rejects phone numbers that are not E.164 with 422 naming phone_number', async () => {
      for (const phone of ['5557654321', '+0155576543', '+1 555 765 4321', '+1234', '+1234567890123456', 'whatsapp:+15557654321']) {
        const res = await t.http.post(threads('whatsapp'), { user_id: 'u', phone_number: phone }, agent.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details).toEqual([{ field: 'phone_number', message: expect.stringContaining('E.164') }]);
      }
    });

    it('rejects the earlier body fields and invalid values with 422 and clear messages', async () => {
      const cases: Array<[Record<string, unknown>, string, RegExp]> = [
        [{ agent_id: agent.agentId }, 'agent_id', /access token carries the agent/],
        [{ template_id: 'welcome_v2' }, 'template_id', /no longer accepted/],
        [{ content_variables: { 1: 'x' } }, 'content_variables', /no longer accepted/],
        [{ user_ref_id: 'u-9' }, 'user_ref_id', /renamed to user_id/],
        [{ user_id: '' }, 'user_id', /./],
        [{ user_id: 'x'.repeat(256) }, 'user_id', /./],
        [{ agent_display_name: 'x'.repeat(101) }, 'agent_display_name', /./],
        [{ sender_id: 'not-an-id' }, 'sender_id', /24 hexadecimal/],
        [{ unexpected: true }, 'unexpected', /not allowed/],
      ];
      for (const [patch, field, message] of cases) {
        const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE, ...patch }, agent.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details).toEqual(expect.arrayContaining([{ field, message: expect.stringMatching(message) }]));
      }
      const missing = await t.http.post(threads('sms'), {}, agent.headers);
      expect(missing.status).toBe(422);
      expect(missing.body.error.details.map((d: any) => d.field).sort()).toEqual(['phone_number', 'user_id']);
    });

    it('answers 401 without credentials or with a management credential', async () => {
      const none = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('unauthorized');
      const orgKey = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, org.headers);
      expect(orgKey.status).toBe(401);
      const bad = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, { authorization: 'Bearer nope' });
      expect(bad.status).toBe(401);
    });

    it('answers 404 no_active_version for an agent without a published version', async () => {
      const draft = await t.factory.agent(org);
      const key = await t.factory.publishableKey(draft);
      const token = (await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.key })).body
        .access_token;
      const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('no_active_version');
    });
  });

  describe('inbound replies from the phone', () => {
    async function startConversation(channel: 'whatsapp' | 'sms', body: Record<string, unknown> = {}) {
      const res = await t.http.post(threads(channel), { user_id: 'shopper-1', phone_number: PHONE, ...body }, agent.headers);
      expect(res.status).toBe(201);
      await twilio.waitForMessages(twilio.messages.length + 1);
      return res.body.thread_id as string;
    }

    it('answers a WhatsApp reply with the agent, through the events pipeline, and delivers the answer to the phone', async () => {
      const threadId = await startConversation('whatsapp');
      const params = inboundParams(twilio.accountSid, {
        from: `whatsapp:${PHONE}`,
        to: `whatsapp:${DEFAULT_WHATSAPP}`,
        body: 'I am looking for trail shoes',
      });
      const res = await postWebhook(t, twilio, inbound('whatsapp'), params);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');

      const [, answer] = await twilio.waitForMessages(2);
      expect(answer).toMatchObject({ to: `whatsapp:${PHONE}`, from: `whatsapp:${DEFAULT_WHATSAPP}` });
      expect(answer!.body).toContain('Ridge Runner Trail Shoe');

      const rows = await channelMessages(t, threadId);
      const received = rows.find((m) => m.kind === 'inbound');
      expect(received).toMatchObject({
        direction: 'inbound',
        status: 'received',
        provider_message_id: params.MessageSid,
        from_number: PHONE,
        to_number: DEFAULT_WHATSAPP,
        body: 'I am looking for trail shoes',
      });
      const reply = await messageWithStatus(t, threadId, 'reply', 'sent');
      expect(reply).toMatchObject({
        in_reply_to: received.id,
        provider_message_id: answer!.sid,
        from_number: DEFAULT_WHATSAPP,
        to_number: PHONE,
      });

      const [event] = await t.dataSource.query(`SELECT * FROM events WHERE id = $1`, [received.event_id]);
      expect(event).toMatchObject({ status: 'completed', thread_id: threadId, external_thread_id: `whatsapp:${threadId}` });
      const [thread] = await t.dataSource.query(`SELECT interaction_count, user_id FROM threads WHERE id = $1`, [threadId]);
      expect(thread).toEqual({ interaction_count: 1, user_id: 'shopper-1' });
      const [turn] = await t.dataSource.query(`SELECT id, user_text, user_id FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1`, [threadId]);
      expect(turn).toMatchObject({ id: reply.interaction_id, user_text: 'I am looking for trail shoes', user_id: 'shopper-1' });
    });

    it('continues an SMS conversation started from a connected sender', async () => {
      const sender = (await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: '+15550005555' }, org.headers)).body;
      const threadId = await startConversation('sms', { sender_id: sender.id });
      const res = await postWebhook(
        t,
        twilio,
        inbound('sms'),
        inboundParams(twilio.accountSid, { from: PHONE, to: '+15550005555', body: 'show me jackets' }),
      );
      expect(res.status).toBe(200);
      const [, answer] = await twilio.waitForMessages(2);
      expect(answer).toMatchObject({ to: PHONE, from: '+15550005555' });
      expect(answer!.body).toContain('Storm Shell Jacket');
      expect((await messageWithStatus(t, threadId, 'reply', 'sent')).thread_id).toBe(threadId);
    });

    it('produces one reply for duplicate deliveries of the same MessageSid', async () => {
      const threadId = await startConversation('sms');
      const params = inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'show me jackets' });
      const responses = await Promise.all([1, 2, 3].map(() => postWebhook(t, twilio, inbound('sms'), params)));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
      await messageWithStatus(t, threadId, 'reply', 'sent');
      const again = await postWebhook(t, twilio, inbound('sms'), params);
      expect(again.status).toBe(200);

      const rows = await channelMessages(t, threadId);
      expect(rows.filter((m) => m.kind === 'inbound')).toHaveLength(1);
      expect(rows.filter((m) => m.kind === 'reply')).toHaveLength(1);
      expect(await t.dataSource.query(`SELECT id FROM events WHERE external_thread_id = $1`, [`sms:${threadId}`])).toHaveLength(1);
      expect(await t.dataSource.query(`SELECT id FROM interactions WHERE thread_id = $1`, [threadId])).toHaveLength(1);
      expect(twilio.messages).toHaveLength(2);
    });

    it('runs the turns of one conversation in the order the messages arrived', async () => {
      const threadId = await startConversation('sms');
      const texts = ['show me jackets', 'I am looking for trail shoes', 'where is my order'];
      for (const text of texts) {
        expect(
          (await postWebhook(t, twilio, inbound('sms'), inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: text })))
            .status,
        ).toBe(200);
      }
      await waitFor(
        async () => (await channelMessages(t, threadId)).filter((m) => m.kind === 'reply' && m.status === 'sent').length === 3,
        'three replies sent',
      );
      const turns = await t.dataSource.query(`SELECT user_text FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1 ORDER BY seq`, [threadId]);
      expect(turns.map((r: any) => r.user_text)).toEqual(texts);
      // The replies reached the provider in the same order.
      const rows = await channelMessages(t, threadId);
      const answered = twilio.messages.slice(1).map((sent) => {
        const reply = rows.find((m) => m.provider_message_id === sent.sid);
        return rows.find((m) => m.id === reply.in_reply_to).body;
      });
      expect(answered).toEqual(texts);
      expect(rows.filter((m) => m.kind === 'inbound').every((m) => m.interaction_id)).toBe(true);
    });

    it('continues the latest conversation between the two numbers', async () => {
      await startConversation('sms');
      const latest = await startConversation('sms');
      await postWebhook(
        t,
        twilio,
        inbound('sms'),
        inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'show me jackets' }),
      );
      expect((await messageWithStatus(t, latest, 'reply', 'sent')).thread_id).toBe(latest);
    });

    it('acknowledges a message that matches no conversation without recording or answering it', async () => {
      const res = await postWebhook(
        t,
        twilio,
        inbound('sms'),
        inboundParams(twilio.accountSid, { from: '+15559990000', to: DEFAULT_SMS, body: 'hello?' }),
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain('<Response/>');
      expect(await t.dataSource.query(`SELECT id FROM channel_messages`)).toEqual([]);
    });

    it('rejects unsigned (401) and badly signed (403) webhook calls, and records nothing', async () => {
      const threadId = await startConversation('sms');
      const params = inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'show me jackets' });
      const unsigned = await postWebhook(t, twilio, inbound('sms'), params, { signature: null });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.error.code).toBe('unauthorized');
      const wrongKey = await postWebhook(t, twilio, inbound('sms'), params, {
        signature: signTwilioRequest('not-the-token', `${PUBLIC_BASE}${inbound('sms')}`, params),
      });
      expect(wrongKey.status).toBe(403);
      expect(wrongKey.body.error.code).toBe('forbidden');
      const wrongUrl = await postWebhook(t, twilio, inbound('sms'), params, { signedUrl: `${t.baseUrl}${inbound('sms')}` });
      expect(wrongUrl.status).toBe(403);
      const tampered = await postWebhook(t, twilio, inbound('sms'), params, {
        signature: signTwilioRequest(twilio.authToken, `${PUBLIC_BASE}${inbound('sms')}`, { ...params, Body: 'something else' }),
      });
      expect(tampered.status).toBe(403);
      expect((await channelMessages(t, threadId)).filter((m) => m.kind === 'inbound')).toEqual([]);
    });

    it('answers 404 for an unknown channel and 422 for a signed body without the message fields', async () => {
      const params = inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'hi' });
      expect((await postWebhook(t, twilio, inbound('telegram'), params)).status).toBe(404);
      const smsToWhatsapp = await postWebhook(t, twilio, inbound('whatsapp'), params);
      expect(smsToWhatsapp.status).toBe(422);
      const { MessageSid: _a, SmsMessageSid: _b, SmsSid: _c, ...withoutSid } = params;
      const missing = await postWebhook(t, twilio, inbound('sms'), withoutSid);
      expect(missing.status).toBe(422);
      expect(missing.body.error.code).toBe('validation_error');
    });

    it('applies signed delivery-status callbacks to outbound messages', async () => {
      const threadId = await startConversation('sms');
      const opening = await messageWithStatus(t, threadId, 'opening', 'sent');
      const status = `/messaging/v1/channels/sms/status`;
      const delivered = {
        MessageSid: opening.provider_message_id,
        MessageStatus: 'delivered',
        AccountSid: twilio.accountSid,
        To: PHONE,
        From: DEFAULT_SMS,
      };
      expect((await postWebhook(t, twilio, status, delivered, { signature: 'bad' })).status).toBe(403);
      const res = await postWebhook(t, twilio, status, delivered);
      expect(res.status).toBe(200);
      expect((await channelMessages(t, threadId))[0]).toMatchObject({ kind: 'opening', status: 'delivered' });
    });
  });

  describe('outbound delivery', () => {
    it('retries on provider 5xx with backoff, then sends', async () => {
      twilio.failNext(2, 503);
      const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, agent.headers);
      const opening = await messageWithStatus(t, res.body.thread_id, 'opening', 'sent');
      expect(opening.attempts).toBe(3);
      expect(twilio.requests.map((r) => r.status)).toEqual([503, 503, 201]);
      expect(twilio.messages).toHaveLength(1);
    });

    it('marks the message undelivered with the reason once attempts run out', async () => {
      twilio.failNext(10, 500);
      const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, agent.headers);
      const opening = await messageWithStatus(t, res.body.thread_id, 'opening', 'undelivered');
      expect(opening.attempts).toBe(3);
      expect(opening.error).toMatch(/HTTP 500.*gave up after 3 attempts/);
      expect(twilio.messages).toHaveLength(0);
    });

    it('does not retry what the provider refuses (4xx)', async () => {
      twilio.failNext(1, 400);
      const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, agent.headers);
      const opening = await messageWithStatus(t, res.body.thread_id, 'opening', 'undelivered');
      expect(opening.attempts).toBe(1);
      expect(opening.error).toMatch(/HTTP 400/);
      expect(twilio.requests).toHaveLength(1);
    });
  });

  describe('senders', () => {
    const SENDERS = '/management/v1/senders';

    it('creates, lists (paginated) and deletes senders', async () => {
      const created = await t.http.post(
        SENDERS,
        { channel: 'whatsapp', phone_number: '+15550100001', display_name: 'Support' },
        org.headers,
      );
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        channel: 'whatsapp',
        phone_number: '+15550100001',
        display_name: 'Support',
        created_at: expect.any(String),
      });
      await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100002' }, org.headers);
      await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100003' }, org.headers);

      const page1 = await t.http.get(`${SENDERS}?page[size]=2&sort_by=phone_number&sort_order=asc`, org.headers);
      expect(page1.status).toBe(200);
      expect(page1.body.results.map((s: any) => s.phone_number)).toEqual(['+15550100001', '+15550100002']);
      expect(page1.body.meta.has_more).toBe(true);
      const page2 = await t.http.get(page1.body.links.next, org.headers);
      expect(page2.body.results.map((s: any) => s.phone_number)).toEqual(['+15550100003']);
      expect(page2.body.results[0].display_name).toBeNull();

      const del = await t.http.delete(`${SENDERS}/${created.body.id}`, org.headers);
      expect(del.status).toBe(204);
      const after = await t.http.get(SENDERS, org.headers);
      expect(after.body.results).toHaveLength(2);
      expect((await t.http.delete(`${SENDERS}/${created.body.id}`, org.headers)).status).toBe(404);
    });

    it("keeps organizations apart: another organization's sender is invisible and answers 404", async () => {
      const other = await t.factory.org();
      const mine = (await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100004' }, org.headers)).body;
      expect((await t.http.get(SENDERS, other.headers)).body.results).toEqual([]);
      const del = await t.http.delete(`${SENDERS}/${mine.id}`, other.headers);
      expect(del.status).toBe(404);
      expect(del.body.error.code).toBe('not_found');
      // The same number may be connected by another organization.
      expect((await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100004' }, other.headers)).status).toBe(201);
    });

    it('answers 409 sender_exists for a number the organization already connected on that channel', async () => {
      await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100005' }, org.headers);
      const again = await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100005' }, org.headers);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('sender_exists');
      expect((await t.http.post(SENDERS, { channel: 'whatsapp', phone_number: '+15550100005' }, org.headers)).status).toBe(201);
    });

    it('validates the body and the path id with 422', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ channel: 'telegram', phone_number: '+15550100006' }, 'channel'],
        [{ channel: 'sms', phone_number: '555-0100' }, 'phone_number'],
        [{ channel: 'sms', phone_number: '+15550100006', display_name: '' }, 'display_name'],
        [{ channel: 'sms', phone_number: '+15550100006', extra: 1 }, 'extra'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(SENDERS, body, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field })]);
      }
      const badId = await t.http.delete(`${SENDERS}/xyz`, org.headers);
      expect(badId.status).toBe(422);
      expect(badId.body.error.details).toEqual([expect.objectContaining({ field: 'senderId' })]);
      expect((await t.http.get(`${SENDERS}?page[size]=101`, org.headers)).status).toBe(422);
    });

    it('answers 401 without credentials or with a messaging token', async () => {
      expect((await t.http.get(SENDERS)).status).toBe(401);
      expect((await t.http.post(SENDERS, { channel: 'sms', phone_number: '+15550100007' })).status).toBe(401);
      expect((await t.http.delete(`${SENDERS}/ffffffffffffffffffffffff`)).status).toBe(401);
      expect((await t.http.get(SENDERS, agent.headers)).status).toBe(401);
      expect((await t.http.get(SENDERS, { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
    });
  });
});

describe('channels without a provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CHANNEL_DEFAULT_SENDER_SMS: DEFAULT_SMS });
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('records the opening message as undelivered with the reason', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const res = await t.http.post(threads('sms'), { user_id: 'u', phone_number: PHONE }, agent.headers);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('undelivered');
    const [opening] = await channelMessages(t, res.body.thread_id);
    expect(opening).toMatchObject({
      kind: 'opening',
      status: 'undelivered',
      attempts: 0,
      body: WELCOME,
      from_number: DEFAULT_SMS,
      to_number: PHONE,
    });
    expect(opening.error).toMatch(/No channel provider is configured/);
  });

  it('refuses provider webhooks: nothing can verify them', async () => {
    const res = await t.http.request('POST', inbound('sms'), {
      raw: 'MessageSid=SM1&From=%2B15557654321&To=%2B15550001111&Body=hi',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/No channel provider is configured/);
  });

  it('answers 422 naming sender_id when the channel has no default sender and none is given', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const res = await t.http.post(threads('whatsapp'), { user_id: 'u', phone_number: PHONE }, agent.headers);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'sender_id', message: expect.stringMatching(/No platform default WhatsApp sender/) }]);
  });
});
