// What the multi-process scripts (test/cluster/cluster.ts, test/faults/*.ts) share: the tally of their checks, waits
// with deadlines, free ports, the processes they start (logs in one directory, every one stopped at the end, all
// killed by the watchdog) and the Redis keys of their prefix. Scripts, not Jest: they run against the built service.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` every `everyMs` until it gives a value, or throws after `timeoutMs`. A probe that throws has not
 * succeeded yet (a process still starting refuses connections); a probe that must end the wait returns a value that
 * says so (`'exited'`).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Deletes every Redis key under `prefix:`; returns how many. */
export async function deletePrefixKeys(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) deleted += await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  return deleted;
}

/**
 * One script's run: `check` tallies outcomes (printed as they come), `spawn` starts a process logging to
 * `<logDir>/<name>.log`, `run(main)` runs the script under a watchdog of `limitMs` and exits with
 * `<label>: N passed, N failed` (0 when nothing failed).
 */
export class ProcessRun {
  readonly logDir: string;
  private passed = 0;
  private failed = 0;
  private readonly children = new Set<ChildProcess>();

  constructor(
    private readonly label: string,
    private readonly limitMs: number,
  ) {
    this.logDir = mkdtempSync(path.join(tmpdir(), `${label}-`));
  }

  check(name: string, ok: boolean, detail = ''): void {
    if (ok) this.passed += 1;
    else this.failed += 1;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  }

  /** Starts `command` (default: this Node running `script`), its output in `<logDir>/<name>.log`. */
  spawn(name: string, args: string[], env?: NodeJS.ProcessEnv, command = process.execPath): ChildProcess {
    const out = openSync(path.join(this.logDir, `${name}.log`), 'a');
    const child = spawn(command, args, { env, stdio: ['ignore', out, out] });
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    return child;
  }

  /** Stops a process (if it still runs) with `signal`; resolves with its exit code. */
  stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child?.exitCode ?? null);
    return new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    });
  }

  /** Stops every process still running (resuming a stopped one first). */
  async stopAll(): Promise<void> {
    for (const child of [...this.children]) {
      child.kill('SIGCONT');
      await this.stop(child);
    }
  }

  async run(main: () => Promise<void>): Promise<never> {
    const watchdog = setTimeout(() => {
      console.log(`FAIL ${this.label}: over ${this.limitMs} ms, stopping (logs in ${this.logDir})`);
      for (const child of this.children) child.kill('SIGKILL');
      this.failed += 1;
      this.report();
    }, this.limitMs);
    watchdog.unref();
    try {
      await main();
    } catch (error) {
      this.failed += 1;
      console.log(`FAIL ${this.label}: ${error instanceof Error ? error.stack : String(error)}`);
      console.log(`     logs in ${this.logDir}`);
    }
    return this.report();
  }

  private report(): never {
    console.log(`${this.label}: ${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed === 0 ? 0 : 1);
  }
}
