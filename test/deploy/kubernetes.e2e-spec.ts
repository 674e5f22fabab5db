/**
 * The deployment files (docs/deploy.md): every Kubernetes object of the kustomize base validates against the
 * Kubernetes OpenAPI schemas (the `kubernetes-models` package bundles them, with its validator), and the manifests
 * keep the service's own contract — probes on the right endpoints, a grace period that holds the drain, secrets only
 * by reference, autoscalers and budgets that select what exists, configuration the service accepts. The compose file
 * scales: no fixed host port on the API, a balancer the replicas trust.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';
import { validateEnv } from '../../src/config/env.schema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE = join(ROOT, 'deploy/kubernetes/base');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: any };

/** The model class of `apiVersion`/`kind` in kubernetes-models: `apps/v1` → apps/v1/Kind, core `v1` → v1/Kind. */
async function validatorOf(manifest: Manifest): Promise<{ validate(): void }> {
  const path = `kubernetes-models/${manifest.apiVersion}/${manifest.kind}`;
  const module = (await import(path)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[manifest.kind];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  return new Model(manifest);
}

describe('deploy: Kubernetes manifests (kustomize base)', () => {
  const kustomization = parse(readFileSync(join(BASE, 'kustomization.yaml'), 'utf8'));
  const manifests: Manifest[] = (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(join(BASE, file), 'utf8')).map((doc) => doc.toJS() as Manifest),
  );
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
  const named = (kind: string, name: string) => {
    const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
    if (!found) throw new Error(`${kind} ${name} is not in the base`);
    return found;
  };
  const config = named('ConfigMap', 'agent-service-config').data as Record<string, string>;

  it('lists files that exist, and every object validates against the Kubernetes schemas', async () => {
    expect(kustomization).toMatchObject({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' });
    for (const file of kustomization.resources as string[]) expect([file, existsSync(join(BASE, file))]).toEqual([file, true]);
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual(
      [
        'ConfigMap/agent-service-config',
        'Deployment/agent-api',
        'Deployment/agent-worker',
        'HorizontalPodAutoscaler/agent-api',
        'HorizontalPodAutoscaler/agent-worker',
        'Job/agent-migrate',
        'PodDisruptionBudget/agent-api',
        'PodDisruptionBudget/agent-worker',
        'Service/agent-api',
      ].sort(),
    );
    const problems: string[] = [];
    for (const manifest of manifests) {
      try {
        (await validatorOf(manifest)).validate();
      } catch (error) {
        problems.push(`${manifest.kind}/${manifest.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the schema validation is real: a broken object is refused', async () => {
    const api = named('Deployment', 'agent-api');
    const broken = { ...api, spec: { ...api.spec, replicas: 'three' } };
    await expect(validatorOf(broken).then((model) => model.validate())).rejects.toThrow(/replicas/);
  });

  it('probes: the API on /health/ready and /health of its http port; the worker on its metrics listener', () => {
    const api = named('Deployment', 'agent-api').spec.template.spec;
    const [apiContainer] = api.containers;
    expect(apiContainer.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(apiContainer.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(apiContainer.ports.map((p: { name: string }) => p.name)).toEqual(['http', 'metrics']);
    const worker = named('Deployment', 'agent-worker').spec.template.spec;
    const [workerContainer] = worker.containers;
    expect(workerContainer.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'metrics' });
    expect(workerContainer.livenessProbe.httpGet).toEqual({ path: '/health', port: 'metrics' });
    expect(workerContainer.env).toEqual(
      expect.arrayContaining([{ name: 'METRICS_PORT', value: String(workerContainer.ports[0].containerPort) }]),
    );
    // Kubernetes waits for the drain and the in-flight work before SIGKILL.
    const needed = (Number(config.SHUTDOWN_DRAIN_MS) + Number(config.SHUTDOWN_TIMEOUT_MS)) / 1000;
    for (const spec of [api, worker]) expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(needed);
  });

  it('secrets only by reference; the configuration is accepted by the service', () => {
    const text = readFileSync(join(BASE, 'api-deployment.yaml'), 'utf8');
    expect(byKind('Secret')).toEqual([]);
    expect(text).not.toMatch(/JWT_SECRET\s*\n\s*value:/);
    for (const workload of [...byKind('Deployment'), ...byKind('Job')]) {
      for (const container of workload.spec.template.spec.containers) {
        const secretRefs = (container.env as Array<{ valueFrom?: { secretKeyRef?: { name: string } } }>).filter(
          (e) => e.valueFrom?.secretKeyRef,
        );
        expect(secretRefs.length).toBeGreaterThan(0);
        for (const ref of secretRefs) expect(ref.valueFrom!.secretKeyRef!.name).toBe('agent-service-secrets');
        expect(container.envFrom).toEqual([{ configMapRef: { name: 'agent-service-config' } }]);
      }
    }
    // Every key is a variable the service knows, with a value it accepts (a production start needs JWT_SECRET).
    const env = validateEnv({ ...config, JWT_SECRET: 'x'.repeat(32) });
    for (const key of Object.keys(config)) expect([key, key in env]).toEqual([key, true]);
    expect(config.MIGRATE_ON_START).toBe('false');
    expect(named('Job', 'agent-migrate').spec.template.spec.containers[0].args).toEqual(['node', 'dist/src/database/migrate.js']);
    expect(existsSync(join(ROOT, 'src/database/migrate.ts'))).toBe(true);
  });

  it('autoscalers and disruption budgets target what exists; workers scale on the PostgreSQL queue age', () => {
    for (const hpa of byKind('HorizontalPodAutoscaler')) {
      expect(named('Deployment', hpa.spec.scaleTargetRef.name).kind).toBe('Deployment');
    }
    expect(named('HorizontalPodAutoscaler', 'agent-api').spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 65 } } },
    ]);
    const [external] = named('HorizontalPodAutoscaler', 'agent-worker').spec.metrics;
    expect(external.type).toBe('External');
    const adapter = parse(read('deploy/kubernetes/prometheus-adapter.yaml'));
    const [rule] = adapter.rules.external;
    expect(rule.name.as).toBe(external.external.metric.name);
    expect(rule.metricsQuery).toContain('agent_events_oldest_due_age_seconds');
    for (const pdb of byKind('PodDisruptionBudget')) {
      const deployment = named('Deployment', pdb.metadata.name);
      expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
    }
  });
});

describe('deploy: docker compose scales behind a balancer', () => {
  const compose = parse(read('docker-compose.yml'));

  it('the API has no fixed host port; the balancer publishes one and is the only trusted proxy', () => {
    expect(compose.services.api.ports).toBeUndefined();
    expect(compose.services.api.expose).toEqual(['3000']);
    expect(compose.services.balancer.ports).toEqual(['127.0.0.1:3000:3000']);
    const address = compose.services.balancer.networks.default.ipv4_address;
    expect(compose.services.api.environment.TRUST_PROXY).toBe(address);
    const haproxy = read('deploy/compose/haproxy.cfg');
    expect(haproxy).toContain('option forwardfor');
    expect(haproxy).toContain('option httpchk GET /health/ready');
    expect(haproxy).toMatch(/server-template api \d+ api:3000 check/);
  });
});
