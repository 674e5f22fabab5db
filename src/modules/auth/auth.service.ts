import { Injectable, Logger } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AppConfig } from '../../config/app-config.js';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../../common/errors/app-error.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { CredentialCache } from './credential-cache.js';
import type { CredentialRevoked } from '../../common/bus/event-map.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { CredentialsRepository, type StoredKey } from './credentials.repository.js';
import { LoginAttempts } from './login-attempts.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { AgentPrincipal, Principal } from './principal.js';
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

/** Who sent a messaging request, as a publishable key's restrictions see it: the `Origin` header and the client IP. */
export interface MessagingClient {
  origin: string | undefined;
  /** The resolved client address (Fastify's `request.ip`; the upgrade's, resolved the same way, for WebSocket). */
  ip: string;
}

/** A bearer token that may act as an agent on the messaging surface, and when it stops being valid. */
export interface MessagingAuthentication {
  principal: AgentPrincipal;
  /** The token's expiry (epoch ms): a WebSocket session ends then, as HTTP access would. */
  expiresAt: number;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  agent_id: string | null;
  organization_id: string;
}

/**
 * Authenticates every credential and issues access tokens. Lookups are cached in memory; a revocation or
 * deletion (CredentialChanges) drops the organization's entries at once on the instance that made it and, through
 * the broadcast, on every other one. The cache TTL only bounds a lost broadcast.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');
  private readonly cache: CredentialCache;
  // A fixed password hash to verify against when the user does not exist, so timing does not reveal emails.
  private dummyPasswordHash: Promise<string> | undefined;
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly tokens: TokenService,
    private readonly loginAttempts: LoginAttempts,
    config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly bus: EventBus,
  ) {
    this.cache = new CredentialCache(100_000, config.auth.credentialCacheTtlMs, config.auth.credentialCacheFallbackTtlMs, (hit) =>
      metrics.cacheLookup('credentials', hit),
    );
  }

  /** Credentials were revoked here or (through the NOTIFY broadcast) on another instance. */
  @OnBusEvent('credential.revoked')
  onCredentialRevoked({ organizationId }: CredentialRevoked): void {
    this.cache.invalidate(organizationId ?? undefined);
    this.metrics.cacheInvalidated('credentials');
    this.credentialsChanged();
  }

  /**
   * Runs `listener` after any credential was revoked or deleted, on this instance or (via the broadcast) another:
   * holders of long-lived authenticated state, such as open WebSocket sessions, re-check theirs then.
   */
  onCredentialsChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Whether this instance hears the revocations of the others (see CredentialChangesListener). Once it hears
   * them again, revocations made meanwhile were missed: holders of authenticated state re-check theirs.
   */
  setBroadcastHeard(heard: boolean): void {
    this.cache.setBroadcastHeard(heard);
    if (heard) this.credentialsChanged();
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
    return this.principalOf(await this.verifiedClaims(token));
  }

  /**
   * The messaging surface's check of a bearer token, for HTTP routes (MessagingTokenStrategy) and the WebSocket
   * handshake and its re-checks alike: verified once, its credential still there, acting as an agent (a login session
   * not scoped to one is 400), and called from an origin and an address its publishable key allows (403 otherwise),
   * checked against the cached key row, so at no extra SQL.
   */
  async authenticateMessagingToken(token: string, client: MessagingClient): Promise<MessagingAuthentication> {
    const claims = await this.verifiedClaims(token);
    const principal = await this.principalOf(claims);
    if (!principal.agentId) {
      throw new BadRequestError('This login session is not scoped to an agent; log in with agent_id to use messaging');
    }
    this.assertClientAllowed(principal, client);
    return { principal: principal as AgentPrincipal, expiresAt: claims.exp * 1000 };
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

  /**
   * `grant_type=password`: a login session, optionally scoped to one of the organization's agents. Failed
   * attempts are limited per account and per client IP (LoginAttempts): over the limit, 429 even for the right password.
   */
  async passwordLogin(email: string, password: string, agentId: string | undefined, clientIp: string): Promise<IssuedToken> {
    await this.loginAttempts.reserve(email, clientIp);
    const user = await this.repository.findUserByEmail(email);
    this.dummyPasswordHash ??= hashPassword('not-a-real-password');
    const check = await verifyPassword(user?.password_hash ?? (await this.dummyPasswordHash), password);
    if (!user || !check.valid) throw new TokenGrantError('invalid_grant', 'invalid_credentials');
    await this.loginAttempts.recordSuccess(email, clientIp);
    if (check.outdated) {
      await this.bus.emitAsync('user.password_rehashed', {
        userId: user.id,
        previousHash: user.password_hash,
        passwordHash: await hashPassword(password),
      });
    }
    if (agentId && (await this.repository.findLiveAgent(agentId))?.organization_id !== user.organization_id) {
      throw new TokenGrantError('invalid_grant', 'unknown_agent');
    }
    const access = await this.tokens.sign({ typ: 'session', org: user.organization_id, uid: user.id, agt: agentId ?? null });
    return this.issued(access, user.organization_id, agentId ?? null);
  }

  /**
   * Messaging with a client token: its key's restrictions apply to every request, not only the exchange. Allowed
   * origins to every request that carries an `Origin` header (browsers do on cross-origin requests and WebSocket
   * upgrades), allowed IP ranges to every request.
   */
  private assertClientAllowed(principal: Principal, { origin, ip }: MessagingClient): void {
    if (principal.kind !== 'clientToken') return;
    if (origin && principal.allowedOrigins.length > 0 && !principal.allowedOrigins.includes(origin)) {
      throw new ForbiddenError(`Origin ${origin} is not allowed for this publishable key`);
    }
    if (principal.allowedIpRanges.length > 0 && !ipInRanges(ip, principal.allowedIpRanges)) {
      throw new ForbiddenError(`Address ${ip} is not allowed for this publishable key`);
    }
  }

  private async verifiedClaims(token: string): Promise<TokenClaims> {
    const claims = await this.tokens.verify(token);
    if (!claims) throw new UnauthorizedError('The access token is invalid or expired');
    return claims;
  }

  /**
   * A token is only as good as what it was minted from: a client token needs its publishable key (deleted with its
   * agent or project), a session its user and, when scoped to an agent, that agent (not deleted, nor its project).
   */
  private async principalOf(claims: TokenClaims): Promise<Extract<Principal, { kind: 'clientToken' | 'session' }>> {
    if (claims.typ === 'client') {
      const key = await this.cache.get(`pkid:${claims.kid}`, () => this.repository.findPublishableKeyById(claims.kid));
      if (!key || key.revoked || key.organization_id !== claims.org) {
        throw new UnauthorizedError('The publishable key behind this token was revoked');
      }
      return {
        kind: 'clientToken',
        organizationId: claims.org,
        agentId: claims.agt,
        publishableKeyId: claims.kid,
        allowedOrigins: key.allowed_origins,
        allowedIpRanges: key.allowed_ip_ranges,
      };
    }
    const user = await this.cache.get(`user:${claims.uid}`, () => this.repository.findUser(claims.uid));
    if (!user || user.organization_id !== claims.org) throw new UnauthorizedError('The user of this session no longer exists');
    if (claims.agt) {
      const agent = await this.cache.get(`agent:${claims.agt}`, () => this.repository.findLiveAgent(claims.agt!));
      if (!agent || agent.organization_id !== claims.org) {
        throw new UnauthorizedError('The agent this session was scoped to no longer exists');
      }
    }
    return { kind: 'session', organizationId: claims.org, userId: claims.uid, agentId: claims.agt };
  }

  private async findKey(cacheKey: string, secret: string, load: (hash: string) => Promise<StoredKey | undefined>): Promise<StoredKey> {
    const hash = hashSecret(secret);
    const key = await this.cache.get(cacheKey, () => load(hash));
    if (!key || key.revoked || !digestsEqual(key.key_hash, hash)) throw new UnauthorizedError('The API key is invalid or revoked');
    return key;
  }

  private credentialsChanged(): void {
    for (const listener of this.changeListeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: error }, 'onCredentialsChanged listener failed');
      }
    }
  }

  private issued(accessToken: string, organizationId: string, agentId: string | null): IssuedToken {
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.tokens.ttlSeconds,
      agent_id: agentId,
      organization_id: organizationId,
    };
  }
}

/** Parsed ranges per cached key row's list (the same array while the row is cached): parsed once, not per request. */
const parsedRanges = new WeakMap<readonly string[], Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>>();

function ipInRanges(ip: string, ranges: readonly string[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  let networks = parsedRanges.get(ranges);
  if (!networks) {
    networks = ranges.map((range) => ipaddr.parseCIDR(range));
    parsedRanges.set(ranges, networks);
  }
  return networks.some(([network, prefix]) => network.kind() === address.kind() && address.match([network, prefix]));
}
