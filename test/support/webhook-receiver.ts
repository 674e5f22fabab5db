// An operator's webhook receiver for tests: verifies every delivery with the `standardwebhooks` npm package (the
// spec's reference implementation), as an operator's receiver would.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newId } from '../../src/common/ids/new-id.js';
import { waitFor } from './wait.js';

/**
 * How the receiver answers one delivery: a status, no answer before the service's timeout ('hang'), or a 200 after
 * `afterMs` (a slow receiver).
 */
export type Answer = number | 'hang' | { afterMs: number };

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: any;
  /** The secrets (of those the receiver knows for the path) whose `Webhook.verify` accepted this delivery. */
  verifiedWith: string[];
}

/** An operator's receiver: one path per endpoint, answers scripted per path, every delivery verified. */
export class Receiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private readonly otherwise = new Map<string, Answer>();
  private readonly secrets = new Map<string, string[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const body = Buffer.concat(chunks).toString('utf8');
        const verifiedWith = (this.secrets.get(path) ?? []).filter((secret) => {
          try {
            new Webhook(secret).verify(body, req.headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        this.received.push({ path, headers: req.headers, body, payload: JSON.parse(body), verifiedWith });
        const answer = this.answers.get(path)?.shift() ?? this.otherwise.get(path) ?? 200;
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        if (typeof answer === 'object') {
          this.hanging.add(res);
          setTimeout(() => {
            this.hanging.delete(res);
            if (!res.destroyed) res.writeHead(200).end('ok');
          }, answer.afterMs).unref();
          return;
        }
        res.writeHead(answer, { 'content-type': 'text/plain' });
        res.end(answer === 200 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A fresh path for one endpoint, with the answers its first deliveries get (then `then`, 200 by default). */
  path(answers: Answer[] = [], then: Answer = 200): string {
    const path = `/hooks/${newId()}`;
    this.answers.set(path, [...answers]);
    this.otherwise.set(path, then);
    return path;
  }

  /** The secrets deliveries to `path` are verified with (the receiver tries each). */
  trust(path: string, ...secrets: string[]): void {
    this.secrets.set(path, secrets);
  }

  at(path: string, type?: string): Received[] {
    return this.received.filter((r) => r.path === path && (!type || r.payload.type === type));
  }

  waitFor(path: string, count: number, type?: string): Promise<Received[]> {
    return waitFor(() => this.at(path, type).length >= count && this.at(path, type), `${count} ${type ?? ''} deliveries at ${path}`);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
