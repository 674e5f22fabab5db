/**
 * What every console page gets (docs/playground.md): the management API with the signed-in credential, the project
 * and agent picked in the top bar, and ways to change them. A page is a module under `pages/` whose default export
 * takes these props; app.tsx lists it in `PAGES` with one line.
 */
import type { ComponentType } from 'preact';
import type { ManagementApi } from './api';
import type { Conversations } from './conversations';
import type { Agent, Project } from './types';

export interface PageProps {
  /** Named methods for the routes the console's pages use; `api.get` / `api.send` reach any other management route. */
  api: ManagementApi;
  /** The project picked in the top bar (pages of scope `project` and `agent` always get one; `organization` pages may not). */
  project: Project | undefined;
  /** The agent picked in the top bar (pages of scope `agent` always get one). */
  agent: Agent | undefined;
  /** Reloads the projects (after a change) and picks `select` when given. */
  reloadProjects(select?: string): Promise<void>;
  /** Reloads the project's agents (after a change) and picks `select` when given. */
  reloadAgents(select?: string): Promise<void>;
  /** Goes to another page (`'knowledge'`, `'chat'`…). */
  go(page: string): void;
  /** The conversations of this tab, kept while the person moves between pages. */
  conversations: Conversations;
}

export interface PageEntry {
  /** The page's place in the URL: `#/<path>`. */
  path: string;
  title: string;
  /** What must be picked before the page makes sense: nothing, a project, or an agent. */
  scope: 'organization' | 'project' | 'agent';
  /** The page's module, loaded when first shown (a separate script, so a heavy page costs the others nothing). */
  load: () => Promise<{ default: ComponentType<PageProps> }>;
}
