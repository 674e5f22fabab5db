import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config.js';
import type { EmbeddingsSettings } from '../bundles/bundle.types.js';
import type { PreparedAgent } from '../runtime/prepared-agent.js';
import { EmbeddingsClient, EmbeddingsError, type EmbedOptions } from '../runtime/knowledge/dense-client.js';
import {
  DEFAULT_MIN_SIMILARITY,
  DENSE_CANDIDATES,
  DenseIndex,
  modelKey,
  passageHash,
  passageInput,
  type DenseRanking,
} from '../runtime/knowledge/dense-index.js';
import { PassageEmbeddingsRepository, type StoredVector } from './passage-embeddings.repository.js';

/** What embedding needs of a revision: its digest, its settings and its passages in the engine's order. */
export interface EmbeddableRevision {
  digest: string;
  settings: EmbeddingsSettings;
  passages: ReadonlyArray<{ title: string; text: string }>;
}

/** A prepared v2 revision whose bundle names an embeddings model, as embedding sees it; null otherwise. */
export function embeddableRevision(agent: PreparedAgent): EmbeddableRevision | null {
  const settings = agent.bundle.embeddings;
  if (!settings || agent.runtime !== 'v2' || !agent.v2) return null;
  return { digest: agent.digest, settings, passages: agent.v2.passages };
}

/**
 * After a failure for a revision (embedding its passages, or a turn's question), its turns rank lexically without
 * calling the provider again for this long (no storm on an outage).
 */
const FAILURE_HOLD_MS = 30_000;
/** Vectors held in memory across revisions (a 2000-document knowledge base at 1536 dimensions takes ~35 MB). */
const INDEX_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The passage vectors of each revision that names an embeddings model: embedded once (batched, retried), stored in
 * PostgreSQL, held in memory by digest. Work for one digest is shared by everyone who asks for it in this process;
 * another process (or this one after a restart) loads the stored vectors instead of embedding again.
 */
@Injectable()
export class PassageEmbeddingsService implements OnModuleDestroy {
  private readonly logger = new Logger('PassageEmbeddings');
  private readonly client: EmbeddingsClient;
  private readonly indexes = new LRUCache<string, DenseIndex>({
    maxSize: INDEX_CACHE_BYTES,
    sizeCalculation: (index) => Math.max(1, index.bytes),
  });
  private readonly running = new Map<string, Promise<DenseIndex>>();
  private readonly failures = new LRUCache<string, EmbeddingsFailure>({ max: 1000, ttl: FAILURE_HOLD_MS });

  constructor(
    private readonly repository: PassageEmbeddingsRepository,
    private readonly config: AppConfig,
  ) {
    this.client = new EmbeddingsClient({
      baseUrl: config.embeddings.baseUrl,
      apiKey: config.embeddings.apiKey,
      timeoutMs: config.embeddings.timeoutMs,
    });
  }

