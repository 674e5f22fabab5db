/**
 * Bounds on what any caller can make the service work on. One place, so every surface (JSON, SSE, WebSocket,
 * events webhook, channels) enforces the same figures and docs/security.md can quote them.
 */
export const INPUT_LIMITS = {
  /** Nesting of objects and arrays in any JSON body or frame; checked while scanning, before anything is built. */
  jsonMaxDepth: 64,
  /** Characters of one end-user message (send, stream, WebSocket frame, events webhook, channel reply). */
  messageMaxChars: 16_384,
  /** Characters (code points, as messages are counted) any tenant pattern (guardrail, parameter extractor) sees. */
  patternInputMaxChars: 16_384,
  /** Characters of one word that search and fuzzy matching consider; the rest of a longer word is ignored. */
  searchTokenMaxChars: 64,
} as const;
