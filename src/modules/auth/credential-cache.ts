import { LRUCache } from 'lru-cache';

/** A cached credential row: every one belongs to an organization, which is what revocations name. */
export interface OwnedRow {
  organization_id: string;
}

type Entry = { row: OwnedRow | undefined };

/**
 * Credential lookups kept in memory, indexed by organization so that a revocation drops exactly that
 * organization's entries (another tenant revoking keys in a loop cannot flush everyone's cache).
 * Entries live `ttlMs` while revocations are heard from every instance, `fallbackTtlMs` while they may not be.
 */
export class CredentialCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly keysByOrganization = new Map<string, Set<string>>();
  // Bumped by every invalidation: a lookup that started before it may have read the revoked row, so it is not stored.
  private generation = 0;
  private currentTtlMs: number;

  constructor(
    max: number,
    private readonly ttlMs: number,
    private readonly fallbackTtlMs: number,
    /** Told of every lookup, whether it was served from memory (metrics). */
    private readonly looked: (hit: boolean) => void = () => undefined,
  ) {
    this.currentTtlMs = fallbackTtlMs;
    this.entries = new LRUCache<string, Entry>({
      max,
      ttl: Math.max(1, ttlMs),
      dispose: (entry, key) => this.unindex(entry, key),
    });
  }

  async get<T extends OwnedRow>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(key);
    this.looked(hit !== undefined);
    if (hit) return hit.row as T | undefined;
    const generation = this.generation;
    const row = await load();
    if (generation === this.generation && this.currentTtlMs > 0) {
      this.entries.set(key, { row }, { ttl: this.currentTtlMs });
      if (row) this.index(row.organization_id, key);
    }
    return row;
  }

  /** Drops what is cached for the organization, or everything when no organization is given. */
  invalidate(organizationId?: string): void {
    this.generation += 1;
    if (organizationId === undefined) {
      this.entries.clear();
      this.keysByOrganization.clear();
      return;
    }
    for (const key of [...(this.keysByOrganization.get(organizationId) ?? [])]) this.entries.delete(key);
  }

  /**
   * Whether this instance hears every revocation. Either way the cache starts over: entries stored while the
   * broadcast was down may be stale (revocations made meanwhile were missed), and those stored with the long TTL
   * must not outlive a disconnection.
   */
  setBroadcastHeard(heard: boolean): void {
    this.currentTtlMs = heard ? this.ttlMs : this.fallbackTtlMs;
    this.invalidate();
  }

  private index(organizationId: string, key: string): void {
    let keys = this.keysByOrganization.get(organizationId);
    if (!keys) this.keysByOrganization.set(organizationId, (keys = new Set()));
    keys.add(key);
  }

  private unindex(entry: Entry, key: string): void {
    if (!entry.row) return;
    const keys = this.keysByOrganization.get(entry.row.organization_id);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByOrganization.delete(entry.row.organization_id);
  }
}
