import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { CredentialsRepository } from './credentials.repository.js';

/** The PostgreSQL NOTIFY channel revocations are announced on (NOTIFY is per database: tests never cross-talk). */
export const CREDENTIALS_CHANNEL = 'credentials_changed';

interface Notice {
  organizationId: string;
  /** The process that made the change; it applied the change itself before answering. */
  origin: string;
}

/**
 * Revocation and deletion of credentials (keys, users, agents, projects, organizations), made effective on every
 * instance, as the bus event `credential.revoked`. The change and its announcement commit together: PostgreSQL
 * delivers the NOTIFY to every listening instance (CredentialChangesListener) when, and only if, the transaction
 * commits. The process that made the change emits the event itself before returning, so its own next request is
 * already refused.
 */
@Injectable()
export class CredentialChanges {
  readonly origin = randomUUID();
  private readonly logger = new Logger('CredentialChanges');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly credentials: CredentialsRepository,
    private readonly bus: EventBus,
  ) {}

  /** Runs `change` in a unit of work that revokes or deletes credentials of `organizationId`, announced on commit. */
  async commit<T>(organizationId: string, change: () => Promise<T>): Promise<T> {
    const result = await this.unitOfWork.run(async () => {
      const value = await change();
      const notice: Notice = { organizationId, origin: this.origin };
      await this.credentials.announce(CREDENTIALS_CHANNEL, JSON.stringify(notice));
      await this.bus.publish('credential.revoked', { organizationId });
      return value;
    });
    return result;
  }

  /** A notice heard on the channel: another process changed credentials of an organization. */
  received(payload: string): void {
    let notice: Partial<Notice>;
    try {
      notice = JSON.parse(payload) as Partial<Notice>;
    } catch {
      notice = {};
    }
    if (typeof notice.organizationId !== 'string') {
      this.logger.warn({ payload }, 'unreadable credentials notice: forgetting every cached credential');
      void this.bus.publish('credential.revoked', { organizationId: null });
      return;
    }
    if (notice.origin !== this.origin) void this.bus.publish('credential.revoked', { organizationId: notice.organizationId });
  }
}
