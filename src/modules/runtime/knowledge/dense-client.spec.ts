import { startFakeEmbeddings, type FakeEmbeddingsServer } from '../../../../test/support/fake-embeddings-server.js';
import { EmbeddingsClient, EmbeddingsError } from './dense-client.js';

describe('EmbeddingsClient against the local fake /v1/embeddings', () => {
  let fake: FakeEmbeddingsServer;
  let client: EmbeddingsClient;
  const options = { model: 'm', batchSize: 3, maxAttempts: 3, backoffMs: 5 };

  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    client = new EmbeddingsClient({ baseUrl: fake.url, apiKey: 'test-embeddings-key', timeoutMs: 1000 });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.behave({ vectorFor: (text) => [text.length, 1] });
  });

  it('batches inputs and places each vector by its index (the fake answers in reverse order)', async () => {
    const vectors = await client.embed(['a', 'bb', 'ccc', 'dddd'], options);
    expect(vectors.map((v) => [...v])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
    ]);
    expect(fake.requests.map((r) => r.body.input)).toEqual([['a', 'bb', 'ccc'], ['dddd']]);
    expect(fake.requests[0]!.body).toEqual({ model: 'm', input: ['a', 'bb', 'ccc'], encoding_format: 'float' });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer test-embeddings-key');
  });

  it('retries 429 (honouring Retry-After) and 5xx, then succeeds', async () => {
    fake.behave({ vectorFor: () => [1, 0], failNext: { count: 2, status: 429, retryAfter: 0 } });
    expect(await client.embed(['a'], options)).toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
    fake.requests.length = 0;
    fake.behave({ vectorFor: () => [1, 0], failNext: { count: 1, status: 502 } });
    expect(await client.embed(['a'], options)).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after maxAttempts on 5xx, and at once on 4xx other than 429', async () => {
    fake.behave({ failStatus: 503 });
    await expect(client.embed(['a'], options)).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('503') });
    expect(fake.requests).toHaveLength(3);
    fake.requests.length = 0;
    const wrongKey = new EmbeddingsClient({ baseUrl: fake.url, apiKey: 'wrong', timeoutMs: 1000 });
    fake.behave({});
    const error = await wrongKey.embed(['a'], options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingsError);
    expect(error).toMatchObject({ kind: 'rejected', retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it('times out on a hung endpoint and refuses malformed answers', async () => {
    const impatient = new EmbeddingsClient({ baseUrl: fake.url, apiKey: 'test-embeddings-key', timeoutMs: 100 });
    fake.behave({ hang: true });
    await expect(impatient.embed(['a'], { ...options, maxAttempts: 1 })).rejects.toMatchObject({ kind: 'timeout' });
    fake.behave({ vectorFor: (text) => (text === 'a' ? [1, 2] : [1, 2, 3]) });
    await expect(client.embed(['a', 'b'], options)).rejects.toMatchObject({ kind: 'malformed' });
  });
});
