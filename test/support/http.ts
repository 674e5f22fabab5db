import { request as httpRequest } from 'node:http';

/** A small real-HTTP client over Node's fetch: status, headers and the parsed JSON body. */
export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface HttpOptions {
  headers?: Record<string, string>;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  /** Sent as is (with whatever content-type the headers say). */
  raw?: string;
}

export class HttpClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, options: HttpOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, { body, headers });
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, { headers });
  }
}

/**
 * One JSON request sent from `localAddress`, a loopback alias such as 127.0.0.2 (Linux routes all of 127.0.0.0/8 to
 * lo), so the service sees that address as the client's. Over node:http: fetch cannot choose its source address.
 */
export function requestFrom<T = any>(
  localAddress: string,
  url: string,
  method: string,
  options: HttpOptions = {},
): Promise<HttpResponse<T>> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined && options.raw === undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const json = text && (res.headers['content-type'] ?? '').includes('json');
        resolve({ status: res.statusCode!, headers: responseHeaders, body: (json ? JSON.parse(text) : undefined) as T, text });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
