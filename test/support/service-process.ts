import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { HttpClient } from './http.js';

export interface ChildServiceProcess {
  child: ChildProcessWithoutNullStreams;
  /** Every line the process printed so far (stdout and stderr). */
  logs: string[];
  exited: Promise<number | null>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

export interface ServiceProcess extends ChildServiceProcess {
  baseUrl: string;
  http: HttpClient;
}

/**
 * The built service (`dist/src/main.js`) as a second process on this worker's database and Redis keys: another
 * instance of a deployment. A separate process, not a second app in this one: Passport registers strategies
 * process-wide, so two apps in one process authenticate through whichever was created last and would share its
 * credential cache — which hides (or fakes) exactly what cross-instance tests look for.
 */
export async function startServiceProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  let baseUrl = '';
  const started = await startChild('dist/src/main.js', { WORKERS: 'off', ...env }, (line) => {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
    if (match) baseUrl = match[1]!;
    return match !== null;
  });
  return { ...started, baseUrl, http: new HttpClient(baseUrl) };
}

/** The built queue worker (`dist/src/worker.js`, `npm run worker`) on this worker's database and Redis keys. */
export function startWorkerProcess(env: Record<string, string> = {}): Promise<ChildServiceProcess> {
  return startChild('dist/src/worker.js', env, (line) => line.includes('worker started'));
}

/** Spawns `script` and resolves once it printed a line `ready` accepts; rejects if it exits first. */
function startChild(script: string, env: Record<string, string>, ready: (line: string) => boolean): Promise<ChildServiceProcess> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', MIGRATE_ON_START: 'false', ...env },
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        if (ready(line)) resolve({ child, logs, exited, stop });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`${script} exited with ${code}: ${logs.join('\n')}`)));
  });
}

/**
 * Runs the built service (or another entry point) to its exit, for start-ups that must fail: the exit code and what
 * it printed. `undefined` in `env` removes a variable inherited from the test process.
 */
export async function runServiceToExit(
  env: Record<string, string | undefined>,
  options: { cwd?: string; script?: string; args?: string[]; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'info',
    MIGRATE_ON_START: 'false',
    WORKERS: 'off',
    ...env,
  };
  const child = spawn(process.execPath, [resolve(options.script ?? 'dist/src/main.js'), ...(options.args ?? [])], {
    cwd: options.cwd,
    env: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20000);
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
