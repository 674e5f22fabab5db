/** The turns still running on this instance, so that shutdown lets them finish and be saved, within a grace period. */
export class RunningTurns {
  private readonly running = new Set<Promise<void>>();

  /** Tracks `work` until it settles, fulfilled or rejected. */
  hold(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
  }

  /** Resolves once every held turn has settled, or after `graceMs`, whichever comes first. */
  async settle(graceMs: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
