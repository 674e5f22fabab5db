import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { HttpClient } from './http.js';

export interface ServiceProcess {
  baseUrl: string;
  http: HttpClient;
  child: ChildProcessWithoutNullStreams;
  /** Every line the process printed so far (stdout and stderr). */
  logs: string[];
  exited: Promise<number | null>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * The built service (`dist/src/main.js`) as a second process on this worker's database and Redis keys: another
 * instance of a deployment. A separate process, not a second app in this one: Passport registers strategies
 * process-wide, so two apps in one process authenticate through whichever was created last and would share its
 * credential cache — which hides (or fakes) exactly what cross-instance tests look for.
 */
export async function startServiceProcess(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', MIGRATE_ON_START: 'false', WORKERS: 'off', ...env },
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
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) resolve({ baseUrl: match[1]!, http: new HttpClient(match[1]!), child, logs, exited, stop });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`the service process exited with ${code}: ${logs.join('\n')}`)));
  });
}
