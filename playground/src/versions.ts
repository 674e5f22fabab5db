/**
 * A version listing (versions and their pushed revisions as items) as people read it: each version once, with
 * its revisions under it, each revision tag once. The base item's `version_tag` is its current revision's tag, so
 * the flat listing shows that tag twice (the base item and the revision item); here it is one entry marked current.
 */
import type { Version } from './types';

export interface RevisionEntry {
  tag: string;
  /** The revision item, or the base version for `vN.0` (its starting content) and an unpushed current revision. */
  item: Version;
  current: boolean;
  live: boolean;
  message: string | null;
}

export interface VersionEntry {
  version: Version;
  /** Newest first; `vN.0` last. */
  revisions: RevisionEntry[];
}

const revisionNumber = (tag: string) => Number(tag.slice(tag.indexOf('.') + 1));

export function versionTree(items: Version[], liveTag: string | null): VersionEntry[] {
  const bases = items.filter((v) => !v.is_revision).sort((a, b) => b.number - a.number);
  return bases.map((version) => {
    const pushed = items.filter((v) => v.is_revision && v.base_version_id === version.id);
    const entries = new Map<string, RevisionEntry>();
    const add = (tag: string, item: Version, message: string | null) =>
      entries.set(tag, { tag, item, current: tag === version.version_tag, live: tag === liveTag, message });
    add(`v${version.number}.0`, version, null);
    for (const revision of pushed) add(revision.version_tag, revision, revision.message);
    if (!entries.has(version.version_tag)) add(version.version_tag, version, null);
    return { version, revisions: [...entries.values()].sort((a, b) => revisionNumber(b.tag) - revisionNumber(a.tag)) };
  });
}

/** "Version 2 · draft · spring sale" */
export function versionLabel(version: Version, liveVersionId: string | null): string {
  const state = version.id === liveVersionId ? 'live' : version.status;
  return `Version ${version.number} · ${state}${version.label ? ` · ${version.label}` : ''}`;
}
