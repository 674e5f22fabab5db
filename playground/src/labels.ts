import type { Project } from './types';

/** "Demo", or "Demo · created 27 Nov 2026, 13:02 · …a1b2c3" when another project has the same name. */
export function projectLabel(project: Project, all: Project[]): string {
  if (all.filter((p) => p.name === project.name).length < 2) return project.name;
  return `${project.name} · created ${new Date(project.created_at).toLocaleString()} · …${project.id.slice(-6)}`;
}
