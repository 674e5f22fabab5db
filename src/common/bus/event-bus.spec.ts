import { EventEmitter2 } from '@nestjs/event-emitter';
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

function setup() {
  const bus = new EventBus(new EventEmitter2());
  const published: Array<[BusEventName, unknown]> = [];
  const transport: BusTransport = { publish: (name, payload) => void published.push([name, payload]) };
  bus.useTransport(transport);
  return { bus, published };
}

describe('EventBus', () => {
  it('tells this process at once and forwards broadcast events only', () => {
    const { bus, published } = setup();
    const heard: unknown[] = [];
    bus.on('agent.live_changed', (payload) => heard.push(payload));
    bus.on('credential.revoked', (payload) => heard.push(payload));
    bus.emit('agent.live_changed', change);
    bus.emit('credential.revoked', revoked);
    expect(heard).toEqual([change, revoked]);
    expect(published).toEqual([['agent.live_changed', change]]);
  });

  it('delivers what another process emitted to local listeners without forwarding it again', () => {
    const { bus, published } = setup();
    const heard: unknown[] = [];
    bus.on('agent.live_changed', (payload) => heard.push(payload));
    bus.deliver('agent.live_changed', change);
    expect(heard).toEqual([change]);
    expect(published).toEqual([]);
  });

  it('waits for every listener with emitAsync, and a failing listener fails neither the emitter nor the others', async () => {
    const { bus } = setup();
    const done: string[] = [];
    bus.on('event.failed', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done.push('slow');
    });
    bus.on('event.failed', () => {
      throw new Error('listener bug');
    });
    const failed = { eventId: 'e', organizationId: 'o', agentId: 'a', externalThreadId: null, error: 'internal_error: x' };
    await expect(bus.emitAsync('event.failed', failed)).resolves.toBeUndefined();
    expect(done).toEqual(['slow']);
  });

  it('stops calling a listener once unsubscribed', () => {
    const { bus } = setup();
    const heard: unknown[] = [];
    const stop = bus.on('credential.revoked', (payload) => heard.push(payload));
    stop();
    bus.emit('credential.revoked', revoked);
    expect(heard).toEqual([]);
  });
});
