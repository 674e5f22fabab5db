/**
 * Frames a session may send: a token bucket refilled at `perSecond` up to `burst`. Past the bucket, frames are refused;
 * the debt keeps growing while the client keeps sending, and a debt of another `burst` frames closes the session.
 */
export class FrameBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.refilledAt = now;
  }

  /** Spends one frame: `accept` it, `refuse` it (over the rate), or `close` the session (it kept flooding). */
  take(now = Date.now()): 'accept' | 'refuse' | 'close' {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    this.tokens -= 1;
    if (this.tokens >= 0) return 'accept';
    return this.tokens < -this.burst ? 'close' : 'refuse';
  }
}
