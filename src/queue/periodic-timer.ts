/**
 * Runs `task` every `everyMs` plus up to `jitter` × `everyMs` at random, one run at a time: a tick that comes while a
 * run is in flight is skipped. `stop()` cancels the next tick and resolves once the run in flight (if any) has ended.
 * Failures go to `onError`; the timer goes on.
 */
export class PeriodicTimer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly jitter: number,
    private readonly task: () => unknown,
    private readonly onError: (error: unknown) => void,
    private readonly random: () => number = Math.random,
  ) {}

  start(): void {
    this.stopped = false;
    this.scheduleNext();
  }

  /** The wait before the next tick. */
  nextDelay(): number {
    return Math.round(this.everyMs * (1 + this.jitter * this.random()));
  }

  /** One run now, unless one is in flight (then that one's end). */
  tick(): Promise<void> {
    this.running ??= Promise.resolve()
      .then(this.task)
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick();
      this.scheduleNext();
    }, this.nextDelay());
    this.timer.unref();
  }
}
