import type { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { UnitOfWork } from '../../database/unit-of-work.js';
import { EventBus, type BusTransport } from './event-bus.js';
import type { BusEventName, LiveRevisionChange } from './event-map.js';

const change: LiveRevisionChange = {
  organizationId: 'a'.repeat(24),
  agentId: 'b'.repeat(24),
  versionId: null,
  revisionId: null,
  versionTag: null,
  reason: 'agent_deleted',
};
const revoked = { organizationId: 'c'.repeat(24) };

/** A unit of work without a database: `run` marks the transaction and commits (runs the callbacks) unless work throws. */
class FakeUnitOfWork {
  transaction: object | undefined;
  private callbacks: Array<() => void | Promise<void>> = [];
  readonly log: string[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.transaction) return work();
    this.transaction = {};
    this.callbacks = [];
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.log.push('rollback');
      throw error;
    } finally {
      this.transaction = undefined;
    }
    this.log.push('commit');
    for (const callback of this.callbacks) await callback();
    return result;
  }

  afterCommit(callback: () => void | Promise<void>): void {
    if (this.transaction) this.callbacks.push(callback);
    else void callback();
  }
}

function setup() {
  const unitOfWork = new FakeUnitOfWork();
  const discovery = { getProviders: () => [] } as unknown as DiscoveryService;
  const bus = new EventBus(unitOfWork as unknown as UnitOfWork, discovery, {} as MetadataScanner);
  bus.onModuleInit();
  const published: Array<[BusEventName, unknown]> = [];
  const transport: BusTransport = { publish: (name, payload) => void published.push([name, payload]) };
  bus.useTransport(transport);
  return { bus, published, unitOfWork };
}

describe('EventBus', () => {
  it('tells this process and forwards broadcast events only', async () => {
    const { bus, published } = setup();
    const heard: unknown[] = [];
    bus.on('agent.live_changed', (payload) => heard.push(payload));
    bus.on('credential.revoked', (payload) => heard.push(payload));
    await bus.publish('agent.live_changed', change);
    await bus.publish('credential.revoked', revoked);
    expect(heard).toEqual([change, revoked]);
    expect(published).toEqual([['agent.live_changed', change]]);
  });

  it('runs in-transaction subscribers before the commit and after-commit ones once it has committed', async () => {
    const { bus, unitOfWork } = setup();
    bus.on('credential.revoked', () => void unitOfWork.log.push(`in transaction: ${unitOfWork.transaction ? 'yes' : 'no'}`), {
      phase: 'transaction',
    });
    bus.on('credential.revoked', () => void unitOfWork.log.push('after commit'));
    await unitOfWork.run(() => bus.publish('credential.revoked', revoked));
    expect(unitOfWork.log).toEqual(['in transaction: yes', 'commit', 'after commit']);
  });

  it('rolls the change back when an in-transaction subscriber fails, and tells no after-commit subscriber', async () => {
    const { bus, unitOfWork, published } = setup();
    const heard: unknown[] = [];
    bus.on(
      'agent.live_changed',
      () => {
        throw new Error('outbox write failed');
      },
      { phase: 'transaction' },
    );
    bus.on('agent.live_changed', (payload) => heard.push(payload));
    await expect(unitOfWork.run(() => bus.publish('agent.live_changed', change))).rejects.toThrow('outbox write failed');
    expect(unitOfWork.log).toEqual(['rollback']);
    expect(heard).toEqual([]);
    expect(published).toEqual([]);
  });

  it('outside a transaction runs in-transaction subscribers in one of their own, and logs their failure', async () => {
    const { bus, unitOfWork } = setup();
    const done: string[] = [];
    bus.on(
      'event.failed',
      () => {
        throw new Error('listener bug');
      },
      { phase: 'transaction' },
    );
    bus.on('event.failed', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done.push('slow');
    });
    const failed = { eventId: 'e', organizationId: 'o', agentId: 'a', externalThreadId: null, channel: null, error: 'internal_error: x' };
    await expect(bus.publish('event.failed', failed)).resolves.toBeUndefined();
    expect(unitOfWork.log).toEqual(['rollback']);
    expect(done).toEqual(['slow']);
  });

  it('wants(): only an in-transaction subscriber that wants the payload, or any after-commit subscriber, counts', () => {
    const { bus } = setup();
    const turn = { organizationId: 'o' } as Parameters<typeof bus.wants<'turn.recorded'>>[1];
    expect(bus.wants('turn.recorded', turn)).toBe(false);
    const stop = bus.on('turn.recorded', () => undefined, { phase: 'transaction', wants: (payload) => payload?.organizationId === 'p' });
    expect(bus.wants('turn.recorded', turn)).toBe(false);
    expect(bus.wants('turn.recorded', { ...turn!, organizationId: 'p' })).toBe(true);
    stop();
    bus.on('turn.recorded', () => undefined);
    expect(bus.wants('turn.recorded', turn)).toBe(true);
  });

  it('delivers what another process published to after-commit subscribers without forwarding it again', async () => {
    const { bus, published } = setup();
    const heard: unknown[] = [];
    bus.on('agent.live_changed', (payload) => heard.push(payload));
    bus.on('agent.live_changed', () => heard.push('in transaction'), { phase: 'transaction' });
    await bus.deliver('agent.live_changed', change);
    expect(heard).toEqual([change]);
    expect(published).toEqual([]);
  });

  it('stops calling a subscriber once unsubscribed', async () => {
    const { bus } = setup();
    const heard: unknown[] = [];
    const stop = bus.on('credential.revoked', (payload) => heard.push(payload));
    stop();
    await bus.publish('credential.revoked', revoked);
    expect(heard).toEqual([]);
  });
});
