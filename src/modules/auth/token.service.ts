import { Injectable } from '@nestjs/common';
import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config.js';

/** What a token says: a client token (publishable-key exchange) or a login session. */
export type UnsignedClaims =
  { typ: 'client'; org: string; agt: string; kid: string } | { typ: 'session'; org: string; uid: string; agt: string | null };

export type TokenClaims = UnsignedClaims & { exp: number; iat: number };

const ISSUER = 'agent-service';
const ID = /^[0-9a-f]{24}$/;

/**
 * Signs and verifies access tokens (HS256 JWT). Verified tokens are remembered until they expire, so a
 * client that reuses its token (spec rule 3) pays for the signature check once.
 */
@Injectable()
export class TokenService {
  private readonly key: Uint8Array;
  private readonly verified = new LRUCache<string, TokenClaims>({ max: 50_000 });

  constructor(private readonly config: AppConfig) {
    this.key = new TextEncoder().encode(config.auth.jwtSecret);
  }

  get ttlSeconds(): number {
    return this.config.auth.tokenTtlSeconds;
  }

  async sign(claims: UnsignedClaims): Promise<string> {
    const { typ, org, agt } = claims;
    const extra = claims.typ === 'client' ? { kid: claims.kid } : { uid: claims.uid };
    return new SignJWT({ typ, org, agt, ...extra })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token; undefined otherwise. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const cached = this.verified.get(token);
    const nowSeconds = Date.now() / 1000;
    if (cached) return cached.exp > nowSeconds ? cached : undefined;
    try {
      // Every token this service signs has these; one without (even signed with our secret) is not one of ours.
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'iss', 'typ', 'org'],
        maxTokenAge: this.ttlSeconds,
      });
      if (!isTokenClaims(payload)) return undefined;
      this.verified.set(token, payload, { ttl: Math.max(1, (payload.exp - nowSeconds) * 1000) });
      return payload;
    } catch {
      return undefined;
    }
  }
}

/** The claims of one of the two token types, each with the fields that type carries. */
function isTokenClaims(payload: Record<string, unknown>): payload is TokenClaims {
  const { typ, org, agt } = payload;
  if (typeof org !== 'string' || !ID.test(org)) return false;
  if (typ === 'client') return typeof agt === 'string' && ID.test(agt) && typeof payload.kid === 'string' && ID.test(payload.kid);
  if (typ === 'session') {
    return typeof payload.uid === 'string' && ID.test(payload.uid) && (agt === null || (typeof agt === 'string' && ID.test(agt)));
  }
  return false;
}
