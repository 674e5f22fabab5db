/** Runner side of the load-generator protocol (see `bench/load.ts`). */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AutocannonSummary, LoadJob } from '../load.js';
import type { Cleanup } from './processes.js';

export interface LoadHooks {
  /** Called just before the load starts (after the child has booted): sample CPU here. */
  beforeStart?(): void;
  /** ws-idle: called while the sessions are held open. */
  onHold?(message: Record<string, unknown>): Promise<void> | void;
}

export interface LoadOutcome {
  autocannon?: AutocannonSummary;
  /** Per route of a `mix` job. */
  mix?: Record<string, AutocannonSummary>;
  extra?: Record<string, number>;
}

let jobCounter = 0;

export async function runLoad(job: LoadJob, workDir: string, cleanup: Cleanup, hooks: LoadHooks = {}): Promise<LoadOutcome> {
  const file = join(workDir, `load-job-${process.pid}-${++jobCounter}.json`);
  writeFileSync(file, JSON.stringify(job));
  const loadScript = new URL('../load.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [loadScript, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  let done = false;
  cleanup.add('load generator', () => {
    if (!done) child.kill('SIGKILL');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout! });
  try {
    return await new Promise<LoadOutcome>((resolve, reject) => {
      void exited.then((code) => reject(new Error(`load generator exited (${code}) without a result`)));
      lines.on('line', (line) => {
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(line) as Record<string, unknown>;
        } catch {
          return;
        }
        switch (message.type) {
          case 'ready':
            hooks.beforeStart?.();
            child.stdin!.write('go\n');
            break;
          case 'hold':
            void Promise.resolve(hooks.onHold?.(message)).finally(() => child.stdin!.write('release\n'));
            break;
          case 'result':
            resolve({
              autocannon: message.autocannon as AutocannonSummary | undefined,
              mix: message.mix as Record<string, AutocannonSummary> | undefined,
              extra: message.extra as Record<string, number> | undefined,
            });
            break;
          case 'error':
            reject(new Error(`load generator failed: ${String(message.message)}`));
            break;
          default:
            break;
        }
      });
    });
  } finally {
    done = true;
    await exited;
  }
}
