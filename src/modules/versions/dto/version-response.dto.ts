import { ApiProperty } from '@nestjs/swagger';
import { ApiId } from '../../../common/ids/is-id.decorator.js';
import type { VersionStatus } from '../entities/agent-version.entity.js';

/** A version (`is_revision: false`) or, in listings, one of its pushed revisions (`is_revision: true`). */
export class VersionResponseDto {
  @ApiId('The version id, or the revision id for a revision item') id: string;
  @ApiId('The agent') agent_id: string;
  @ApiProperty({ example: 3, description: 'Version number per agent, from 1' }) number: number;
  @ApiProperty({ example: 'v3.2', description: "Base version: its current revision's tag. Revision: its own tag" }) version_tag: string;
  @ApiProperty({ enum: ['draft', 'published', 'archived'], description: 'Lifecycle state' }) status: VersionStatus;
  @ApiProperty({ description: "Base version: it is the agent's live version. Revision: it is the live revision" }) is_live: boolean;
  @ApiProperty({ description: 'true for a pushed revision item of a listing' }) is_revision: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'For a revision item: the id of its version; null for a base version' })
  base_version_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Short name for people' }) label: string | null;
  @ApiProperty({ type: [String], description: 'Free-form tags' }) tags: string[];
  @ApiProperty({ type: String, nullable: true, description: 'Free-form notes' }) notes: string | null;
  @ApiProperty({ example: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description: 'Digest of the bundle' })
  digest: string;
  @ApiProperty({ type: String, nullable: true, description: "A revision's push message; null for a base version" }) message: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the version (or revision) was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When it last changed' }) updated_at: string;
}

export class PushResponseDto {
  @ApiId('The version pushed to') version_id: string;
  @ApiId('The committed revision (the current one when the bundle was unchanged)') revision_id: string;
  @ApiProperty({ example: 'v3.2', description: 'Tag of the committed revision' }) version_tag: string;
  @ApiProperty({ example: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description: 'Digest of the bundle' })
  digest: string;
  @ApiProperty({ format: 'date-time', description: 'When the revision was committed' }) created_at: string;
}

export class BundleResponseDto {
  @ApiId('The agent') agent_id: string;
  @ApiId('The version') version_id: string;
  @ApiProperty({ example: 'v3.2', description: 'The revision returned' }) version_tag: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The configuration bundle (GET /management/v1/bundle-schema)' })
  bundle: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', description: 'Cache this payload until then' }) expires_at: string;
  @ApiProperty({ enum: ['bundle'], description: 'Always bundle' }) return_type: 'bundle';
}
