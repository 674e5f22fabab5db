import { existsSync, readFileSync } from 'node:fs';
import { NotFoundError } from '../common/errors/app-error.js';
import type { AgentRuntime } from '../modules/bundles/bundle.types.js';
import { AgentsService } from '../modules/agents/agents.service.js';
import { CredentialsRepository } from '../modules/auth/credentials.repository.js';
import type { Principal } from '../modules/auth/principal.js';
import { hashSecret } from '../modules/auth/secrets.js';
import { KeysService } from '../modules/keys/keys.service.js';
import { OrganizationsService } from '../modules/organizations/organizations.service.js';
import { ProjectsService } from '../modules/projects/projects.service.js';
import { VersionsService } from '../modules/versions/versions.service.js';
import { writePrivateFile } from './private-file.js';

/** What `npm start` prints in its banner; written by `cli demo:ensure`, read by the service at start. */
export interface Quickstart {
  organization_id: string;
  project_id: string;
  agents: QuickstartAgent[];
}

export interface QuickstartAgent {
  name: string;
  runtime: AgentRuntime;
  template: string;
  agent_id: string;
  publishable_key: string;
  /** A first message that shows what the agent does. */
  try_text: string;
}

const DEMO_PROJECT = 'Demo';
const DEMO_AGENTS: Omit<QuickstartAgent, 'agent_id' | 'publishable_key'>[] = [
  { name: 'Demo shop', runtime: 'v1', template: 'shopping-assistant', try_text: 'Do you have trail running shoes?' },
  { name: 'Demo help center', runtime: 'v2', template: 'knowledge-assistant', try_text: 'How do I export my data?' },
];

export interface DemoServices {
  credentials: CredentialsRepository;
  organizations: OrganizationsService;
  projects: ProjectsService;
  agents: AgentsService;
  versions: VersionsService;
  keys: KeysService;
}

export function readQuickstart(path: string): Quickstart | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Quickstart;
  } catch {
    return undefined;
  }
}

/**
 * Idempotent: the demo project of the organization that accepts `orgApiKey`, with a live shopping agent (v1) and a
 * live knowledge agent (v2) and a publishable key for each, recorded in `file` (mode 0600). What the previous run
 * recorded is reused while it still exists; only what is missing (deleted, revoked, another organization) is made.
 */
export async function ensureDemo(services: DemoServices, orgName: string, orgApiKey: string, file: string): Promise<Quickstart> {
  const organizationId = await services.organizations.ensureOrganizationWithKey(orgName, orgApiKey);
  const who: Principal = { kind: 'orgKey', organizationId, keyId: 'quickstart' };
  const previous = readQuickstart(file);
  const reuse = previous?.organization_id === organizationId ? previous : undefined;

  const projectId =
    reuse && (await exists(() => services.projects.get(who, reuse.project_id)))
      ? reuse.project_id
      : (await services.projects.create(who, { name: DEMO_PROJECT })).id;
  const agents: QuickstartAgent[] = [];
  for (const spec of DEMO_AGENTS) {
    const before = projectId === reuse?.project_id ? reuse.agents.find((a) => a.template === spec.template) : undefined;
    agents.push(await ensureAgent(services, who, projectId, spec, before));
  }
  const quickstart: Quickstart = { organization_id: organizationId, project_id: projectId, agents };
  writePrivateFile(file, `${JSON.stringify(quickstart, null, 2)}\n`);
  return quickstart;
}

async function ensureAgent(
  services: DemoServices,
  who: Principal,
  projectId: string,
  spec: (typeof DEMO_AGENTS)[number],
  before: QuickstartAgent | undefined,
): Promise<QuickstartAgent> {
  const existing = before ? await services.agents.get(who, before.agent_id).catch(notFoundAsUndefined) : undefined;
  const agent = existing ?? (await services.agents.create(who, projectId, { name: spec.name, runtime: spec.runtime }));
  if (!agent.live_version_id) {
    const version = await services.versions.create(who, agent.id, { source: 'template', template: spec.template });
    await services.versions.publish(who, agent.id, version.id);
  }
  // The key recorded last time, while it still exists for this agent and is not revoked.
  const previousKey = existing ? before?.publishable_key : undefined;
  const stored = previousKey ? await services.credentials.findPublishableKeyByHash(hashSecret(previousKey)) : undefined;
  const publishableKey =
    previousKey && stored?.agent_id === agent.id && !stored.revoked
      ? previousKey
      : (await services.keys.createPublishableKey(who, agent.id, {})).publishable_key;
  return { ...spec, agent_id: agent.id, publishable_key: publishableKey };
}

async function exists(read: () => Promise<unknown>): Promise<boolean> {
  return (await read().catch(notFoundAsUndefined)) !== undefined;
}

function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof NotFoundError) return undefined;
  throw error;
}
