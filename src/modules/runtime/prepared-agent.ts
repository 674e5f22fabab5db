import type { Bundle } from '../bundles/bundle.types.js';
import type { AgentToolbox } from './agent/agent-tools.js';
import type { V1Index } from './engines/v1/prepare.js';
import type { V2Index } from './engines/v2-engine.js';

/** A published revision of an agent, as the runtime prepares it. */
export interface Revision {
  digest: string;
  runtime: 'v1' | 'v2';
  bundle: Bundle;
}

/**
 * A revision ready to answer: the bundle plus everything compiled from it once (guardrail and parameter
 * regexes, the intent classifier, catalog and passage indexes). Cached by digest in RuntimeService.
 */
export interface PreparedAgent {
  digest: string;
  runtime: 'v1' | 'v2';
  bundle: Bundle;
  provider: 'builtin' | 'openai' | 'anthropic';
  v1?: V1Index;
  v2?: V2Index;
  /** The identity part of the model's system prompt (name + persona), and its token count. */
  identity: string;
  identityTokens: number;
  /** Token counts of sources and fixed prompt parts, memoised per revision (builtin usage accounting). */
  tokenMemo: Map<string, number>;
  /** Agent mode (`model.mode: "agent"`): the bundle's tools offered to the model, built once per revision (MCP tools join per turn). */
  tools?: AgentToolbox;
}
