import { readFileSync } from 'node:fs';
import { InvalidEnvironmentError, validateEnv } from './env.schema.js';

describe('environment validation', () => {
  it('accepts .env.example, which lists every variable', () => {
    const example = Object.fromEntries(
      readFileSync('.env.example', 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    const env = validateEnv(example);
    expect(Object.keys(example).sort()).toEqual(Object.keys(env).sort());
  });

  it('lists every bad key at once', () => {
    try {
      validateEnv({ PORT: '-1', WORKERS: 'maybe', BASE_PATH: 'api/', NODE_ENV: 'production' });
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      const problems = (error as InvalidEnvironmentError).problems.map((p) => p.split(':')[0]);
      expect(problems.sort()).toEqual(['BASE_PATH', 'JWT_SECRET', 'PORT', 'WORKERS']);
    }
  });

  it('converts numbers and booleans', () => {
    const env = validateEnv({ PORT: '8080', TRUST_PROXY: 'true', MIGRATE_ON_START: 'false' });
    expect(env.PORT).toBe(8080);
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.MIGRATE_ON_START).toBe(false);
  });

  it('reads METRICS_PORT as a port, 0 (ephemeral) or off', () => {
    expect(validateEnv({}).METRICS_PORT).toBe(9464);
    expect(validateEnv({ METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(validateEnv({ METRICS_PORT: 'off' }).METRICS_PORT).toBe('off');
    for (const bad of ['abc', '70000', '-1']) {
      expect(() => validateEnv({ METRICS_PORT: bad })).toThrow(/METRICS_PORT/);
    }
    expect(() => validateEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('reads TRUST_PROXY as off, the deprecated true, or a list of addresses, CIDRs and named ranges', () => {
    expect(validateEnv({}).TRUST_PROXY).toBe(false);
    expect(validateEnv({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(validateEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).TRUST_PROXY).toBe('10.0.0.0/8, 127.0.0.1,::1,loopback');
    for (const bad of ['10.0.0.0/33', 'balancer.internal', '10.0.0.1,nope', ' , ']) {
      expect(() => validateEnv({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads OUTBOUND_ALLOWED_NETWORKS as a CIDR list', () => {
    expect(validateEnv({}).OUTBOUND_ALLOWED_NETWORKS).toBe('');
    expect(validateEnv({ OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128' }).OUTBOUND_ALLOWED_NETWORKS).toBe('127.0.0.0/8, ::1/128');
    for (const bad of ['127.0.0.1', '10.0.0.0/33', 'example.com/8', '127.0.0.0/8,nope']) {
      expect(() => validateEnv({ OUTBOUND_ALLOWED_NETWORKS: bad })).toThrow(/OUTBOUND_ALLOWED_NETWORKS/);
    }
  });
});
