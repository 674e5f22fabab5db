import type { EntityManager } from 'typeorm';
import { AgentEntity } from './agent.entity.js';

/**
 * The caller's agent if it is visible: same organization, not deleted, in a project that is not deleted.
 * With `lock`, the row is locked (FOR NO KEY UPDATE) for the rest of the transaction: every change to an agent's
 * versions that moves its live pointer (publish, archive, rename, delete, version numbering) takes this lock first.
 */
export function findVisibleAgent(em: EntityManager, organizationId: string, agentId: string, lock: boolean | 'share' = false): Promise<AgentEntity | null> {
  const qb = em
    .getRepository(AgentEntity)
    .createQueryBuilder('a')
    .where('a.id = :agentId AND a.organization_id = :organizationId AND a.deleted_at IS NULL', { agentId: agentId.toLowerCase(), organizationId })
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
