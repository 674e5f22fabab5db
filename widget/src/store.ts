/**
 * What the widget keeps between the pages of one visit: the host page's sessionStorage only (gone when the tab
 * closes), never localStorage or cookies. A blocked or full storage just means nothing is kept.
 */
import type { Turn } from './turns';

const PREFIX = 'agent-widget';
/** Enough to re-read the recent conversation after a navigation; the whole thread stays in the service. */
const MAX_SAVED_TURNS = 40;

export interface SavedConversation {
  threadId?: string;
  turns: Turn[];
  open: boolean;
}

function read<T>(name: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(`${PREFIX}.${name}`);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    return undefined;
  }
}

function write(name: string, value: unknown): void {
  try {
    sessionStorage.setItem(`${PREFIX}.${name}`, JSON.stringify(value));
  } catch {
    // Storage refused (private mode, quota): the conversation simply does not survive a navigation.
  }
}

/** The tab's anonymous end-user id (`web-` + 16 hex), so a visit's messages form one user's threads. */
export function visitorId(): string {
  let id = read<string>('user');
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    id = `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    write('user', id);
  }
  return id;
}

/** One conversation per agent and end user. */
export function conversationStore(agentId: string, userId: string) {
  const name = `${agentId}.${userId}`;
  return {
    load: () => read<SavedConversation>(name),
    save(conversation: SavedConversation) {
      const turns = conversation.turns.filter((turn) => !turn.streaming).slice(-MAX_SAVED_TURNS);
      write(name, { ...conversation, turns });
    },
  };
}
