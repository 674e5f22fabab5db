/**
 * The conversations of this tab, in memory: moving to another page (Threads, Knowledge…) and back finds the chat
 * as it was — same turns, same thread — instead of starting a new thread. A reload starts afresh (the threads are
 * the service's; the Threads page reads them back).
 */
import type { MessagingAuth } from './api';
import type { Agent, Card, Trace } from './types';

/** A tool call of agent mode as the `step` events report it. */
export interface Step {
  id: string;
  tool: string;
  status: string;
  duration_ms?: number;
}

export interface Turn {
  key: number;
  role: 'user' | 'agent';
  text: string;
  steps?: Step[];
  cards: Card[];
  suggestions: string[];
  trace?: Trace;
  /** The reply's message id (feedback rates it) and the end user's rating of it. */
  messageId?: string;
  rating?: 'up' | 'down';
  tokens?: { input: number; output: number };
  streaming?: boolean;
  resumed?: number;
  error?: unknown;
}

/** What the chat talks to: the agent that answers (a preview agent when trying a version that is not live) and its key. */
export interface Target {
  /** The agent and revision tag picked, e.g. `<agent id>:v2.3`. */
  key: string;
  agent?: Agent;
  label: string;
  auth: MessagingAuth;
}

export interface Conversation {
  turns: Turn[];
  threadId?: string;
}

export class Conversations {
  /** The conversation shown on the Chat page. */
  current?: Target;
  private readonly byTarget = new Map<string, Conversation>();

  get(target: Target): Conversation | undefined {
    return this.byTarget.get(target.key);
  }

  save(target: Target, conversation: Conversation): void {
    this.byTarget.set(target.key, conversation);
  }

  /** A new conversation with the same target (the "New conversation" button). */
  forget(target: Target): void {
    this.byTarget.delete(target.key);
  }
}