  /** The revision's passage vectors: from memory, else from the store, else embedded now (and stored). */
  vectors(revision: EmbeddableRevision): Promise<DenseIndex> {
    const key = indexKey(revision);
    const ready = this.indexes.get(key);
    if (ready) return Promise.resolve(ready);
    const running = this.running.get(key);
    if (running) return running;
    const failure = this.failures.get(key);
    if (failure) return Promise.reject(new HeldOff(failure));
    const job = this.build(revision)
      .then((index) => {
        this.indexes.set(key, index);
        return index;
      })
      .catch((error: unknown) => {
        const failure = new EmbeddingsFailure(`passage embeddings failed: ${error instanceof Error ? error.message : String(error)}`);
        this.failures.set(key, failure);
        throw failure;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }

  /** Publish time: starts embedding in the background; failures are logged, and turns retry after FAILURE_HOLD_MS. */
  prepareInBackground(revision: EmbeddableRevision): void {
    this.vectors(revision).catch((error: unknown) =>
      this.logger.warn(
        `Revision ${revision.digest}: ${error instanceof Error ? error.message : String(error)}; turns rank lexically until it succeeds`,
      ),
    );
  }

  /**
   * Turn time: the question's dense ranking over the revision's passages, or why there is none (`failed`: the turn
   * ranks lexically). All of it within EMBEDDINGS_QUERY_TIMEOUT_MS: waiting for the passages' vectors (their embedding
   * goes on after the deadline, for later turns), then embedding the question in one call without retries in what is
   * left. Within the failure hold of the revision the provider is not called at all (`held`); a failed question starts
   * the hold as a failed passage embedding does. Never throws.
   */
  async rank(revision: EmbeddableRevision, question: string): Promise<DenseRanking> {
    const model = modelKey(revision.settings);
    const key = indexKey(revision);
    const deadline = Date.now() + this.config.embeddings.queryTimeoutMs;
    try {
      const held = this.failures.get(key);
      if (held) throw new HeldOff(held);
      const index = await withDeadline(this.vectors(revision), deadline - Date.now(), 'the passages are still being embedded');
      if (index.size === 0) return { status: 'used', model, hits: [], minSimilarity: minSimilarity(revision.settings) };
      const query = await this.embedQuestion(key, revision.settings, question, Math.max(1, deadline - Date.now()));
      return { status: 'used', model, hits: index.rank(query, DENSE_CANDIDATES), minSimilarity: minSimilarity(revision.settings) };
    } catch (error) {
      return { status: 'failed', model, reason: error instanceof Error ? error.message : String(error), held: error instanceof HeldOff };
    }
  }

  async onModuleDestroy(): Promise<void> {
    // Background work finishes (or fails) before the pool it writes to closes.
    await Promise.allSettled([...this.running.values()]);
  }

  private async build(revision: EmbeddableRevision): Promise<DenseIndex> {
    const model = modelKey(revision.settings);
    const inputs = revision.passages.map(passageInput);
    const hashes = inputs.map(passageHash);
    const unique = [...new Set(hashes)];
    const found = new Map<string, Float32Array>();
    const collect = (stored: StoredVector[]) => stored.forEach((s) => found.set(s.hash, s.vector));
    collect(await this.repository.load(revision.digest, model, unique));
    if (found.size < unique.length) {
      const missing = unique.filter((h) => !found.has(h));
      if ((await this.repository.reuse(revision.digest, model, missing)) > 0) {
        collect(await this.repository.load(revision.digest, model, missing));
      }
    }
    const missing = unique.filter((h) => !found.has(h));
    if (missing.length) {
      const inputOf = new Map(hashes.map((h, i) => [h, inputs[i]!]));
      const vectors = await this.client.embed(
        missing.map((h) => inputOf.get(h)!),
        this.options(revision.settings),
      );
      const fresh = missing.map((hash, i) => ({ hash, vector: vectors[i]! }));
      await this.repository.save(revision.digest, model, fresh);
      collect(fresh);
      this.logger.log(`Revision ${revision.digest}: embedded ${missing.length} passage(s) with ${model}`);
    }
    const rows = hashes.map((h) => found.get(h)!);
    const dimensions = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== dimensions)) {
      throw new EmbeddingsError('malformed', `stored vectors of ${model} differ in size; the model changed its output`);
    }
    return new DenseIndex(model, dimensions, rows);
  }

  private async embedQuestion(key: string, settings: EmbeddingsSettings, question: string, timeoutMs: number): Promise<Float32Array> {
    try {
      const [query] = await this.client.embed([question], { ...this.options(settings), maxAttempts: 1, timeoutMs });
      return query!;
    } catch (error) {
      this.failures.set(key, new EmbeddingsFailure(`question embedding failed: ${error instanceof Error ? error.message : String(error)}`));
      throw error;
    }
  }

  private options(settings: EmbeddingsSettings): EmbedOptions {
    return {
      model: settings.model,
      dimensions: settings.dimensions,
      batchSize: this.config.embeddings.batchSize,
      maxAttempts: this.config.embeddings.maxAttempts,
    };
  }
}

/** A failure remembered for FAILURE_HOLD_MS. */
class EmbeddingsFailure extends Error {
  readonly at = Date.now();
}

/** The provider was not called: `failure` happened for this revision within FAILURE_HOLD_MS. */
class HeldOff extends Error {
  constructor(failure: EmbeddingsFailure) {
    super(
      `${failure.message} ${Math.max(0, Math.round((Date.now() - failure.at) / 1000))} s ago; retried ${FAILURE_HOLD_MS / 1000} s after it`,
    );
  }
}

function indexKey(revision: EmbeddableRevision): string {
  return `${revision.digest}|${modelKey(revision.settings)}`;
}

function minSimilarity(settings: EmbeddingsSettings): number {
  return settings.min_similarity ?? DEFAULT_MIN_SIMILARITY;
}

/** `work`, or a rejection after `ms` (the work itself goes on and its result is kept for the next caller). */
function withDeadline<T>(work: Promise<T>, ms: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(reason)), ms);
    timer.unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
