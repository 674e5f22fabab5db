import type { components } from '../../clients/typescript/src/schema.js';

export type Card = components['schemas']['CardResponseDto'];
export type Citation = components['schemas']['CitationDto'];
export type Message = components['schemas']['MessageDto'];

/** One bubble of the conversation: what the visitor wrote, or the agent's reply as it streams in. */
export interface Turn {
  key: number;
  role: 'user' | 'agent';
  text: string;
  cards: Card[];
  citations: Citation[];
  suggestions: string[];
  streaming?: boolean;
  error?: string;
}

export const userTurn = (key: number, text: string): Turn => ({ key, role: 'user', text, cards: [], citations: [], suggestions: [] });
export const agentTurn = (key: number, text = '', suggestions: string[] = []): Turn => ({
  key,
  role: 'agent',
  text,
  cards: [],
  citations: [],
  suggestions,
});
