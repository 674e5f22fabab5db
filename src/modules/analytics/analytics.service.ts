import { Injectable } from '@nestjs/common';
import type { MessageFeedback, ThreadControlChanged } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { parseDateTime } from '../../common/validation/date-time.js';
import { LATENCY_BUCKET_BOUNDS_MS } from '../../database/migrations/1732243310000-analytics.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import { AnalyticsRepository, type AnalyticsSums } from './analytics.repository.js';
import type { AnalyticsDto, AnalyticsGroupDto, AnalyticsQueryDto } from './dto/analytics.dto.js';

/**
 * Outcome analytics (docs/evaluations.md "Analytics"): the report reads the daily roll-up only, so its cost depends on
 * the agent's days × revisions, not on its threads. Turns and thread outcomes are rolled up by the trigger on
 * interactions; feedback and handoffs are added here, in the transaction of the change that announces them.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly analytics: AnalyticsRepository,
    private readonly agents: AgentsRepository,
  ) {}

  async report(who: Principal, agentId: string, query: AnalyticsQueryDto): Promise<AnalyticsDto> {
    const from = query.created_from ? parseDateTime(query.created_from)! : null;
    const to = query.created_to ? parseDateTime(query.created_to)! : null;
    if (from !== null && to !== null && from > to) throw ValidationError.field('created_from', 'created_from must not be after created_to');
    const agent = await this.agents.findVisible(who.organizationId, agentId);
    if (!agent) throw new NotFoundError('Agent');
    const groupBy = query.group_by ?? 'version_tag';
    const fromDay = from === null ? null : utcDay(from);
    const toDay = to === null ? null : utcDay(to);
    const rows = await this.analytics.report(agent.organizationId, agent.id, groupBy, fromDay, toDay);
    return { agent_id: agent.id, group_by: groupBy, from_day: fromDay, to_day: toDay, groups: rows.map(toGroup) };
  }

  /** A rating counts in the group of the turn that wrote the message; a replaced rating is taken back. */
  @OnBusEvent('message.feedback', { phase: 'transaction' })
  async feedback(rating: MessageFeedback): Promise<void> {
    const up = (rating.rating === 'up' ? 1 : 0) - (rating.previousRating === 'up' ? 1 : 0);
    const down = (rating.rating === 'down' ? 1 : 0) - (rating.previousRating === 'down' ? 1 : 0);
    if (up === 0 && down === 0) return;
    await this.analytics.addFeedback(
      {
        organizationId: rating.organizationId,
        agentId: rating.agentId,
        day: rating.turnCreatedAt,
        versionTag: rating.versionTag,
        versionId: rating.versionId,
      },
      up,
      down,
    );
  }

  /** A thread is handed off for good once a human was asked for or took it over (docs/handoff.md), in the change's transaction. */
  @OnBusEvent('thread.control_changed', { phase: 'transaction' })
  async handedOff(change: ThreadControlChanged): Promise<void> {
    if (change.change === 'requested' || change.change === 'takeover') await this.analytics.handOff(change.threadId);
  }
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

function toGroup(row: AnalyticsSums): AnalyticsGroupDto {
  const threads = Number(row.threads);
  const declined = Number(row.declined);
  const handedOff = Number(row.handed_off);
  const contained = threads - declined - handedOff;
  const counts = row.latency_counts.map(Number);
  return {
    key: row.key,
    version_id: row.version_id,
    version_tags: row.version_tags,
    threads,
    messages: Number(row.messages),
    contained,
    handed_off: handedOff,
    declined,
    containment_rate: rate(contained, threads),
    handoff_rate: rate(handedOff, threads),
    decline_rate: rate(declined, threads),
    feedback_up: Number(row.feedback_up),
    feedback_down: Number(row.feedback_down),
    latency_p50_ms: quantile(counts, 0.5),
    latency_p95_ms: quantile(counts, 0.95),
    input_tokens: Number(row.input_tokens),
    output_tokens: Number(row.output_tokens),
  };
}

/**
 * The q-quantile of a fixed-bucket histogram (bucket i: latencies under LATENCY_BUCKET_BOUNDS_MS[i], at or over the one
 * before; the last: at or over the highest bound), interpolated linearly inside its bucket; the open last bucket
 * answers its lower bound. Exact to within the bucket's width. Null without any latency.
 */
export function quantile(counts: number[], q: number): number | null {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let before = 0;
  for (let i = 0; i < counts.length; i += 1) {
    const n = counts[i]!;
    if (n > 0 && before + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BUCKET_BOUNDS_MS[i - 1]!;
      const upper = LATENCY_BUCKET_BOUNDS_MS[i];
      if (upper === undefined) return lower;
      return Math.round(lower + ((upper - lower) * (rank - before)) / n);
    }
    before += n;
  }
  return LATENCY_BUCKET_BOUNDS_MS[LATENCY_BUCKET_BOUNDS_MS.length - 1]!;
}
