import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AppConfig } from '../config/app-config.js';
import { JobHandler } from './job-handler.decorator.js';
import { handlerProblems, JobHandlersError, type FoundHandler } from './job-handlers.js';
import { JOB_MAP, JobName, type JobSpec } from './job-map.js';
import { JobQueue } from './job-queue.js';
import { JobRunner } from './job-runner.js';

const handler = (name: string, owner: string): FoundHandler => ({ name, owner, handle: () => undefined });

const MAP: Record<string, JobSpec> = {
  'send-it': {
    kind: 'queued',
    runsOn: 'workers',
    queue: JOB_MAP[JobName.DeliverWebhook].queue,
    concurrency: () => 1,
    options: () => ({}),
  },
  'look-around': { kind: 'periodic', runsOn: 'workers', every: () => 1000, jitter: 0 },
  'keep-alive': { kind: 'periodic', runsOn: 'every process', every: () => 1000, jitter: 0 },
};

describe('job handlers against the job map', () => {
  it('accepts exactly one handler per job where it runs', () => {
    const all = [handler('send-it', 'A.send'), handler('look-around', 'A.look'), handler('keep-alive', 'B.beat')];
    expect(handlerProblems(all, true, MAP)).toEqual([]);
    // Without workers, only the jobs of every process have (and need) a handler.
    expect(handlerProblems([handler('keep-alive', 'B.beat')], false, MAP)).toEqual([]);
  });

  it('names every job without a handler, with two, handlers of unknown jobs and worker handlers outside workers', () => {
    expect(handlerProblems([handler('send-it', 'A.send'), handler('send-it', 'C.send'), handler('nope', 'D.run')], true, MAP)).toEqual([
      "D.run handles 'nope', which is not a job of the job map",
      "'send-it' has 2 handlers, one is allowed: A.send, C.send",
      "'look-around' has no handler (declare one with @JobHandler on a provider of a worker module)",
      "'keep-alive' has no handler (declare one with @JobHandler on a provider of a module every process loads)",
    ]);
    expect(handlerProblems([handler('keep-alive', 'B.beat'), handler('look-around', 'A.look')], false, MAP)).toEqual([
      "'look-around' runs on workers only, but this process (WORKERS=off) has handlers: A.look; move them to a worker module",
    ]);
  });

  it('fails the start-up of a Nest application whose handlers do not match, naming each problem', async () => {
    @Injectable()
    class TwoSweeps {
      @JobHandler(JobName.SweepWebhooks)
      sweep(): number {
        return 1;
      }

      @JobHandler(JobName.SweepWebhooks)
      again(): number {
        return 2;
      }

      @JobHandler('no-such-job' as JobName)
      unknown(): number {
        return 3;
      }
    }
    const module = await Test.createTestingModule({
      imports: [DiscoveryModule],
      providers: [JobRunner, TwoSweeps, { provide: AppConfig, useValue: { workersEnabled: true } }, { provide: JobQueue, useValue: {} }],
    }).compile();
    const started = module.init();
    await expect(started).rejects.toThrow(JobHandlersError);
    const message = await started.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain('The job handlers do not match the job map (src/queue/job-map.ts):');
    expect(message).toContain(`'${JobName.SweepWebhooks}' has 2 handlers, one is allowed: TwoSweeps.sweep, TwoSweeps.again`);
    expect(message).toContain("TwoSweeps.unknown handles 'no-such-job', which is not a job of the job map");
    expect(message).toContain(`'${JobName.DeliverWebhook}' has no handler`);
    await module.close();
  });
});
