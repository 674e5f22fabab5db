import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { inboundParams, signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-server.js';
import { waitFor } from '../support/wait.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DEFAULT_SMS = '+15550001111';
const PUBLIC_BASE = 'https://agents.example.com';
const PHONE = '+15557654321';
const OWN_NUMBER = '+15550003333';
const INBOUND = '/messaging/v1/channels/sms/inbound';
const STATUS = '/messaging/v1/channels/sms/status';
const MESSAGE_MAX_CHARS = 16_384;

/**
 * Inbound channel messages stay with the organization that owns the conversation: a reply to a number several
 * organizations use (the platform default sender) is routed only when exactly one of them has an open
 * conversation with that phone, and provider form fields PostgreSQL would refuse never reach it.
 */
describe('channels: inbound routing between organizations', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let agentA: LiveTestAgent;
  let agentB: LiveTestAgent;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await createTestApp({
      CHANNEL_PROVIDER_BASE_URL: twilio.url,
      CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
      CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
      CHANNEL_PUBLIC_BASE_URL: PUBLIC_BASE,
      CHANNEL_DEFAULT_SENDER_SMS: DEFAULT_SMS,
    });
  });
  beforeEach(async () => {
    await t.reset();
    twilio.reset();
    orgA = await t.factory.org();
    orgB = await t.factory.org();
    agentA = await liveAgent(t, orgA, { bundle: shopBundle, runtime: 'v1' });
    agentB = await liveAgent(t, orgB, { bundle: shopBundle, runtime: 'v1' });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  async function start(agent: LiveTestAgent, body: Record<string, unknown> = {}): Promise<string> {
    const res = await t.http.post(
      '/messaging/v1/channels/sms/threads',
      { user_id: 'shopper', phone_number: PHONE, ...body },
      agent.headers,
    );
    expect(res.status).toBe(201);
    await twilio.waitForMessages(twilio.messages.length + 1);
    return res.body.thread_id as string;
  }

  async function connect(org: TestOrg, phoneNumber: string): Promise<string> {
    const res = await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: phoneNumber }, org.headers);
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  function postSigned(path: string, params: Record<string, string>) {
    const signature = signTwilioRequest(twilio.authToken, `${PUBLIC_BASE}${path}`, params);
    return t.http.request('POST', path, {
      raw: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    });
  }

  async function reply(to: string, body = 'show me jackets', sid?: string) {
    const params = inboundParams(twilio.accountSid, { from: PHONE, to, body, ...(sid ? { sid } : {}) });
    const res = await postSigned(INBOUND, params);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<Response/>');
    return params;
  }

  const inboundRows = (): Promise<Array<Record<string, any>>> =>
    t.dataSource.query(`SELECT * FROM channel_messages WHERE direction = 'inbound' ORDER BY created_at, id`);
  const unroutedRows = (): Promise<Array<Record<string, any>>> =>
    t.dataSource.query(`SELECT * FROM channel_unrouted_messages ORDER BY created_at, id`);

  async function answeredIn(threadId: string): Promise<Record<string, any>> {
    return waitFor(async () => {
      const rows = await t.dataSource.query(`SELECT * FROM channel_messages WHERE thread_id = $1 AND kind = 'reply' AND status = 'sent'`, [
        threadId,
      ]);
      return rows[0];
    }, `a reply sent in thread ${threadId}`);
  }

  describe('on the shared platform default sender', () => {
    it('routes to neither organization when both have an open conversation with the phone, and records it as unrouted', async () => {
      await start(agentA);
      await start(agentB);
      const params = await reply(DEFAULT_SMS);
      // A provider retry of the same message is recorded once.
      await reply(DEFAULT_SMS, 'show me jackets', params.MessageSid);

      expect(await inboundRows()).toEqual([]);
      expect(await t.dataSource.query(`SELECT id FROM events`)).toEqual([]);
      const unrouted = await unroutedRows();
      expect(unrouted).toEqual([
        expect.objectContaining({
          channel: 'sms',
          provider_message_id: params.MessageSid,
          from_number: PHONE,
          to_number: DEFAULT_SMS,
          body: 'show me jackets',
          reason: 'ambiguous_shared_sender',
          organization_ids: [orgA.id, orgB.id].sort(),
        }),
      ]);
      expect(unrouted[0]!.detail).toMatch(/2 organizations/);
      expect(twilio.messages).toHaveLength(2);
    });

    it('routes to the one organization with an open conversation with the phone', async () => {
      const threadA = await start(agentA);
      // B talks to another phone on the same sender, and to this phone on its own number: neither is this conversation.
      expect(
        (await t.http.post('/messaging/v1/channels/sms/threads', { user_id: 'x', phone_number: '+15559876543' }, agentB.headers)).status,
      ).toBe(201);
      await start(agentB, { sender_id: await connect(orgB, OWN_NUMBER) });
      await reply(DEFAULT_SMS);
      const answer = await answeredIn(threadA);
      expect(answer).toMatchObject({ organization_id: orgA.id, to_number: PHONE, from_number: DEFAULT_SMS });
      expect((await inboundRows()).map((m) => m.organization_id)).toEqual([orgA.id]);
      expect(await unroutedRows()).toEqual([]);
    });

    it("ignores a deleted agent's conversation: the one organization left gets the reply", async () => {
      const threadA = await start(agentA);
      await start(agentB);
      expect((await t.http.delete(`/management/v1/agents/${agentB.agentId}`, orgB.headers)).status).toBe(204);
      await reply(DEFAULT_SMS);
      expect((await answeredIn(threadA)).organization_id).toBe(orgA.id);
      expect(await unroutedRows()).toEqual([]);
    });
  });

  describe("on an organization's own sender", () => {
    it("never reaches another organization, even when that organization's thread with the phone is newer", async () => {
      const threadA = await start(agentA, { sender_id: await connect(orgA, OWN_NUMBER) });
      // B connects the same number, talks to the phone from it (newer thread), then removes it: the number is A's alone.
      const senderB = await connect(orgB, OWN_NUMBER);
      const threadB = await start(agentB, { sender_id: senderB });
      expect((await t.http.delete(`/management/v1/senders/${senderB}`, orgB.headers)).status).toBe(204);

      await reply(OWN_NUMBER);
      expect((await answeredIn(threadA)).organization_id).toBe(orgA.id);
      expect((await inboundRows()).map((m) => [m.organization_id, m.thread_id])).toEqual([[orgA.id, threadA]]);
      expect(await t.dataSource.query(`SELECT id FROM channel_messages WHERE thread_id = $1 AND direction = 'inbound'`, [threadB])).toEqual(
        [],
      );
    });

    it('routes to neither when two organizations connected the same number and both talk to the phone from it', async () => {
      await start(agentA, { sender_id: await connect(orgA, OWN_NUMBER) });
      await start(agentB, { sender_id: await connect(orgB, OWN_NUMBER) });
      await reply(OWN_NUMBER);
      expect(await inboundRows()).toEqual([]);
      expect((await unroutedRows()).map((r) => [r.reason, r.organization_ids])).toEqual([
        ['ambiguous_shared_sender', [orgA.id, orgB.id].sort()],
      ]);
    });
  });

  describe('bounded, storable provider input', () => {
    it('acknowledges a message longer than the limit and records it unanswered with the reason (no event, no retry)', async () => {
      const threadA = await start(agentA);
      const params = await reply(DEFAULT_SMS, 'a'.repeat(MESSAGE_MAX_CHARS + 1));
      const [row] = await inboundRows();
      expect(row).toMatchObject({ thread_id: threadA, provider_message_id: params.MessageSid, status: 'undelivered', event_id: null });
      expect(row!.body).toHaveLength(MESSAGE_MAX_CHARS);
      expect(row!.error).toMatch(/longer than 16384 characters/);
      expect(await t.dataSource.query(`SELECT id FROM events`)).toEqual([]);
      // Exactly at the limit is answered.
      await reply(DEFAULT_SMS, `show me jackets ${'a'.repeat(MESSAGE_MAX_CHARS - 16)}`);
      expect((await answeredIn(threadA)).organization_id).toBe(orgA.id);
    });

    it('answers 422 naming Body for a Body with NUL (the edge refuses it in every form field) and records nothing', async () => {
      await start(agentA);
      const res = await postSigned(INBOUND, inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'jack\u0000ets' }));
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'Body' })]);
      expect(await inboundRows()).toEqual([]);
    });

    it('keeps unrouted messages bounded too, cut by characters (never half a surrogate pair)', async () => {
      await start(agentA);
      await start(agentB);
      await reply(DEFAULT_SMS, `x${'b'.repeat(MESSAGE_MAX_CHARS - 2)}\u{1F600}${'b'.repeat(10)}`);
      const [row] = await unroutedRows();
      expect(row!.body).toBe(`x${'b'.repeat(MESSAGE_MAX_CHARS - 2)}\u{1F600}`);
    });

    it('answers 422 for a signed webhook whose MessageSid cannot be stored, and records nothing', async () => {
      await start(agentA);
      const params = inboundParams(twilio.accountSid, { from: PHONE, to: DEFAULT_SMS, body: 'hi', sid: 'SM\u0000x' });
      const res = await postSigned(INBOUND, params);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'MessageSid' })] });
      expect(await inboundRows()).toEqual([]);

      const status = await postSigned(STATUS, { MessageSid: 'SM\u0000x', MessageStatus: 'delivered', AccountSid: twilio.accountSid });
      expect(status.status).toBe(422);
      expect(status.body.error.details).toEqual([expect.objectContaining({ field: 'MessageSid' })]);
    });

    it('ignores an ErrorCode that is not a number in a status callback', async () => {
      const threadA = await start(agentA);
      const opening = await waitFor(
        async () => (await t.dataSource.query(`SELECT * FROM channel_messages WHERE thread_id = $1 AND status = 'sent'`, [threadA]))[0],
        'opening sent',
      );
      const res = await postSigned(STATUS, {
        MessageSid: opening.provider_message_id,
        MessageStatus: 'failed',
        ErrorCode: '30003x',
        AccountSid: twilio.accountSid,
      });
      expect(res.status).toBe(200);
      const [after] = await t.dataSource.query(`SELECT status, error FROM channel_messages WHERE id = $1`, [opening.id]);
      expect(after).toEqual({ status: 'undelivered', error: 'The provider reported failed' });
    });
  });
});
