/**
 * A local fake of Twilio's Messages API, for channel tests: `POST /2010-04-01/Accounts/{sid}/Messages.json`
 * (form-encoded To, From, Body, StatusCallback; HTTP Basic auth sid:token) answers 201 with the message
 * resource (`sid`, `status: "queued"`). It records every accepted message, can be told to fail the next N
 * requests with an HTTP status (retry tests), and computes `X-Twilio-Signature` values for inbound calls
 * independently of the service's own code.
 *
 *   const twilio = await startFakeTwilio({ accountSid: 'AC123', authToken: 'secret' });
 *   // CHANNEL_PROVIDER_BASE_URL = twilio.url
 *   await twilio.waitForMessages(1);
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback?: string;
  receivedAt: number;
}

export interface FakeTwilioRequest {
  path: string;
  authorized: boolean;
  status: number;
  form: Record<string, string>;
}

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  /** Messages accepted (201), in arrival order. */
  messages: FakeTwilioMessage[];
  /** Every request, whatever the answer. */
  requests: FakeTwilioRequest[];
  /** Answer the next `count` message requests with `status` (default 500) before accepting again. */
  failNext(count: number, status?: number): void;
  /** Resolves once at least `count` messages were accepted (polls; fails after `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<FakeTwilioMessage[]>;
  reset(): void;
  close(): Promise<void>;
}

function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')))));
  });
}

export async function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const messages: FakeTwilioMessage[] = [];
  const requests: FakeTwilioRequest[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const form = await readForm(req);
      const authorized = req.headers.authorization === expectedAuth;
      const answer = (status: number, body: unknown) => {
        requests.push({ path, authorized, status, form });
        json(res, status, body);
      };
      if (req.method !== 'POST' || path !== messagesPath) {
        return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      }
      if (!authorized) return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
      if (failures.count > 0) {
        failures.count -= 1;
        return answer(failures.status, { code: 20500, message: 'Internal Server Error', status: failures.status });
      }
      if (!form.To || !form.From || form.Body === undefined) {
        return answer(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      }
      const sid = `SM${randomBytes(16).toString('hex')}`;
      messages.push({ sid, to: form.To, from: form.From, body: form.Body, statusCallback: form.StatusCallback, receivedAt: Date.now() });
      return answer(201, {
        sid,
        account_sid: accountSid,
        to: form.To,
        from: form.From,
        body: form.Body,
        status: 'queued',
        date_created: new Date().toUTCString(),
        direction: 'outbound-api',
        api_version: '2010-04-01',
        uri: `${messagesPath.replace('.json', '')}/${sid}.json`,
      });
    })();
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    requests,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    async waitForMessages(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} messages at the fake Twilio, got ${messages.length}: ${JSON.stringify(messages)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    reset() {
      messages.length = 0;
      requests.length = 0;
      failures = { count: 0, status: 500 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Twilio's signature, written from its documentation: base64 HMAC-SHA1(token, url + sorted key+value pairs). */
export function signTwilioRequest(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** A Twilio inbound-message webhook body (the fields Twilio sends for an SMS or WhatsApp message). */
export function inboundParams(
  accountSid: string,
  fields: { sid?: string; from: string; to: string; body: string },
): Record<string, string> {
  const sid = fields.sid ?? `SM${randomBytes(16).toString('hex')}`;
  return {
    ToCountry: 'US',
    ToState: 'CA',
    SmsMessageSid: sid,
    NumMedia: '0',
    ToCity: '',
    FromZip: '',
    SmsSid: sid,
    FromState: '',
    SmsStatus: 'received',
    FromCity: '',
    Body: fields.body,
    FromCountry: 'US',
    To: fields.to,
    ToZip: '',
    NumSegments: '1',
    MessageSid: sid,
    AccountSid: accountSid,
    From: fields.from,
    ApiVersion: '2010-04-01',
  };
}
