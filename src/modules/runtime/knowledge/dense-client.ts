/**
 * A client of an OpenAI-compatible `POST {base}/embeddings` (`{model, input[], dimensions?, encoding_format: "float"}` →
 * `{data: [{embedding, index}], model, usage}`): batches the inputs, retries what may pass on a second try (429, 5xx,
 * network failures, timeouts) with exponential backoff that honours `Retry-After`, and fails fast on the rest (400,
 * 401, 404: a wrong model or key will not heal by waiting).
 */

export interface EmbeddingsEndpoint {
  /** Base URL ending before `/embeddings`, e.g. `https://api.openai.com/v1` (the OPENAI_BASE_URL convention). */
  baseUrl?: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface EmbedOptions {
  model: string;
  dimensions?: number;
  /** Inputs per request. */
  batchSize: number;
  /** Tries per request (1 = no retry). */
  maxAttempts: number;
  /** Base of the exponential backoff between tries, in ms (doubled each time, with jitter). */
  backoffMs?: number;
  /** Per request, instead of the endpoint's `timeoutMs`. */
  timeoutMs?: number;
}

export type EmbeddingsFailureKind = 'timeout' | 'unavailable' | 'rate_limited' | 'rejected' | 'malformed';

/** Why embedding failed; the message names the endpoint's answer, never the key or the inputs. */
export class EmbeddingsError extends Error {
  constructor(
    readonly kind: EmbeddingsFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingsError';
  }

  get retryable(): boolean {
    return this.kind !== 'rejected' && this.kind !== 'malformed';
  }
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_BACKOFF_MS = 250;
/** A Retry-After longer than this is not waited out: the batch fails and a later publish or turn tries again. */
const MAX_RETRY_AFTER_MS = 10_000;

export class EmbeddingsClient {
  private readonly url: string;

  constructor(private readonly endpoint: EmbeddingsEndpoint) {
    this.url = `${(endpoint.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/embeddings`;
  }

  /** One vector per input, in input order. Requests go one batch at a time (kind to the provider's rate limit). */
  async embed(inputs: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < inputs.length; start += options.batchSize) {
      const batch = inputs.slice(start, start + options.batchSize);
      out.push(...(await this.withRetries(() => this.request(batch, options), options)));
    }
    return out;
  }

  private async withRetries<T>(call: () => Promise<T>, options: EmbedOptions): Promise<T> {
    const base = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const failure = error instanceof RetryAfter ? error.cause : error;
        if (!(failure instanceof EmbeddingsError) || !failure.retryable || attempt >= options.maxAttempts) throw failure;
        const backoff = base * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
        const wait = error instanceof RetryAfter ? Math.max(error.ms, backoff) : backoff;
        if (wait > MAX_RETRY_AFTER_MS) throw failure;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async request(batch: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    const body = {
      model: options.model,
      input: batch,
      encoding_format: 'float',
      ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
    };
    const timeoutMs = options.timeoutMs ?? this.endpoint.timeoutMs;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.endpoint.apiKey ? { authorization: `Bearer ${this.endpoint.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const name = (error as { name?: string }).name ?? '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new EmbeddingsError('timeout', `the embeddings endpoint did not answer within ${timeoutMs} ms`);
      }
      throw new EmbeddingsError('unavailable', `the embeddings endpoint could not be reached (${summary(error)})`);
    }
    if (!response.ok) {
      const detail = summary(await response.text().catch(() => ''));
      const failure = new EmbeddingsError(
        response.status === 429 ? 'rate_limited' : response.status >= 500 || response.status === 408 ? 'unavailable' : 'rejected',
        `the embeddings endpoint answered ${response.status}${detail ? `: ${detail}` : ''}`,
      );
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      throw retryAfter !== null ? new RetryAfter(failure, retryAfter) : failure;
    }
    return vectorsOf(await response.json().catch(() => null), batch.length);
  }
}

/** A retryable failure whose answer said how long to wait. */
class RetryAfter extends Error {
  constructor(
    override readonly cause: EmbeddingsError,
    readonly ms: number,
  ) {
    super(cause.message);
  }
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** The `data` array in input order (`index` says which input each vector is for), every vector of one size. */
function vectorsOf(payload: unknown, expected: number): Float32Array[] {
  const data = (payload as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new EmbeddingsError(
      'malformed',
      `the embeddings endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} inputs`,
    );
  }
  const out: Array<Float32Array | undefined> = new Array(expected);
  let size: number | null = null;
  for (const [position, entry] of data.entries()) {
    const { embedding, index } = (entry ?? {}) as { embedding?: unknown; index?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || embedding.length === 0 || !Number.isInteger(at) || at < 0 || at >= expected || out[at]) {
      throw new EmbeddingsError('malformed', 'the embeddings endpoint returned an entry without a usable embedding and index');
    }
    if (size !== null && embedding.length !== size) {
      throw new EmbeddingsError('malformed', 'the embeddings endpoint returned vectors of different sizes');
    }
    size = embedding.length;
    const vector = Float32Array.from(embedding as number[]);
    if (vector.some((x) => !Number.isFinite(x))) {
      throw new EmbeddingsError('malformed', 'the embeddings endpoint returned a non-numeric component');
    }
    out[at] = vector;
  }
  return out as Float32Array[];
}

function summary(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value ?? '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
