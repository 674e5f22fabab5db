import { Injectable } from '@nestjs/common';
import { JobHandler } from '../../queue/job-handler.decorator.js';
import { JobName, type JobAttempt, type JobPayloads } from '../../queue/job-map.js';
import { EvaluationsService } from './evaluations.service.js';

/** Runs evaluation jobs (queue `evaluations`, job map); a run whose last attempt fails is marked failed with the reason. */
@Injectable()
export class EvaluationsProcessor {
  constructor(private readonly evaluations: EvaluationsService) {}

  @JobHandler(JobName.RunEvaluation)
  async run(payload: JobPayloads[JobName.RunEvaluation], attempt: JobAttempt): Promise<void> {
    try {
      await this.evaluations.run(payload.evaluationId);
    } catch (error) {
      if (attempt.made + 1 >= attempt.allowed) await this.evaluations.failed(payload.evaluationId, error);
      throw error;
    }
  }
}
