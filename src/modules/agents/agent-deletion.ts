import type { ApiKeysRepository } from '../auth/api-keys.repository.js';
import type { LiveRevisionChange } from '../../common/bus/event-map.js';
import type { VersionsService } from '../versions/versions.service.js';
import type { AgentsRepository } from './agents.repository.js';

/** What deleting agents touches: the agents, their versions, their keys (each through its owner). */
export interface AgentDeletion {
  agents: Pick<AgentsRepository, 'softDelete'>;
  versions: Pick<VersionsService, 'deleteAllOfAgent'>;
  keys: Pick<ApiKeysRepository, 'deleteAllForAgents'>;
}

/**
 * Deletes agents in the caller's unit of work: one agent, or every live agent of a project being deleted. The rows
 * stay (soft delete) so their threads and usage remain readable and counted; their versions, revisions and keys go
 * for good, so nothing can authenticate as them or answer for them. Returns, per deleted agent, the live-pointer
 * change to announce after commit (`agent.live_changed`), which drops it from the messaging and events caches.
 * The caller announces the credential change (CredentialChanges) for the keys and tokens that die with them.
 */
export async function deleteAgents(
  owners: AgentDeletion,
  organizationId: string,
  scope: { agentId: string } | { projectId: string },
): Promise<LiveRevisionChange[]> {
  const agentIds = await owners.agents.softDelete(organizationId, scope);
  for (const agentId of agentIds) await owners.versions.deleteAllOfAgent(agentId);
  await owners.keys.deleteAllForAgents(agentIds);
  return agentIds.map((agentId) => ({
    organizationId,
    agentId,
    versionId: null,
    revisionId: null,
    versionTag: null,
    reason: 'agent_deleted',
  }));
}
