import { LATENCY_BUCKET_BOUNDS_MS } from '../../database/migrations/1732243310000-analytics.js';
import { quantile } from './analytics.service.js';

const empty = () => new Array<number>(LATENCY_BUCKET_BOUNDS_MS.length + 1).fill(0);

describe('latency quantiles from the fixed-bucket histogram', () => {
  it('is null without latencies', () => {
    expect(quantile(empty(), 0.5)).toBeNull();
  });

  it('interpolates inside the bucket that holds the rank', () => {
    const counts = empty();
    counts[3] = 10; // [75, 100) ms
    expect(quantile(counts, 0.5)).toBe(88); // 75 + 25 × 5/10, rounded
    expect(quantile(counts, 0.95)).toBe(99); // 75 + 25 × 9.5/10, rounded
  });

  it('walks the buckets in order: p50 and p95 in different buckets', () => {
    const counts = empty();
    counts[0] = 90; // under 25 ms
    counts[10] = 10; // [750, 1000) ms
    expect(quantile(counts, 0.5)).toBe(14);
    expect(quantile(counts, 0.95)).toBe(875);
  });

  it('answers the lower bound of the open last bucket', () => {
    const counts = empty();
    counts[counts.length - 1] = 3;
    expect(quantile(counts, 0.95)).toBe(60_000);
  });
});
