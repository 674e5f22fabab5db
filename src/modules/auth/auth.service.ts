import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config.js';
import { ForbiddenError, UnauthorizedError } from '../../common/errors/app-error.js';
import { CredentialsRepository, type StoredKey } from './credentials.repository.js';
import type { Principal } from './principal.js';
import { digestsEqual, hashSecret } from './secrets.js';
import { TokenService, type TokenClaims } from './token.service.js';

/** OAuth-style failure of the token endpoint (spec Authentication rule 7). */
export class TokenGrantError extends Error {
  constructor(
    readonly error: string,
    readonly errorDescription: string,
  ) {
    super(errorDescription);
  }
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  agent_id: string | null;
  organization_id: string;
}

type Cached<T> = { value: T | undefined };

/**
 * Authenticates every credential and issues access tokens. Lookups are cached for at most
 * CREDENTIAL_CACHE_TTL_MS (< 5 s), which bounds how long a revoked key or a token minted from it still works.
 */
@Injectable()
export class AuthService {
  private readonly cache: LRUCache<string, Cached<unknown>>;
  // A fixed argon2 hash to verify against when the user does not exist, so timing does not reveal emails.
  private dummyPasswordHash: Promise<string> | undefined;
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly tokens: TokenService,
    config: AppConfig,
  ) {
    this.cache = new LRUCache({ max: 100_000, ttl: Math.max(1, config.auth.credentialCacheTtlMs) });
  }

  /**
   * Runs `listener` after any credential was revoked or deleted, on this instance or (via the broadcast) another:
   * holders of long-lived authenticated state, such as open WebSocket sessions, re-check theirs then.
   */
  onCredentialsChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  async authenticateOrganizationKey(secret: string): Promise<Principal> {
    const key = await this.findKey(`ok:${hashSecret(secret)}`, secret, (hash) => this.repository.findOrganizationKey(hash));
    return { kind: 'orgKey', organizationId: key.organization_id, keyId: key.id };
  }

  async authenticateAgentKey(secret: string): Promise<Principal> {
    const key = await this.findKey(`ak:${hashSecret(secret)}`, secret, (hash) => this.repository.findAgentKey(hash));
    return { kind: 'agentKey', organizationId: key.organization_id, agentId: key.agent_id!, keyId: key.id };
  }

  async authenticateBearer(token: string): Promise<Principal> {
    const claims = await this.tokens.verify(token);
    if (!claims) throw new UnauthorizedError('The access token is invalid or expired');
    return this.principalOf(claims);
  }

  /** `grant_type=publishable_key`: checks the key, its allowed origins and IP ranges, and mints a client token. */
  async exchangePublishableKey(secret: string, origin: string | undefined, clientIp: string): Promise<IssuedToken> {
    const key = await this.repository.findPublishableKeyByHash(hashSecret(secret));
    if (!key || key.revoked || !digestsEqual(key.key_hash, hashSecret(secret))) {
      throw new TokenGrantError('invalid_grant', 'invalid_publishable_key');
    }
    if (key.allowed_origins.length > 0 && (!origin || !key.allowed_origins.includes(origin))) {
      throw new TokenGrantError('invalid_grant', 'origin_not_allowed');
    }
    if (key.allowed_ip_ranges.length > 0 && !ipInRanges(clientIp, key.allowed_ip_ranges)) {
      throw new TokenGrantError('invalid_grant', 'ip_not_allowed');
    }
    const access = await this.tokens.sign({ typ: 'client', org: key.organization_id, agt: key.agent_id, kid: key.id });
    return this.issued(access, key.organization_id, key.agent_id);
  }

  /** `grant_type=password`: a login session, optionally scoped to one of the organization's agents. */
  async passwordLogin(email: string, password: string, agentId: string | undefined): Promise<IssuedToken> {
    const user = await this.repository.findUserByEmail(email);
    this.dummyPasswordHash ??= argon2.hash('not-a-real-password');
    const valid = await argon2.verify(user?.password_hash ?? (await this.dummyPasswordHash), password);
    if (!user || !valid) throw new TokenGrantError('invalid_grant', 'invalid_credentials');
    if (agentId && !(await this.repository.agentVisible(user.organization_id, agentId))) {
      throw new TokenGrantError('invalid_grant', 'unknown_agent');
    }
    const access = await this.tokens.sign({ typ: 'session', org: user.organization_id, uid: user.id, agt: agentId ?? null });
    return this.issued(access, user.organization_id, agentId ?? null);
  }

  /** Messaging with a client token: its key's allowed origins apply to every browser request, not only the exchange. */
  assertOriginAllowed(principal: Principal, origin: string | undefined): void {
    if (principal.kind === 'clientToken' && origin && principal.allowedOrigins.length > 0 && !principal.allowedOrigins.includes(origin)) {
      throw new ForbiddenError(`Origin ${origin} is not allowed for this publishable key`);
    }
  }

  private async principalOf(claims: TokenClaims): Promise<Principal> {
    if (claims.typ === 'client') {
      const key = await this.cached(`pkid:${claims.kid}`, () => this.repository.findPublishableKeyById(claims.kid));
      if (!key || key.revoked) throw new UnauthorizedError('The publishable key behind this token was revoked');
      return { kind: 'clientToken', organizationId: claims.org, agentId: claims.agt, publishableKeyId: claims.kid, allowedOrigins: key.allowed_origins };
    }
    const exists = await this.cached(`user:${claims.uid}`, async () => ((await this.repository.userExists(claims.uid)) ? true : undefined));
    if (!exists) throw new UnauthorizedError('The user of this session no longer exists');
    return { kind: 'session', organizationId: claims.org, userId: claims.uid, agentId: claims.agt };
  }

  private async findKey(cacheKey: string, secret: string, load: (hash: string) => Promise<StoredKey | undefined>): Promise<StoredKey> {
    const hash = hashSecret(secret);
    const key = await this.cached(cacheKey, () => load(hash));
    if (!key || key.revoked || !digestsEqual(key.key_hash, hash)) throw new UnauthorizedError('The API key is invalid or revoked');
    return key;
  }

  private async cached<T>(cacheKey: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.cache.get(cacheKey) as Cached<T> | undefined;
    if (hit) return hit.value;
    const value = await load();
    this.cache.set(cacheKey, { value });
    return value;
  }

  private issued(accessToken: string, organizationId: string, agentId: string | null): IssuedToken {
    return { access_token: accessToken, token_type: 'Bearer', expires_in: this.tokens.ttlSeconds, agent_id: agentId, organization_id: organizationId };
  }
}

function ipInRanges(ip: string, ranges: string[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return ranges.some((range) => {
    const [network, prefix] = ipaddr.parseCIDR(range);
    return network.kind() === address.kind() && address.match([network, prefix]);
  });
}

