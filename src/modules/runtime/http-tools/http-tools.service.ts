import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { newId } from '../../../common/ids/new-id.js';
import { OutboundHttpClient, OutboundRequestError } from '../../../common/outbound/outbound-http.client.js';
import { toolSigningSecret } from '../../../common/outbound/tool-signing.js';
import { signPayload } from '../../../common/outbound/webhook-signature.js';
import { AgentSecretsStore } from '../../agent-secrets/agent-secrets.store.js';
import { HTTP_TOOL_MAX_RESPONSE_BYTES, type CompiledHttpTool, type HttpCallResult, type HttpToolRequest } from '../engines/v1/http-tool.js';

/**
 * The I/O of HTTP tools (docs/http-tools.md): each call is signed per Standard Webhooks with the agent's signing
 * secret and sent through the SSRF-guarded outbound client (no redirects, bounded time and size). `{{secret:NAME}}` in a
 * header value is the agent's secret, filled here at call time (docs/security.md, "Agent secrets"). A call never
 * throws: a failure is a result the engine answers gracefully.
 */
@Injectable()
export class HttpToolsService {
  constructor(
    private readonly config: AppConfig,
    private readonly client: OutboundHttpClient,
    private readonly secrets: AgentSecretsStore,
  ) {}

  /** One tool call; `agentId` absent (engine-only callers) sends it unsigned. */
  async call(agentId: string | undefined, tool: CompiledHttpTool, request: HttpToolRequest): Promise<HttpCallResult> {
    const filled = await this.secrets.fillHeaders(agentId, tool.def.headers ?? {});
    if (!filled.ok) return { ok: false, reason: 'unavailable', detail: filled.message, status: null, latencyMs: null };
    const headers: Record<string, string> = { accept: 'application/json', ...filled.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (agentId) {
      const id = `msg_${newId()}`;
      const at = new Date();
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
      headers['webhook-signature'] = signPayload(
        [toolSigningSecret(this.config.httpTools.signingKey, agentId)],
        id,
        at,
        request.body ?? '',
      );
    }
    const started = performance.now();
    try {
      const res = await this.client.request({
        method: request.method,
        url: request.url,
        headers,
        body: request.body,
        timeoutMs: tool.timeoutMs,
        maxResponseBytes: HTTP_TOOL_MAX_RESPONSE_BYTES,
      });
      return { ok: true, status: res.status, latencyMs: res.latencyMs, body: res.body, truncated: res.truncated };
    } catch (error) {
      const latencyMs = Math.round(performance.now() - started);
      if (error instanceof OutboundRequestError) return { ok: false, reason: error.reason, detail: error.message, status: null, latencyMs };
      return { ok: false, reason: 'connection_failed', detail: (error as Error).message, status: null, latencyMs };
    }
  }
}
