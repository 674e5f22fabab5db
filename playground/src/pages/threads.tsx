import { Threads } from '../components/Threads';
import type { PageProps } from '../console';

/** The agent's threads (and those of its preview agent, when a version was tried there, under that agent). */
export default function ThreadsPage({ api, agent }: PageProps) {
  return (
    <div class="page">
      <Threads api={api} agent={agent!} />
    </div>
  );
}
