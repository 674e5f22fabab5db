import { hkdfSync, type BinaryLike } from 'node:crypto';

/**
 * The signing secret (`whsec_…`) of an agent's HTTP tool calls, derived from the server key: the same on every
 * instance and after restarts. The runtime signs the calls with it; the agents module shows it to the agent's owner.
 */
export function toolSigningSecret(signingKey: BinaryLike, agentId: string): string {
  const key = hkdfSync('sha256', signingKey, 'agent-service/http-tools', agentId.toLowerCase(), 32);
  return `whsec_${Buffer.from(key).toString('base64')}`;
}
