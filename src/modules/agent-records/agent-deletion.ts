import type { EventBus } from '../../common/bus/event-bus.js';
import type { LiveRevisionChange } from '../../common/bus/event-map.js';
import type { AgentsRepository } from './agents.repository.js';

/** What deleting agents touches: the agents' rows, and the bus that tells the owners of what goes with them. */
export interface AgentDeletion {
  agents: Pick<AgentsRepository, 'softDelete'>;
  bus: Pick<EventBus, 'publish'>;
}

/**
 * Deletes agents in the caller's unit of work: one agent, or every live agent of a project being deleted. The rows
 * stay (soft delete) so their threads and usage remain readable and counted; `agents.deleted`, published in the
 * transaction, has their owners delete their versions, revisions and keys for good (versions, auth), so nothing can
 * authenticate as them or answer for them. Returns, per deleted agent, the live-pointer change to announce
 * (`agent.live_changed`), which drops it from the messaging and events caches. The caller announces the credential
 * change (CredentialChanges) for the keys and tokens that die with them.
 */
export async function deleteAgents(
  owners: AgentDeletion,
  organizationId: string,
  scope: { agentId: string } | { projectId: string },
): Promise<LiveRevisionChange[]> {
  const agentIds = await owners.agents.softDelete(organizationId, scope);
  if (agentIds.length > 0) await owners.bus.publish('agents.deleted', { organizationId, agentIds });
  return agentIds.map((agentId) => ({
    organizationId,
    agentId,
    versionId: null,
    revisionId: null,
    versionTag: null,
    reason: 'agent_deleted',
  }));
}
