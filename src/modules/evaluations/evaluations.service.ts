import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import type { RevisionsGoingLive } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { AppError, NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { JobName } from '../../queue/job-map.js';
import { JobQueue } from '../../queue/job-queue.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import { HISTORY_TURNS } from '../conversations/conversations.types.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import type { EngineTurn, TurnInput } from '../runtime/runtime.types.js';
import { VersionsService } from '../versions/versions.service.js';
import {
  toEvaluationResponse,
  type EvaluationAcceptedDto,
  type EvaluationResponseDto,
  type ListEvaluationsQueryDto,
} from './dto/evaluation.dto.js';
import { EvaluationRequiredError } from './evaluations.errors.js';
import {
  EvaluationsRepository,
  type CaseOutcome,
  type Comparison,
  type EvaluationRow,
  type TurnOutcome,
} from './evaluations.repository.js';
import type { TestCaseRow } from './test-cases.repository.js';
import { TestCasesService } from './test-cases.service.js';
import { factsOfResult, failures } from './turn-checks.js';

/** Cases of one run answered at the same time: enough to overlap a model provider's latency, few enough to share a worker. */
export const EVALUATION_CASE_CONCURRENCY = 4;

/**
 * Evaluation runs (docs/evaluations.md): a version's current revision against every test case of its agent, on the
 * job queue. Each case is a throwaway conversation held in memory: its turns go to the engine with the case's earlier
 * turns as history, exactly as a thread's would, and nothing is recorded as a thread — so no thread list, usage figure,
 * analytics roll-up or webhook can see an evaluation. Also the publish gate: a publish or traffic split that would serve
 * a revision whose latest evaluation did not pass is refused while the agent asks for it.
 */
@Injectable()
export class EvaluationsService {
  private readonly logger = new Logger('Evaluations');

  constructor(
    private readonly evaluations: EvaluationsRepository,
    private readonly testCases: TestCasesService,
    private readonly versions: VersionsService,
    private readonly agents: AgentsRepository,
    private readonly runtime: RuntimeService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    private readonly jobs: JobQueue,
  ) {}

  /** Queues a run of the version's current revision (202); it runs on whichever worker takes the job. */
  async start(who: Principal, agentId: string, versionId: string): Promise<EvaluationAcceptedDto> {
    const row = await this.unitOfWork.run(async () => {
      const revision = await this.versions.currentRevisionOf(who.organizationId, agentId, versionId);
      const row = await this.evaluations.create({
        id: newId(),
        organization_id: who.organizationId,
        agent_id: agentId.toLowerCase(),
        version_id: revision.versionId,
        revision_id: revision.revisionId,
        version_tag: revision.versionTag,
        digest: revision.digest,
      });
      await this.bus.publish('evaluation.create', {
        actor: who,
        resourceType: 'evaluation',
        resourceId: row.id,
        after: { version_id: row.version_id, version_tag: row.version_tag, digest: row.digest },
      });
      return row;
    });
    try {
      await this.jobs.enqueue(JobName.RunEvaluation, { evaluationId: row.id }, { jobId: row.id });
    } catch (error) {
      await this.evaluations.fail(row.id, 'the run could not be queued');
      throw error;
    }
    return { id: row.id, status: row.status };
  }

  async get(who: Principal, agentId: string, versionId: string, evaluationId: string): Promise<EvaluationResponseDto> {
    const revision = await this.versions.currentRevisionOf(who.organizationId, agentId, versionId);
    const row = await this.evaluations.find(who.organizationId, revision.versionId, evaluationId);
    if (!row) throw new NotFoundError('Evaluation');
    return toEvaluationResponse(row);
  }

  async list(
    who: Principal,
    agentId: string,
    versionId: string,
    query: ListEvaluationsQueryDto,
    request: PageRequest,
  ): Promise<Page<EvaluationResponseDto>> {
    const revision = await this.versions.currentRevisionOf(who.organizationId, agentId, versionId);
    return this.evaluations.page(who.organizationId, revision.versionId, query, request, toEvaluationResponse);
  }

  /** Runs one evaluation (the job's work). A run already finished is not run again; a retried one starts over. */
  async run(evaluationId: string): Promise<void> {
    const evaluation = await this.evaluations.claim(evaluationId);
    if (!evaluation) return;
    const content = await this.versions.revisionContent(evaluation.organization_id, evaluation.agent_id, evaluation.revision_id);
    if (!content) {
      await this.evaluations.fail(evaluation.id, 'the agent or the revision no longer exists');
      return;
    }
    const cases = await this.testCases.all(evaluation.organization_id, evaluation.agent_id);
    const engine = this.runtime.begin(this.runtime.prepare(content));
    const outcomes = await mapPooled(cases, EVALUATION_CASE_CONCURRENCY, (c) => this.runCase(engine, evaluation.agent_id, c));
    const comparedTo = await this.compare(evaluation, outcomes);
    const passedCount = outcomes.filter((o) => o.passed).length;
    await this.evaluations.complete(evaluation.id, {
      passed: cases.length > 0 && passedCount === cases.length,
      passedCount,
      cases: ordered(outcomes),
      comparedTo,
      error: cases.length === 0 ? 'the agent has no test cases: nothing was checked, so the run does not pass' : null,
    });
  }

  /** A run that could not finish (its job's last attempt failed). */
  async failed(evaluationId: string, error: unknown): Promise<void> {
    this.logger.error({ err: error, evaluationId }, 'evaluation run failed');
    await this.evaluations.fail(
      evaluationId,
      error instanceof AppError ? `${error.code}: ${error.message}` : 'the run failed unexpectedly',
    );
  }

  /**
   * The evaluation gate. While the agent requires it, each revision about to serve end users needs a passing latest
   * evaluation of its content (same digest); otherwise 409 `evaluation_required`, or — with `force` — the change goes
   * ahead and the audit log records that it was forced past the gate, and why.
   */
  @OnBusEvent('revisions.going_live', {
    phase: 'transaction',
    wants: (_self: EvaluationsService, change) => change?.requiresEvaluation !== false,
  })
  async gate(change: RevisionsGoingLive): Promise<void> {
    if (!change.requiresEvaluation) return;
    const refused: Array<{ version_id: string; version_tag: string; digest: string; evaluation_id: string | null; reason: string }> = [];
    for (const revision of change.revisions) {
      const verdict = await this.evaluations.latestVerdict(change.agentId, revision.digest);
      if (verdict?.passed) continue;
      refused.push({
        version_id: revision.versionId,
        version_tag: revision.versionTag,
        digest: revision.digest,
        evaluation_id: verdict?.id ?? null,
        reason: verdict ? 'its latest evaluation failed' : 'it was never evaluated',
      });
    }
    if (refused.length === 0) return;
    if (!change.force) {
      const which = refused.map((r) => `${r.version_tag} (${r.reason})`).join(', ');
      throw new EvaluationRequiredError(
        `The agent requires a passing evaluation before a revision serves end users: ${which}. Run an evaluation of the version, or pass force=true`,
      );
    }
    const publish = change.change === 'publish';
    await this.bus.publish(publish ? 'version.publish_forced' : 'traffic.update_forced', {
      actor: change.actor,
      resourceType: publish ? 'version' : 'agent',
      resourceId: publish ? change.revisions[0]!.versionId : change.agentId,
      after: { agent_id: change.agentId, forced_past: refused },
    });
  }

  /** One case: its turns in order in one in-memory conversation; a turn the engine could not answer ends the case. */
  private async runCase(engine: EngineTurn, agentId: string, testCase: TestCaseRow): Promise<CaseOutcome> {
    const history: TurnInput['history'] = [];
    const turns: TurnOutcome[] = [];
    for (const turn of testCase.turns) {
      try {
        const result = await engine.run({
          text: turn.text,
          agentVariables: turn.agent_variables ?? {},
          history: history.slice(-HISTORY_TURNS * 2),
          agentId,
        });
        turns.push({ text: turn.text, reply: result.text, failures: failures(turn.expect, factsOfResult(result)) });
        history.push({ role: 'user', text: turn.text }, { role: 'agent', text: result.text });
      } catch (error) {
        const reason = error instanceof AppError ? `${error.code}: ${error.message}` : 'the engine failed on this turn';
        turns.push({ text: turn.text, reply: '', failures: [`error: ${reason}`] });
        break;
      }
    }
    const passed = turns.length === testCase.turns.length && turns.every((t) => t.failures.length === 0);
    return { test_case_id: testCase.id, name: testCase.name, passed, regression: false, turns };
  }

  /** Against the live version's newest other completed run: which cases regressed (passed there, fail here) and which were fixed. */
  private async compare(evaluation: EvaluationRow, outcomes: CaseOutcome[]): Promise<Comparison | null> {
    const agent = await this.agents.findVisible(evaluation.organization_id, evaluation.agent_id);
    if (!agent?.liveVersionId) return null;
    const base = await this.evaluations.latestCompletedOfVersion(agent.liveVersionId, evaluation.id);
    if (!base?.cases) return null;
    const before = new Map(base.cases.map((c) => [c.test_case_id, c.passed]));
    const regressions: Comparison['regressions'] = [];
    const fixed: Comparison['fixed'] = [];
    for (const outcome of outcomes) {
      const earlier = before.get(outcome.test_case_id);
      if (earlier === true && !outcome.passed) {
        outcome.regression = true;
        regressions.push({ test_case_id: outcome.test_case_id, name: outcome.name, failures: outcome.turns.flatMap((t) => t.failures) });
      } else if (earlier === false && outcome.passed) {
        fixed.push({ test_case_id: outcome.test_case_id, name: outcome.name });
      }
    }
    return { version_id: base.version_id, version_tag: base.version_tag, evaluation_id: base.id, regressions, fixed };
  }
}

/** Regressions first, then the other failures, then the passes; case order within each. */
function ordered(outcomes: CaseOutcome[]): CaseOutcome[] {
  const rank = (o: CaseOutcome) => (o.regression ? 0 : o.passed ? 2 : 1);
  return outcomes
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map(({ o }) => o);
}

/** Maps `items` with at most `limit` calls in flight, keeping their order. */
async function mapPooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
