import { CredentialCache } from './credential-cache.js';

describe('CredentialCache', () => {
  const row = (organization_id: string, n: number) => ({ organization_id, n });

  it("drops only the named organization's entries", async () => {
    const cache = new CredentialCache(100, 60_000, 500);
    cache.setBroadcastHeard(true);
    let loads = 0;
    const load = (org: string) => async () => row(org, ++loads);
    await cache.get('a1', load('org-a'));
    await cache.get('b1', load('org-b'));
    cache.invalidate('org-a');
    expect(await cache.get('a1', load('org-a'))).toEqual(row('org-a', 3));
    expect(await cache.get('b1', load('org-b'))).toEqual(row('org-b', 2));
  });

  it('does not store a lookup that was under way when an invalidation happened', async () => {
    const cache = new CredentialCache(100, 60_000, 500);
    cache.setBroadcastHeard(true);
    let release!: () => void;
    const slow = cache.get(
      'k',
      () =>
        new Promise<ReturnType<typeof row>>((resolve) => {
          release = () => resolve(row('org', 1));
        }),
    );
    cache.invalidate('org');
    release();
    expect(await slow).toEqual(row('org', 1));
    expect(await cache.get('k', async () => row('org', 2))).toEqual(row('org', 2));
  });

  it('keeps entries only the fallback TTL while the broadcast is not heard, and starts over when it is', async () => {
    const cache = new CredentialCache(100, 60_000, 20);
    await cache.get('k', async () => row('org', 1));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('k', async () => row('org', 2))).toEqual(row('org', 2));
    cache.setBroadcastHeard(true);
    expect(await cache.get('k', async () => row('org', 3))).toEqual(row('org', 3));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('k', async () => row('org', 4))).toEqual(row('org', 3));
  });
});
