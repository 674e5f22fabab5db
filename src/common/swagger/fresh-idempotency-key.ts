/** The request Swagger UI is about to send, as its `requestInterceptor` sees it. */
export interface SwaggerRequest {
  method?: string;
  headers: Record<string, string>;
}

/**
 * Swagger UI's `requestInterceptor` (docs/idempotency.md): a write whose Idempotency-Key field was left empty gets a
 * fresh UUID v4 on every "Execute", so a second try with an edited body is a new request, not a 422
 * `idempotency_key_reused` or a silent replay. A key typed into the field is sent as typed. Swagger UI serialises
 * this function with toString() into its page, so it uses nothing from outside its body (and getRandomValues,
 * which unlike randomUUID also exists on plain-http origins).
 */
export function freshIdempotencyKey(request: SwaggerRequest): SwaggerRequest {
  const method = (request.method ?? 'GET').toUpperCase();
  const given = Object.keys(request.headers).some((name) => name.toLowerCase() === 'idempotency-key');
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || given) return request;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  request.headers['Idempotency-Key'] = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return request;
}
