import { FrameBucket } from './frame-bucket.js';

describe('FrameBucket (frames per WebSocket session)', () => {
  const spend = (bucket: FrameBucket, n: number, now: number) => Array.from({ length: n }, () => bucket.take(now));

  it('accepts a burst, refuses the next burst, then closes', () => {
    const bucket = new FrameBucket(10, 5, 0);
    expect(spend(bucket, 5, 0)).toEqual(Array(5).fill('accept'));
    expect(spend(bucket, 5, 0)).toEqual(Array(5).fill('refuse'));
    expect(bucket.take(0)).toBe('close');
  });

  it('refills at the rate, never beyond the burst', () => {
    const bucket = new FrameBucket(10, 5, 0);
    spend(bucket, 5, 0);
    expect(bucket.take(100)).toBe('accept');
    expect(bucket.take(100)).toBe('refuse');
    expect(spend(bucket, 5, 60_000)).toEqual(Array(5).fill('accept'));
    expect(bucket.take(60_000)).toBe('refuse');
  });

  it('keeps a client sending at the rate open, and closes one that keeps sending faster', () => {
    const steady = new FrameBucket(10, 5, 0);
    expect(Array.from({ length: 1000 }, (_, i) => steady.take(i * 100)).every((r) => r === 'accept')).toBe(true);
    const flooding = new FrameBucket(10, 5, 0);
    const results = Array.from({ length: 1000 }, (_, i) => flooding.take(i * 50));
    expect(results).toContain('refuse');
    expect(results).toContain('close');
  });
});
