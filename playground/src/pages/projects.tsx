import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { projectLabel } from '../labels';
import { useLoad } from '../load';

/** The organization's projects: make one, rename one, delete one (its agents, threads and webhooks go with it). */
export default function ProjectsPage({ api, project, reloadProjects }: PageProps) {
  const [list, reload] = useLoad(() => api.projects(), []);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      reload();
    } catch (e) {
      setError(e);
    }
  };
  const projects = list.value?.results ?? [];
  return (
    <div class="page">
      <h2>Projects</h2>
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const made = await api.createProject(name.trim());
            setName('');
            await reloadProjects(made.id);
          });
        }}
      >
        <label class="grow">
          New project name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={100} required />
        </label>
        <button type="submit" disabled={!name.trim()}>
          Create project
        </button>
      </form>
      <ErrorNote error={error ?? list.error} />
      <ul class="items" data-testid="project-list">
        {projects.map((p) => (
          <li key={p.id} class={p.id === project?.id ? 'selected' : ''}>
            <div class="grow">
              <strong>{projectLabel(p, projects)}</strong>
              <div class="muted small">
                created {new Date(p.created_at).toLocaleString()} · id {p.id}
              </div>
            </div>
            <div class="row">
              {p.id !== project?.id && (
                <button type="button" class="secondary" onClick={() => void reloadProjects(p.id)}>
                  Open
                </button>
              )}
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  const renamed = prompt('New name', p.name);
                  if (renamed?.trim()) {
                    void run(async () => {
                      await api.renameProject(p.id, renamed.trim());
                      await reloadProjects();
                    });
                  }
                }}
              >
                Rename
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm(`Delete project “${p.name}” with its agents, threads and webhooks?`)) {
                    void run(async () => {
                      await api.deleteProject(p.id);
                      await reloadProjects();
                    });
                  }
                }}
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
