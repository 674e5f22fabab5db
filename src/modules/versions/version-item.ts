import type { VersionResponseDto } from './dto/version-response.dto.js';
import type { VersionStatus } from './entities/agent-version.entity.js';

/** One listing item as read: a base version or a pushed revision (R ≥ 1), with its version's metadata. */
export interface VersionItemRow {
  id: string;
  agent_id: string;
  number: number;
  version_tag: string;
  status: VersionStatus;
  is_live: boolean;
  is_revision: boolean;
  base_version_id: string | null;
  label: string | null;
  tags: string[];
  notes: string | null;
  digest: string;
  message: string | null;
  created_at: Date;
  updated_at: Date;
}

export const toVersionResponse = (row: VersionItemRow): VersionResponseDto => ({
  id: row.id,
  agent_id: row.agent_id,
  number: row.number,
  version_tag: row.version_tag,
  status: row.status,
  is_live: row.is_live,
  is_revision: row.is_revision,
  base_version_id: row.base_version_id,
  label: row.label,
  tags: row.tags,
  notes: row.notes,
  digest: row.digest,
  message: row.message,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
