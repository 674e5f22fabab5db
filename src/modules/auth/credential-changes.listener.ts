import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { AppConfig } from '../../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { AuthService } from './auth.service.js';
import { CREDENTIALS_CHANNEL, CredentialChanges } from './credential-changes.js';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

/**
 * Hears the revocations other instances announce (LISTEN on a dedicated PostgreSQL connection, outside the pool).
 * While it is not listening, the credential cache keeps entries only CREDENTIAL_CACHE_FALLBACK_TTL_MS, and it
 * reconnects with backoff; once listening again, it starts over from an empty cache.
 */
@Injectable()
export class CredentialChangesListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CredentialChangesListener');
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly changes: CredentialChanges,
    private readonly auth: AuthService,
    private readonly metrics: MetricsService,
  ) {}

  /** Waits for the first connection so that an instance that reports ready also hears revocations. */
  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.db.url, application_name: 'agent-service-credentials', keepAlive: true });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== CREDENTIALS_CHANNEL || !message.payload) return;
      this.metrics.revocationNotified();
      this.changes.received(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client) return;
    if (this.failures > 0) this.logger.log('credentials broadcast listening again');
    this.failures = 0;
    this.auth.setBroadcastHeard(true);
    this.metrics.revocationListening(true);
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    this.auth.setBroadcastHeard(false);
    this.metrics.revocationListening(false);
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.failures);
    this.failures += 1;
    this.logger.warn(
      { err: error, retryInMs: delay },
      `credentials broadcast not heard: cached credentials now live ${this.config.auth.credentialCacheFallbackTtlMs} ms until it reconnects`,
    );
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
