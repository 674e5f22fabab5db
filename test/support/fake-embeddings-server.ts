/**
 * A local fake of an OpenAI-compatible embeddings API (POST /v1/embeddings), for tests: `{model, input, dimensions?,
 * encoding_format?}` → `{object: "list", data: [{object: "embedding", embedding, index}], model, usage}`. The vectors
 * are the test's: `vectorFor(input)` (default: a bag of the input's words hashed into 16 dimensions). It can fail the
 * next N requests (with a status and an optional Retry-After), fail every request, or hang.
 *
 *   const fake = await startFakeEmbeddings({ vectorFor: (text) => (text.includes('refund') ? [1, 0] : [0, 1]) });
 *   // EMBEDDINGS_BASE_URL = fake.url  (ends in /v1, like OPENAI_BASE_URL)
 *   fake.inputs() // every input embedded so far, in order
 */
import { harness, type FakeRequest } from './fake-openai-server.js';

export interface FakeEmbeddingsBehaviour {
  vectorFor?: (input: string) => number[];
  /** Answer every request with this status. */
  failStatus?: number;
  /** Answer the next `count` requests with `status` (then behave normally), sending `retryAfter` seconds when set. */
  failNext?: { count: number; status: number; retryAfter?: number };
  /** Never answer. */
  hang?: boolean;
}

export interface FakeEmbeddingsServer {
  /** Base URL for EMBEDDINGS_BASE_URL (ends in /v1). */
  url: string;
  requests: FakeRequest[];
  /** Inputs of the requests that were answered with vectors, in order. */
  inputs(): string[];
  behave(b: FakeEmbeddingsBehaviour): void;
  /** Forgets the requests and inputs seen so far. */
  reset(): void;
  close(): Promise<void>;
}

const DIMENSIONS = 16;

/** Words hashed into a small vector: texts that share words point the same way. */
export function bagOfWords(input: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of input.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    v[(h >>> 0) % DIMENSIONS]! += 1;
  }
  return v;
}

export async function startFakeEmbeddings(initial: FakeEmbeddingsBehaviour = {}): Promise<FakeEmbeddingsServer> {
  const embedded: string[] = [];
  let behaviour: FakeEmbeddingsBehaviour = { ...initial };
  const h = harness((req, res) => {
    const error = (status: number, message: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: null } }));
    };
    if (req.method !== 'POST' || req.path !== '/v1/embeddings') return error(404, `Unknown path ${req.path}`);
    if (behaviour.hang) return;
    if (behaviour.failNext && behaviour.failNext.count > 0) {
      const { status, retryAfter } = behaviour.failNext;
      behaviour.failNext = { ...behaviour.failNext, count: behaviour.failNext.count - 1 };
      return error(status, 'temporarily unavailable', retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {});
    }
    if (behaviour.failStatus) return error(behaviour.failStatus, 'failing on purpose');
    const raw = req.body.input;
    const inputs = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map(String) : [];
    if (!inputs.length || typeof req.body.model !== 'string') return error(400, "'input' and 'model' are required");
    if (req.headers.authorization !== 'Bearer test-embeddings-key') return error(401, 'Incorrect API key provided');
    embedded.push(...inputs);
    const vectorFor = behaviour.vectorFor ?? bagOfWords;
    const tokens = inputs.reduce((n, text) => n + Math.max(1, Math.ceil(text.length / 4)), 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        // reversed: clients must place vectors by `index`, not by position
        data: inputs.map((text, index) => ({ object: 'embedding', embedding: vectorFor(text), index })).reverse(),
        model: req.body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      }),
    );
  });
  const { port } = await h.listen();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: h.requests,
    inputs: () => [...embedded],
    behave: (b) => {
      behaviour = { ...b };
    },
    reset: () => {
      h.requests.length = 0;
      embedded.length = 0;
    },
    close: () => h.close(),
  };
}
