import { freshIdempotencyKey } from './fresh-idempotency-key.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('freshIdempotencyKey (Swagger UI request interceptor)', () => {
  it('gives every write without a key a new UUID v4', () => {
    const keys = ['POST', 'PATCH', 'put', 'DELETE'].map(
      (method) => freshIdempotencyKey({ method, headers: {} }).headers['Idempotency-Key'],
    );
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps a key typed into the field, and leaves reads alone', () => {
    expect(freshIdempotencyKey({ method: 'POST', headers: { 'idempotency-key': 'mine' } }).headers).toEqual({ 'idempotency-key': 'mine' });
    expect(freshIdempotencyKey({ method: 'GET', headers: {} }).headers).toEqual({});
  });

  it('runs on its own, as Swagger UI runs its source text in the page', () => {
    const rebuilt = new Function(`return (${freshIdempotencyKey.toString()})`)() as typeof freshIdempotencyKey;
    expect(rebuilt({ method: 'POST', headers: {} }).headers['Idempotency-Key']).toMatch(UUID_V4);
  });
});
