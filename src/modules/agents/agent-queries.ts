import type { EntityManager } from 'typeorm';
import type { LiveRevisionChange } from '../../common/bus/event-map.js';
import type { VersionsService } from '../versions/versions.service.js';
import { AgentEntity } from './agent.entity.js';

/**
 * The caller's agent if it is visible: same organization, not deleted, in a project that is not deleted.
 * With `lock`, the row is locked (FOR NO KEY UPDATE) for the rest of the transaction: every change to an agent's
 * versions that moves its live pointer (publish, archive, rename, delete, version numbering) takes this lock first.
 */
export function findVisibleAgent(
  em: EntityManager,
  organizationId: string,
  agentId: string,
  lock: boolean | 'share' = false,
): Promise<AgentEntity | null> {
  const qb = em
    .getRepository(AgentEntity)
    .createQueryBuilder('a')
    .where('a.id = :agentId AND a.organization_id = :organizationId AND a.deleted_at IS NULL', {
      agentId: agentId.toLowerCase(),
      organizationId,
    })
    .andWhere('EXISTS (SELECT 1 FROM projects p WHERE p.id = a.project_id AND p.deleted_at IS NULL)');
  // FOR NO KEY UPDATE, not FOR UPDATE: it still serializes writers of the agent, but lets concurrent inserts that
  // reference the agent (a push's revision row takes FOR KEY SHARE through its foreign key) proceed — with FOR UPDATE,
  // publish (agent, then version) and push (version, then the FK's key-share on the agent) deadlock.
  // `share` (FOR SHARE) is for rows created under the agent (keys): it waits for a concurrent delete to commit,
  // then sees the agent gone, so no key outlives its agent.
  if (lock === 'share') qb.setLock('pessimistic_read');
  else if (lock) qb.setLock('for_no_key_update');
  return qb.getOne();
}

/**
 * Deletes agents in the caller's transaction: one agent, or every live agent of a project being deleted. The rows
 * stay (soft delete) so their threads and usage remain readable and counted; their versions, revisions and keys go
 * for good, so nothing can authenticate as them or answer for them. Returns, per deleted agent, the live-pointer
 * change to announce after commit (`agent.live_changed`), which drops it from the messaging and events caches.
 * The caller announces the credential change (CredentialChanges) for the keys and tokens that die with them.
 */
export async function deleteAgents(
  em: EntityManager,
  versions: Pick<VersionsService, 'deleteAllOfAgent'>,
  organizationId: string,
  scope: { agentId: string } | { projectId: string },
): Promise<LiveRevisionChange[]> {
  const [column, id] = 'agentId' in scope ? ['id', scope.agentId] : ['project_id', scope.projectId];
  // WITH … SELECT so the driver returns the rows as for any SELECT.
  const deleted = (await em.query(
    `WITH deleted AS (
       UPDATE agents SET deleted_at = now(), live_version_id = NULL, live_revision_id = NULL, live_version_tag = NULL, updated_at = now()
        WHERE organization_id = $1 AND ${column} = $2 AND deleted_at IS NULL RETURNING id)
     SELECT id FROM deleted ORDER BY id`,
    [organizationId, id],
  )) as Array<{ id: string }>;
  const agentIds = deleted.map((row) => row.id);
  for (const agentId of agentIds) await versions.deleteAllOfAgent(em, agentId);
  await em.query(`DELETE FROM publishable_keys WHERE agent_id = ANY($1)`, [agentIds]);
  await em.query(`DELETE FROM agent_api_keys WHERE agent_id = ANY($1)`, [agentIds]);
  return agentIds.map((agentId) => ({
    organizationId,
    agentId,
    versionId: null,
    revisionId: null,
    versionTag: null,
    reason: 'agent_deleted',
  }));
}
