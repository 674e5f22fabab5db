import { PeriodicTimer } from './periodic-timer.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('PeriodicTimer', () => {
  it('waits the interval plus up to the jitter fraction of it', () => {
    const draws = [0, 0.5, 0.999];
    const timer = new PeriodicTimer(
      1000,
      0.1,
      () => undefined,
      () => undefined,
      () => draws.shift()!,
    );
    expect([timer.nextDelay(), timer.nextDelay(), timer.nextDelay()]).toEqual([1000, 1050, 1100]);
  });

  it('runs one at a time: a tick while a run is in flight shares that run', async () => {
    const release = gate();
    let runs = 0;
    const timer = new PeriodicTimer(
      60_000,
      0,
      async () => {
        runs += 1;
        await release.opened;
      },
      () => undefined,
    );
    const first = timer.tick();
    const second = timer.tick();
    expect(second).toBe(first);
    release.open();
    await first;
    await timer.tick();
    expect(runs).toBe(2);
  });

  it('reports a failing run and runs again on the next tick', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const timer = new PeriodicTimer(
      60_000,
      0,
      () => {
        runs += 1;
        if (runs === 1) throw new Error('database away');
      },
      (error) => errors.push(error),
    );
    await timer.tick();
    await timer.tick();
    expect([runs, errors.map((e) => (e as Error).message)]).toEqual([2, ['database away']]);
  });

  it('ticks on its own once started, and stop() waits for the run in flight and ends the ticks', async () => {
    const release = gate();
    const started = gate();
    let runs = 0;
    const timer = new PeriodicTimer(
      5,
      0,
      async () => {
        runs += 1;
        started.open();
        await release.opened;
      },
      () => undefined,
    );
    timer.start();
    await started.opened;
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect([stopped, runs]).toEqual([true, after]);
  });
});
