/** Child processes the runner starts (service, baseline, load generator), and the cleanup that stops them all. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type CleanupStep = { label: string; run: () => Promise<void> | void };

/** Last-in first-out cleanup, run once on normal exit, on failure and on SIGINT/SIGTERM. */
export class Cleanup {
  private readonly steps: CleanupStep[] = [];
  private running: Promise<void> | undefined;

  add(label: string, run: () => Promise<void> | void): void {
    this.steps.push({ label, run });
  }

  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          process.stderr.write(`[bench] cleanup "${step.label}" failed: ${(error as Error).message}\n`);
        }
      }
    })();
    return this.running;
  }

  /** Runs the cleanup on SIGINT/SIGTERM, then exits 130/143. */
  installSignalHandlers(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      process.stderr.write(`\n[bench] ${signal}: stopping everything this run started\n`);
      void this.runAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  logFile: string;
  exited: Promise<number | null>;
  /** The last lines the process wrote, for error messages. */
  tail(lines?: number): string;
}

/** Spawns `node [nodeArgs] <script> [args]` with its stdout and stderr going to a log file. */
export function spawnNode(script: string, args: string[], env: Record<string, string>, logFile: string, nodeArgs: string[] = []): Spawned {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  if (child.pid === undefined) throw new Error(`could not start ${script}`);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      log.end();
      resolve(code);
    }),
  );
  return {
    child,
    pid: child.pid,
    logFile,
    exited,
    tail: (lines = 30) => {
      try {
        return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
  };
}

/**
 * The benchmark's database: `agent_bench`, or `BENCH_DATABASE` so two invocations (e.g. two worktrees) can run side by
 * side — each with its own database, lock and orphan record (their figures then share the cores: trials only).
 */
export const BENCH_DATABASE = benchDatabaseName(process.env.BENCH_DATABASE ?? 'agent_bench');

function benchDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`BENCH_DATABASE must be a lower-case SQL identifier, got ${JSON.stringify(name)}`);
  }
  return name;
}

const CHILDREN_FILE = join(tmpdir(), `agent-bench-children-${BENCH_DATABASE}.json`);
const isHarnessChild = (pid: number): boolean => {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return ['dist/src/main.js', 'dist/bench/baseline-server.js', 'dist/bench/same-work-server.js'].some((script) =>
      cmdline.includes(script),
    );
  } catch {
    return false;
  }
};

/** Remembers the service and baseline pids, so that a later invocation can stop them if this runner is killed -9. */
export function recordChild(pid: number): void {
  let pids: number[] = [];
  try {
    pids = JSON.parse(readFileSync(CHILDREN_FILE, 'utf8')) as number[];
  } catch {
    // first one
  }
  writeFileSync(CHILDREN_FILE, JSON.stringify([...pids.filter(isHarnessChild), pid]));
}

/**
 * Stops processes an earlier invocation started and could not stop (its runner was killed with SIGKILL). Call it
 * while holding the benchmark lock: then no other invocation is alive, and every recorded pid that still runs a
 * harness child (checked in /proc/<pid>/cmdline, so a reused pid is left alone) is an orphan.
 */
export function stopOrphans(): number[] {
  let pids: number[];
  try {
    pids = JSON.parse(readFileSync(CHILDREN_FILE, 'utf8')) as number[];
  } catch {
    return [];
  }
  const orphans = pids.filter(isHarnessChild);
  for (const pid of orphans) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  writeFileSync(CHILDREN_FILE, '[]');
  return orphans;
}

/** SIGTERM, then SIGKILL after `graceMs` if it is still running. */
export async function stopProcess(spawned: Spawned, graceMs = 8000): Promise<void> {
  if (spawned.child.exitCode !== null || spawned.child.signalCode !== null) return;
  spawned.child.kill('SIGTERM');
  const timer = setTimeout(() => spawned.child.kill('SIGKILL'), graceMs);
  await spawned.exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx; fails early if the process exits, or after `timeoutMs`. */
export async function waitForHttp(url: string, spawned: Spawned, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void spawned.exited.then(() => {
    exited = true;
  });
  let last = '';
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process exited before ${url} answered; log ${spawned.logFile}:\n${spawned.tail()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last}); log ${spawned.logFile}:\n${spawned.tail()}`);
}

/** Runs a command to completion and returns its stdout; throws with its stderr on a non-zero exit. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.trim()}`)),
    );
  });
}
