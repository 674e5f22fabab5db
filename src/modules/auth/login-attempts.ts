import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';

/** Password login refused while the account or the client IP has no failed attempts left (token endpoint: 429 OAuth body). */
export class LoginLockedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, ErrorCode.RateLimited, 'too_many_failed_logins', undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

/**
 * Brute-force protection of password login: failed attempts are counted in Redis per account (the email as typed,
 * case-folded, whether or not it exists, so a lockout reveals nothing) and per client IP, in fixed windows.
 * Once either is used up, every login for it is refused until the window ends, the right password included.
 * A successful login clears the account's count (not the IP's). Without Redis the check fails open.
 */
@Injectable()
export class LoginAttempts {
  constructor(
    private readonly redis: RedisService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts this attempt before the password is checked, and refuses it once the account's or the IP's budget is
   * spent. Counting first (one atomic INCR each) means concurrent guesses cannot all pass a check that ran before
   * any of them was counted. A success gives the attempt back (`recordSuccess`).
   */
  async reserve(email: string, clientIp: string): Promise<void> {
    const { maxFailuresPerAccount, maxFailuresPerIp, failureWindowSeconds } = this.config.auth.login;
    const window = this.window();
    const account = this.accountKey(email, window.index);
    const ip = this.ipKey(clientIp, window.index);
    const ttl = failureWindowSeconds + 1;
    const replies = await this.attempt(() =>
      this.redis.client.pipeline().incr(account).expire(account, ttl).incr(ip).expire(ip, ttl).exec(),
    );
    if (!replies || replies.some(([error]) => error)) return;
    const [accountCount, ipCount] = [Number(replies[0]![1]), Number(replies[2]![1])];
    if (accountCount > maxFailuresPerAccount || ipCount > maxFailuresPerIp) throw new LoginLockedError(window.retryAfterSeconds);
  }

  /** The password was right: the account starts over, and the IP gets this attempt back. */
  async recordSuccess(email: string, clientIp: string): Promise<void> {
    const window = this.window();
    await this.attempt(() =>
      this.redis.client.pipeline().del(this.accountKey(email, window.index)).decr(this.ipKey(clientIp, window.index)).exec(),
    );
  }

  private window(): { index: number; retryAfterSeconds: number } {
    const seconds = this.config.auth.login.failureWindowSeconds;
    const now = Math.floor(Date.now() / 1000);
    const index = Math.floor(now / seconds);
    return { index, retryAfterSeconds: (index + 1) * seconds - now };
  }

  // Hashed: emails are long and user-typed; keys stay short and free of separators.
  private accountKey(email: string, window: number): string {
    return this.redis.key('login', 'acct', createHash('sha256').update(email.toLowerCase()).digest('hex'), String(window));
  }

  private ipKey(ip: string, window: number): string {
    return this.redis.key('login', 'ip', ip, String(window));
  }

  private async attempt<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!this.redis.ready) {
      this.redis.failedOpen('login_attempts');
      return undefined;
    }
    try {
      return await command();
    } catch (error) {
      this.redis.failedOpen('login_attempts', error);
      return undefined;
    }
  }
}
