import type { AgentRuntime } from '../bundle.types.js';
import type { Bundle } from '../bundle.types.js';

/** A bundle shipped with the service, offered as the starting content of a new version (`source: "template"`). */
export interface BundleTemplate {
  id: string;
  name: string;
  description: string;
  runtime: AgentRuntime;
  bundle: Bundle;
}
